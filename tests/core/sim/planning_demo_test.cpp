// The planners of the demo world (config/goap, config/archetypes/planners.json) acting in
// the running demo: seed 003's pyromaniac guard burns objects around his post, choosing
// by distance and varying his method with pacing; the raider sequences movement and an
// attack when a simulated player comes into sight; the skirmisher runs two planners (seed
// 003's ships: movement and attacks, talking through one blackboard).
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "demo/demo_game.h"
#include "demo_world.h"

namespace npc {
namespace {

struct Seen {
  std::vector<std::string> actions;      // client-side action names, in order
  std::set<uint64_t> objects;             // "object" arguments
  nlohmann::json view;                    // GetAgent at the end
};

std::map<uint64_t, Seen> runDemo(int ticks, std::initializer_list<uint64_t> agents) {
  SimConfig config;
  config.hibernation.enabled = false;  // the guard post would sleep while no player is there
  test::DemoWorld demo_world(config);
  Simulation& sim = *demo_world.sim;
  DemoGame demo(demo_world.world.players);
  std::vector<Command> pending;
  std::map<uint64_t, Seen> seen;
  const std::set<uint64_t> watched(agents);
  for (int t = 0; t < ticks; ++t) {
    sim.tick();
    for (const ActionOut& a : sim.output().actions) {
      if (!watched.count(raw(a.agent))) continue;
      Seen& s = seen[raw(a.agent)];
      s.actions.push_back(sim.names().name(a.name));
      for (uint8_t i = 0; i < a.param_count; ++i) {
        if (a.params[i].type == ActionParam::Type::kEntity && sim.names().name(a.params[i].name) == "object") {
          s.objects.insert(raw(a.params[i].entity));
        }
      }
    }
    demo.step(sim, pending);
    REQUIRE(sim.submit(pending));
  }
  for (uint64_t id : watched) {
    std::string json;
    REQUIRE(sim.describeAgent(EntityId{id}, json).isOk());
    seen[id].view = nlohmann::json::parse(json);
  }
  return seen;
}

int count(const Seen& s, const std::string& name) {
  return static_cast<int>(std::count(s.actions.begin(), s.actions.end(), name));
}

}  // namespace

TEST_CASE("the demo's pyromaniac guard plans fires and the raider plans attacks", "[sim][planning][demo]") {
  const auto seen = runDemo(1500, {1501, 1502});

  REQUIRE(seen.count(1501));
  const Seen& guard = seen.at(1501);
  const int fires = count(guard, "BurnWith") + count(guard, "ThrowLamp");
  INFO("guard did: " << nlohmann::json(guard.actions).dump());
  CHECK(fires >= 2);
  CHECK(fires <= 3);                       // fires_started < 3 is a precondition of both
  CHECK(count(guard, "Gloat") == fires);   // every plan ends with the pacing action
  CHECK(count(guard, "ReturnToPost") >= 1);
  CHECK(count(guard, "Patrol") >= 1);      // nothing left to plan: the bucket's fallback
  // Smart objects from the world: what he set on fire, and what he took (the archetype
  // performs PickUpLamp / PickUpTorch with the daemon-side Take: into his inventory).
  CHECK((guard.objects.count(5003) + guard.objects.count(5004) + guard.objects.count(5005)) >= 1);
  INFO("guard: " << guard.view.dump());
  CHECK(guard.view["inventory"].contains("oil_lamp"));
  CHECK(guard.view["inventory"].contains("torch"));
  CHECK(guard.view["planner"]["phase"] != "planning");

  REQUIRE(seen.count(1502));
  const Seen& raider = seen.at(1502);
  INFO("raider did: " << nlohmann::json(raider.actions).dump());
  const int attacks = count(raider, "Swing") + count(raider, "Thrust") + count(raider, "Shoot") +
                      count(raider, "Charge");
  CHECK(attacks >= 1);
}

TEST_CASE("the demo's skirmisher runs a movement and an attack planner on one blackboard", "[sim][planning][demo]") {
  const auto seen = runDemo(1500, {1503});
  REQUIRE(seen.count(1503));
  const Seen& s = seen.at(1503);
  INFO("skirmisher did: " << nlohmann::json(s.actions).dump());
  INFO("skirmisher: " << s.view.dump());

  // Both planners are his, each with its own domain and plan.
  const nlohmann::json& planners = s.view.at("planners");
  REQUIRE(planners.size() == 2);
  CHECK(planners[0]["name"] == "footwork");
  CHECK(planners[0]["domain"] == "footwork");
  CHECK(planners[1]["name"] == "attack");
  CHECK(planners[1]["domain"] == "attacker");
  CHECK(planners[0]["searches"].get<int>() >= 1);
  CHECK(planners[1]["searches"].get<int>() >= 1);

  // The footwork planner opened a line; the attack planner charged only along one: every
  // Charge comes after a Flank that no other Charge used up.
  const auto first_flank = std::find(s.actions.begin(), s.actions.end(), "Flank");
  REQUIRE(first_flank != s.actions.end());
  int open_lines = 0, charges = 0;
  for (const std::string& a : s.actions) {
    if (a == "Flank") open_lines = 1;
    if (a != "Charge") continue;
    ++charges;
    CHECK(open_lines == 1);
    open_lines = 0;
  }
  CHECK(charges >= 1);
  const int attacks = count(s, "Swing") + count(s, "Thrust") + count(s, "Shoot") + charges;
  CHECK(attacks >= 1);
}

}  // namespace npc
