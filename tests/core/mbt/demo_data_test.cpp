// The demo world's MBT trees in tests/core/mbt/data (copied to config/ for the daemon):
// the guards' combat adapted from the SDK_Grunt trees, and the villagers' chase/taunt.
#include <catch2/catch.hpp>

#include "mbt_test_support.h"

using namespace npc;
using namespace npc::test;

namespace {

// A few agents of one group running one tree; signals reach the sender and (for Group
// scopes) the whole squad on the next tick, actions finish after action_s.
struct Squad {
  MbtLibrary library;
  std::vector<TestHost> hosts;
  std::vector<MbtInstance> agents;
  MbtLoadReport report;

  Squad(const std::string& tree, int n) {
    report = library.loadDirectory(NPCD_MBT_DATA_DIR);
    hosts.reserve(static_cast<size_t>(n));
    agents.resize(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
      hosts.emplace_back(library.names());
      hosts.back().view.id = static_cast<EntityId>(i + 1);
      hosts.back().view.position = {static_cast<float>(i), 0, 0};
      hosts.back().view.home = hosts.back().view.position;
      library.bind(agents[static_cast<size_t>(i)], tree, hosts.back().view.id, 1);
    }
  }
  void event(const std::string& name) {
    const SignalId id = library.signals().intern(name);
    for (size_t i = 0; i < agents.size(); ++i) agents[i].handleEvent(id, hosts[i]);
  }
  void seeTarget(Vec3 at) {
    for (TestHost& h : hosts) h.seeTarget(EntityId{500}, at);
  }
  void play(int ticks, double action_s = 0.5) {
    for (int t = 0; t < ticks; ++t) {
      std::vector<std::pair<size_t, std::pair<SignalId, MbtSignalScope>>> sent;
      for (size_t i = 0; i < hosts.size(); ++i) {
        for (const auto& s : hosts[i].signals) sent.push_back({i, s});
        hosts[i].signals.clear();
      }
      for (const auto& [from, s] : sent) {
        for (size_t i = 0; i < agents.size(); ++i) {
          const bool reaches = s.second == MbtSignalScope::kSelf ? i == from
                               : s.second == MbtSignalScope::kGroup ? true
                                                                    : i != from;
          if (reaches) agents[i].handleEvent(s.first, hosts[i]);
        }
      }
      for (size_t i = 0; i < agents.size(); ++i) {
        hosts[i].now += 0.1;
        hosts[i].finishOlderThan(action_s);
        agents[i].tick(hosts[i]);
      }
    }
  }
  size_t count(const std::string& action, bool running_only = true) const {
    size_t n = 0;
    for (const TestHost& h : hosts) n += running_only ? h.running(action) : h.started(action);
    return n;
  }
  void requireNoRootFinish() const {
    for (const MbtInstance& a : agents) REQUIRE(a.rootFinishes() == 0);
  }
};

}  // namespace

TEST_CASE("The demo trees load without errors or warnings", "[mbt][demo]") {
  MbtLibrary library;
  const MbtLoadReport report = library.loadDirectory(NPCD_MBT_DATA_DIR);
  REQUIRE(report.text() == "");
  REQUIRE(library.treeNames() == std::vector<std::string>{"GuardCombat", "VillagerChase"});
}

TEST_CASE("Villagers: one chases the player, the others taunt", "[mbt][demo]") {
  Squad villagers("VillagerChase", 4);
  REQUIRE(villagers.report.ok());
  villagers.seeTarget({10, 10, 0});
  villagers.play(1);
  SECTION("Should have exactly one villager run after the player") {
    REQUIRE(villagers.count("Move") == 1);
    REQUIRE(villagers.hosts[0].running("Move") == 1);
    REQUIRE(villagers.count("Communicate") == 3);  // the taunts
  }
  SECTION("Should hand the chase over when the chaser gives up") {
    villagers.hosts[0].finish("Move", false);
    for (int t = 0; t < 100; ++t) {
      villagers.play(1);
      REQUIRE(villagers.count("Move") <= 1);
      REQUIRE(villagers.library.groupScopes().totalUsers() <= 1);
    }
    REQUIRE(villagers.count("Move", false) >= 3);  // the chase went on, by turns
    villagers.requireNoRootFinish();
  }
}

TEST_CASE("Guards: approach, cover, shoot, then search with one inspector", "[mbt][demo]") {
  Squad guards("GuardCombat", 3);
  REQUIRE(guards.report.ok());
  SECTION("Should approach a far target while aiming") {
    guards.seeTarget({40, 0, 0});
    guards.event("OnEnemySeen");
    guards.play(1, 1e9);
    REQUIRE(guards.count("Move") == 3);
    REQUIRE(guards.hosts[0].last("Move")->request.params[0].entity == EntityId{500});
    guards.play(25, 1e9);
    REQUIRE(guards.count("Shoot") == 3);
  }
  SECTION("Should take cover behind an obstacle and shoot from it") {
    for (TestHost& h : guards.hosts) {
      h.obstacle_list.push_back({ObstacleId{1}, {{5, -1, 0}, {6, 1, 2}}, Cover::kHard});
    }
    guards.seeTarget({20, 0, 0});
    guards.event("OnEnemySeen");
    guards.play(1, 1e9);
    const MbtActionParam& to = guards.hosts[0].last("Move")->request.params[0];
    REQUIRE(to.type == MbtActionParam::Type::kPosition);
    REQUIRE(to.position.x < 5.f);
    REQUIRE(guards.count("Shoot", false) == 0);  // holding fire right after combat began
    guards.play(40);
    REQUIRE(guards.count("ShootFromCover", false) >= 3);
    REQUIRE(guards.hosts[0].logged("Now I should fight you!"));
  }
  SECTION("Should fight in the open without cover, then search with one inspector") {
    guards.seeTarget({20, 0, 0});
    guards.event("OnEnemySeen");
    guards.play(20);
    REQUIRE(guards.count("Shoot", false) >= 3);
    REQUIRE(guards.hosts[0].logged("open combat"));
    for (TestHost& h : guards.hosts) h.view.target_class = MbtTargetClass::kRemembered;
    guards.event("OnLostSightOfTarget");
    guards.play(150);
    size_t inspectors = 0;
    for (const TestHost& h : guards.hosts) inspectors += h.started("Bubble");
    REQUIRE(inspectors == 1);
    REQUIRE(guards.count("Look", false) == 2);  // the other two covered him
    guards.play(200);
    for (const MbtInstance& a : guards.agents) {
      REQUIRE(guards.library.describe(a, 0)["running"].back()["type"] == "Halt");
    }
    REQUIRE(guards.library.groupScopes().totalUsers() == 0);
    guards.requireNoRootFinish();
  }
}
