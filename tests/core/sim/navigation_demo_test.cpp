// The demo village's navmesh (config/demo.json "navmesh", config/demo_village.obj) as the
// pyromaniac guard's planner sees it: smart objects priced by the walk, not the straight
// line, so a wall that makes the near haystack a long walk sends him to another.
#include <algorithm>

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "demo_world.h"
#include "sim/sim_navigation.h"

namespace npc {
namespace {

constexpr uint64_t kPyromaniac = 1501;

// The pyromaniac's first plan (GetAgent's planner.plan), after ticking until he has one.
nlohmann::json firstPlan(const std::function<void(WorldFile&)>& edit = {}) {
  SimConfig config;
  config.hibernation.enabled = false;
  test::DemoWorld demo(config, edit);
  for (int t = 0; t < 100; ++t) {
    demo.sim->tick();
    std::string json;
    REQUIRE(demo.sim->describeAgent(EntityId{kPyromaniac}, json).isOk());
    const nlohmann::json view = nlohmann::json::parse(json);
    if (view.contains("planner") && view["planner"].contains("plan") &&
        !view["planner"]["plan"]["steps"].empty())
      return view["planner"]["plan"];
  }
  FAIL("no plan in 100 ticks");
  return {};
}

// Walls round the oil lamp (12, 58) and the near haystack 5003 (16, 57), open to the east:
// from his post (5, 52) the lamp is 9 m in a straight line but about 45 m on foot.
void wallOffTheLamp(WorldFile& w) {
  w.obstacles.push_back({ObstacleId{901}, {{9.5f, 53.f, 0.f}, {10.f, 63.f, 3.f}}, Cover::kHard});
  w.obstacles.push_back({ObstacleId{902}, {{9.5f, 52.5f, 0.f}, {30.f, 53.f, 3.f}}, Cover::kHard});
  w.obstacles.push_back({ObstacleId{903}, {{9.5f, 63.f, 0.f}, {30.f, 63.5f, 3.f}}, Cover::kHard});
}

// The smart objects a plan uses, in order.
std::vector<uint64_t> objectsOf(const nlohmann::json& plan) {
  std::vector<uint64_t> out;
  for (const auto& step : plan["steps"])
    if (step.contains("object")) out.push_back(step["object"].get<uint64_t>());
  return out;
}

}  // namespace

TEST_CASE("The demo village has a navmesh built from its ground and obstacles") {
  test::DemoWorld demo;
  REQUIRE(demo.sim->navigation() != nullptr);
  CHECK(demo.world.navmesh.geometry == NPCD_SOURCE_DIR "/config/demo_village.obj");
  nav::NavQuery& q = const_cast<SimNavigation*>(demo.sim->navigation())->query;
  // Into the bakery (walls 2-6) only through its door at x = 25, y -2..2.
  const nav::NavPath in = q.path({20, 8, 0}, {35, 8, 0});
  REQUIRE(in.result == nav::NavResult::kOk);
  CHECK(in.length_m > 19.5f);  // (20, 8) -> the door (25, 1.6) -> (35, 8); 15 m straight
  // The cliff (obstacle 41) is no floor: its top is off the mesh.
  nav::NavPoint top;
  CHECK(q.nearestPoint({74, 28, 14}, top) == nav::NavResult::kOffMesh);
}

TEST_CASE("A wall that makes the lamp a long walk sends the pyromaniac to the other haystack") {
  // As shipped: the lamp beside his post, thrown at the near haystack.
  const nlohmann::json plain = firstPlan();
  INFO("plan: " << plain.dump());
  CHECK(objectsOf(plain) == std::vector<uint64_t>{5006, 5003});

  SECTION("Should keep the lamp when travel is priced by the straight line (no navmesh)") {
    const nlohmann::json blind = firstPlan([](WorldFile& w) {
      wallOffTheLamp(w);
      w.navmesh.present = false;
    });
    INFO("plan: " << blind.dump());
    CHECK(objectsOf(blind) == std::vector<uint64_t>{5006, 5003});
  }
  SECTION("Should light a torch and burn the far haystack when the navmesh prices the walk") {
    const nlohmann::json walled = firstPlan(wallOffTheLamp);
    INFO("plan: " << walled.dump());
    const std::vector<uint64_t> objects = objectsOf(walled);
    REQUIRE_FALSE(objects.empty());
    CHECK(objects.back() == 5004);  // the haystack west of his post
    CHECK(std::find(objects.begin(), objects.end(), 5006) == objects.end());
    CHECK(walled["cost"].get<float>() > plain["cost"].get<float>());
  }
}

}  // namespace npc
