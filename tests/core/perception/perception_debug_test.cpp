// The GetAgent debug view of one agent's perception.
#include <catch2/catch.hpp>

// GCC 12 reports false -Warray-bounds positives inside nlohmann's inlined object code.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Warray-bounds"
#endif

#include "perception/perception_debug.h"
#include "perception_fixture.h"

using namespace npc;
using npc::test::PerceptionFixture;

TEST_CASE("Debug: describePerception lists every track with its coefficient",
          "[perception][debug]") {
  PerceptionFixture f;
  auto& g = f.addAgent(1, "guard", {0, 0, 0});
  f.add(2, EntityKind::kNpc, "wolf", {10, 0, 0});
  f.add(3, EntityKind::kNpc, "wolf", {10, 8, 0});
  f.addPlayer(4, {25, -3, 0});
  f.step(2);
  f.world.upsertObstacle({ObstacleId{1}, {{5, 4, 0}, {6, 8, 4}}, Cover::kHard});  // hides 3
  f.sys().addSound({{-3, 0, 0}, 10.f, SoundKind::kFootstep, EntityId{9}, -1});
  f.step();
  const nlohmann::json j = describePerception(g, f.now());
  SECTION("Should show the visible, memory and potential lists and the sound targets") {
    REQUIRE(j["visible"].size() == 1);
    REQUIRE(j["visible"][0]["target"] == 2);
    REQUIRE(j["visible"][0]["coefficient"] == 10.0);
    REQUIRE(j["visible"][0]["visible_for_s"] == Approx(0.25));
    REQUIRE(j["memory"].size() == 1);
    REQUIRE(j["memory"][0]["target"] == 3);
    REQUIRE(j["memory"][0]["expires_in_s"].get<double>() == Approx(5.25));
    REQUIRE(j["potential"].size() == 1);
    REQUIRE(j["potential"][0]["target"] == 4);
    REQUIRE(j["potential"][0]["coefficient"].get<double>() == Approx(1.25892));
    REQUIRE(j["sounds"].size() == 1);
    REQUIRE(j["sounds"][0]["kind"] == "footstep");
    REQUIRE(j["sounds"][0]["source"] == 9);
  }
  SECTION("Should show the attention target and the sensors") {
    REQUIRE(j["attention"]["class"] == "visible");
    REQUIRE(j["attention"]["target"] == 2);
    REQUIRE(j["sensors"]["sight_range_m"] == 50.0);
    REQUIRE(j["sensors"]["vision"] == true);
    REQUIRE(j["dropped"]["tracks"] == 0);
  }
}
