// The perception coefficient (SOM): every factor of the increment, decay, the suspicious and
// seen thresholds. Agent at the origin facing +x with a 50 m sight range; a player at 25 m
// standing and moving gains ((1 − 25/50)² + 0.1) × 1.5 = 0.525 per update, minus the 0.1
// decay = 0.425 net.
#include <catch2/catch.hpp>

#include "perception_fixture.h"

using namespace npc;
using npc::test::PerceptionFixture;

namespace {
constexpr Vec3 kStill{0, 0, 0};
}

TEST_CASE("Coefficient: the increment formula", "[perception][coefficient]") {
  PerceptionConfig c;
  SECTION("Should be quadratic in closeness plus 0.1, times the SOM speed") {
    REQUIRE(coefficientIncrement(c, 25.f, 50.f, 1.f, 1.7f, true) == Approx(0.525f));
    REQUIRE(coefficientIncrement(c, 40.f, 50.f, 1.f, 1.7f, true) == Approx(0.21f));
    REQUIRE(coefficientIncrement(c, 50.f, 50.f, 1.f, 1.7f, true) == Approx(0.15f));
  }
  SECTION("Should halve for a target whose eye is under 1 m, and again when it is still") {
    REQUIRE(coefficientIncrement(c, 25.f, 50.f, 1.f, 0.9f, true) == Approx(0.2625f));
    REQUIRE(coefficientIncrement(c, 25.f, 50.f, 1.f, 1.7f, false) == Approx(0.2625f));
    REQUIRE(coefficientIncrement(c, 25.f, 50.f, 1.f, 0.9f, false) == Approx(0.13125f));
    // An eye at exactly 1 m is not under 1 m.
    REQUIRE(coefficientIncrement(c, 25.f, 50.f, 1.f, 1.0f, true) == Approx(0.525f));
  }
  SECTION("Should add the near-range boost under 5 m") {
    REQUIRE(coefficientIncrement(c, 4.f, 50.f, 1.f, 1.7f, true) == Approx(6.4196f));
    REQUIRE(coefficientIncrement(c, 5.f, 50.f, 1.f, 1.7f, true) == Approx(1.365f));
  }
  SECTION("Should scale with the type multiplier and the SOM speed") {
    REQUIRE(coefficientIncrement(c, 25.f, 50.f, 2.f, 1.7f, true) == Approx(1.05f));
    c.som_speed = 1.2f;  // "easy"
    REQUIRE(coefficientIncrement(c, 25.f, 50.f, 1.f, 1.7f, true) == Approx(0.42f));
  }
}

TEST_CASE("Coefficient: rises each full update by distance, height and motion",
          "[perception][coefficient]") {
  PerceptionFixture f;
  SECTION("Should reach 0.425 × k for a standing, moving player at 25 m") {
    auto& g = f.addAgent(1, "guard", {0, 0, 0});
    f.addPlayer(2, {25, 0, 0});
    f.step();
    REQUIRE(f.coefficient(g, 2) == Approx(0.425f));
    f.step(3);
    REQUIRE(f.coefficient(g, 2) == Approx(1.7f));
    REQUIRE(f.track(g, 2)->state == TrackState::kPotential);
  }
  SECTION("Should rise half as fast for a crouched player (eye under 1 m)") {
    auto& g = f.addAgent(1, "guard", {0, 0, 0});
    f.addPlayer(2, {25, 0, 0.8f}, 0.9f);  // eye level with the guard's: d stays 25 m
    f.step(4);
    REQUIRE(f.coefficient(g, 2) == Approx(4 * (0.2625f - 0.1f)));
  }
  SECTION("Should rise half as fast for a still player") {
    auto& g = f.addAgent(1, "guard", {0, 0, 0});
    f.addPlayer(2, {25, 0, 0}, 1.7f, kStill);
    f.step(4);
    REQUIRE(f.coefficient(g, 2) == Approx(0.65f));
  }
  SECTION("Should rise a quarter as fast for a crouched, still player") {
    auto& g = f.addAgent(1, "guard", {0, 0, 0});
    f.addPlayer(2, {25, 0, 0.8f}, 0.9f, kStill);
    f.step(8);
    REQUIRE(f.coefficient(g, 2) == Approx(8 * (0.13125f - 0.1f)));
  }
  SECTION("Should apply the type multiplier of a registered player species") {
    f.config.visibility_types.push_back({"human", 2.f, true});
    auto& g = f.addAgent(1, "guard", {0, 0, 0});
    f.addPlayer(2, {25, 0, 0});
    f.step(2);
    REQUIRE(f.coefficient(g, 2) == Approx(1.9f));
  }
  SECTION("Should apply the global SOM speed set by difficulty") {
    auto& g = f.addAgent(1, "guard", {0, 0, 0});
    f.addPlayer(2, {25, 0, 0});
    f.sys().setSomSpeed(3.f);
    f.step(2);
    REQUIRE(f.coefficient(g, 2) == Approx(1.9f));
  }
  SECTION("Should see a player 4 m away in 2 updates (near-range boost)") {
    auto& g = f.addAgent(1, "guard", {0, 0, 0});
    f.addPlayer(2, {4, 0, 0});
    f.step();
    REQUIRE(f.coefficient(g, 2) == Approx(6.3196f));
    f.step();
    REQUIRE(f.sees(g, 2));
  }
  SECTION("Should keep coefficients of different agents independent") {
    auto& near = f.addAgent(1, "guard", {15, 0, 0});  // 10 m from the player
    auto& far = f.addAgent(3, "guard", {-15, 0, 0});  // 40 m
    f.addPlayer(2, {25, 0, 0});
    f.step(3);
    REQUIRE(f.coefficient(near, 2) == Approx(3 * (((1 - 0.2f) * (1 - 0.2f) + 0.1f) * 1.5f - 0.1f)));
    REQUIRE(f.coefficient(far, 2) == Approx(3 * 0.11f));
  }
}

TEST_CASE("Coefficient: suspicious above 5, visible at 10", "[perception][coefficient]") {
  PerceptionFixture f;
  auto& g = f.addAgent(1, "guard", {0, 0, 0});
  f.addPlayer(2, {25, 0, 0});
  SECTION("Should send OnSuspicious once, with the investigate position, after 12 updates") {
    f.step(11);  // 4.675
    REQUIRE(f.count(SignalId::kOnSuspicious, 1) == 0);
    f.step();    // 5.1
    REQUIRE(f.count(SignalId::kOnSuspicious, 1) == 1);
    const Signal* s = f.last(SignalId::kOnSuspicious, 1);
    REQUIRE(s->subject == EntityId{2});
    REQUIRE(s->position == Vec3{25, 0, 0});
    REQUIRE(s->value == Approx(5.1f));
    f.step(5);
    REQUIRE(f.count(SignalId::kOnSuspicious, 1) == 1);
  }
  SECTION("Should see the player when the coefficient reaches 10 (update 24)") {
    f.step(23);  // 9.775
    REQUIRE_FALSE(f.sees(g, 2));
    REQUIRE(f.count(SignalId::kOnEnemySeen, 1) == 0);
    f.step();
    REQUIRE(f.sees(g, 2));
    REQUIRE(f.coefficient(g, 2) == 10.f);
    REQUIRE(f.count(SignalId::kOnEnemySeen, 1) == 1);
  }
}

TEST_CASE("Coefficient: decays by 0.1 per full update", "[perception][coefficient][decay]") {
  PerceptionFixture f;
  auto& g = f.addAgent(1, "guard", {0, 0, 0});
  f.addPlayer(2, {25, 0, 0});
  SECTION("Should fall by 0.1 per update once the player is hidden, then be dropped") {
    f.step(4);  // 1.7
    f.world.upsertObstacle({ObstacleId{1}, {{10, -2, 0}, {11, 2, 3}}, Cover::kHard});
    f.step(5);
    REQUIRE(f.coefficient(g, 2) == Approx(1.2f));
    f.step(13);
    REQUIRE(f.track(g, 2) == nullptr);
  }
  SECTION("Should never notice a crouched, still player at the edge of sight range") {
    f.moveTo(2, {49, 0, 0.8f});
    f.entity(2).eye_height_m = 0.9f;
    f.entity(2).velocity = kStill;
    f.step(600);  // 75 s
    REQUIRE(f.track(g, 2) == nullptr);
    REQUIRE(f.count(SignalId::kOnEnemySeen, 1) == 0);
    REQUIRE(f.sys().stealth().reading(EntityId{2}).value == 0.f);
  }
  SECTION("Should notice the same player running at the edge after 198 updates") {
    f.moveTo(2, {49, 0, 0});  // inc 0.1506, net 0.0506
    f.step(197);
    REQUIRE_FALSE(f.sees(g, 2));
    f.step();
    REQUIRE(f.sees(g, 2));
  }
}
