// Vision: potential targets, sight range, field of view, hard and soft cover, sensor
// switches. Other-species NPCs use switch vision, so one full update decides.
#include <catch2/catch.hpp>

#include "perception_fixture.h"

using namespace npc;
using npc::test::PerceptionFixture;

TEST_CASE("Vision: sight range is a sphere around the eye", "[perception][vision][range]") {
  PerceptionFixture f;
  SECTION("Should see an other-species NPC just inside the sight range (50 m)") {
    auto& guard = f.addAgent(1, "guard", {0, 0, 0});
    f.add(2, EntityKind::kNpc, "wolf", {49.9f, 0, 0});
    f.step();
    REQUIRE(f.sees(guard, 2));
    REQUIRE(f.count(SignalId::kOnEnemySeen, 1) == 1);
  }
  SECTION("Should not see one just beyond it") {
    auto& guard = f.addAgent(1, "guard", {0, 0, 0});
    f.add(2, EntityKind::kNpc, "wolf", {50.1f, 0, 0});
    f.step();
    REQUIRE(f.track(guard, 2) == nullptr);
    REQUIRE(f.sys().lastTick().rays == 0);  // range is tested before any ray
  }
  SECTION("Should measure eye to eye in 3-D") {
    auto& guard = f.addAgent(1, "guard", {0, 0, 0});
    // 30 m away on the ground but 40.1 m above the eye: 50.08 m eye to eye.
    f.add(2, EntityKind::kNpc, "wolf", {30, 0, 40.1f});
    f.step();
    REQUIRE(f.track(guard, 2) == nullptr);
  }
  SECTION("Should use each agent's own sight range") {
    SensorConfig s;
    s.sight_range_m = 20.f;
    auto& near = f.addAgent(1, "guard", {0, 0, 0}, {1, 0, 0}, s);
    auto& far = f.addAgent(3, "guard", {0, 5, 0}, {1, 0, 0});
    f.add(2, EntityKind::kNpc, "wolf", {30, 0, 0});
    f.step();
    REQUIRE_FALSE(f.sees(near, 2));
    REQUIRE(f.sees(far, 2));
  }
}

TEST_CASE("Vision: field of view is a full cone angle", "[perception][vision][fov]") {
  PerceptionFixture f;
  auto angleTarget = [](float degrees, float r = 10.f) {
    const float a = degrees * 3.14159265f / 180.f;
    return Vec3{r * std::cos(a), r * std::sin(a), 0.f};
  };
  SECTION("Should see ±90° with a 180° cone, edge included") {
    SensorConfig s;
    s.fov_deg = 180.f;
    auto& g = f.addAgent(1, "guard", {0, 0, 0}, {1, 0, 0}, s);
    f.add(2, EntityKind::kNpc, "wolf", angleTarget(89.5f));
    f.add(3, EntityKind::kNpc, "wolf", {0, -10, 0});  // exactly 90° to the right
    f.add(4, EntityKind::kNpc, "wolf", angleTarget(90.5f));
    f.step();
    REQUIRE(f.sees(g, 2));
    REQUIRE(f.sees(g, 3));
    REQUIRE_FALSE(f.sees(g, 4));
  }
  SECTION("Should see ±45° with a 90° cone") {
    SensorConfig s;
    s.fov_deg = 90.f;
    auto& g = f.addAgent(1, "guard", {0, 0, 0}, {1, 0, 0}, s);
    f.add(2, EntityKind::kNpc, "wolf", angleTarget(44.f));
    f.add(3, EntityKind::kNpc, "wolf", angleTarget(-44.f));
    f.add(4, EntityKind::kNpc, "wolf", angleTarget(46.f));
    f.step();
    REQUIRE(f.sees(g, 2));
    REQUIRE(f.sees(g, 3));
    REQUIRE_FALSE(f.sees(g, 4));
  }
  SECTION("Should be a cone in 3-D, not a wedge in the ground plane") {
    SensorConfig s;
    s.fov_deg = 90.f;
    auto& g = f.addAgent(1, "guard", {0, 0, 0}, {1, 0, 0}, s);
    // Straight ahead in x/y but 50° above the eye, then 40° above it.
    f.add(2, EntityKind::kNpc, "wolf", {10, 0, 10 * std::tan(50.f * 3.14159265f / 180.f)});
    f.add(3, EntityKind::kNpc, "wolf", {10, 0, 10 * std::tan(40.f * 3.14159265f / 180.f)});
    f.step();
    REQUIRE_FALSE(f.sees(g, 2));
    REQUIRE(f.sees(g, 3));
  }
  SECTION("Should see all around with 360°") {
    SensorConfig s;
    s.fov_deg = 360.f;
    auto& g = f.addAgent(1, "guard", {0, 0, 0}, {1, 0, 0}, s);
    f.add(2, EntityKind::kNpc, "wolf", {-10, 0, 0});
    f.step();
    REQUIRE(f.sees(g, 2));
  }
}

TEST_CASE("Vision: hard cover blocks the eye-to-eye ray", "[perception][vision][cover]") {
  PerceptionFixture f;
  auto& g = f.addAgent(1, "guard", {0, 0, 0});
  f.add(2, EntityKind::kNpc, "wolf", {20, 0, 0});
  SECTION("Should not see through a wall") {
    f.world.upsertObstacle({ObstacleId{1}, {{9, -2, 0}, {10, 2, 3}}, Cover::kHard});
    f.step();
    REQUIRE(f.track(g, 2) == nullptr);
    REQUIRE(f.sys().lastTick().rays_hard == 1);
  }
  SECTION("Should see over a wall lower than both eyes") {
    f.world.upsertObstacle({ObstacleId{1}, {{9, -2, 0}, {10, 2, 1.5f}}, Cover::kHard});
    f.step();
    REQUIRE(f.sees(g, 2));
  }
  SECTION("Should lose a visible target to memory when a wall appears") {
    f.step();
    REQUIRE(f.sees(g, 2));
    f.world.upsertObstacle({ObstacleId{1}, {{9, -2, 0}, {10, 2, 3}}, Cover::kHard});
    f.sys().markObstaclesChanged();
    f.step();
    REQUIRE(f.remembers(g, 2));
    REQUIRE(f.count(SignalId::kOnLostSightOfTarget, 1) == 1);
  }
}

TEST_CASE("Vision: soft cover hides a new target but not a living one for 3-5 s",
          "[perception][vision][cover][soft]") {
  PerceptionFixture f;
  SensorConfig s;
  s.soft_cover_min_s = 3.f;
  s.soft_cover_max_s = 3.f;  // exactly 3 s = 24 updates of 0.125 s
  auto& g = f.addAgent(1, "guard", {0, 0, 0}, {1, 0, 0}, s);
  f.world.upsertObstacle({ObstacleId{1}, {{19, 9, 0}, {21, 11, 3}}, Cover::kSoft});  // a bush

  SECTION("Should treat soft cover as hard cover without a living target") {
    f.add(2, EntityKind::kNpc, "wolf", {20, 10, 0});  // inside the bush
    f.step(5);
    REQUIRE(f.track(g, 2) == nullptr);
    REQUIRE(f.sys().totals().rays_soft == 5);
  }
  SECTION("Should keep a living target visible behind soft cover, then remember it") {
    f.add(2, EntityKind::kNpc, "wolf", {20, 0, 0});
    f.step();
    REQUIRE(f.sees(g, 2));
    f.moveTo(2, {20, 10, 0});  // runs into the bush
    f.step(24);                // 0 .. 2.875 s behind soft cover
    REQUIRE(f.sees(g, 2));
    f.step();                  // 3.0 s
    REQUIRE(f.remembers(g, 2));
    REQUIRE(f.track(g, 2)->position == Vec3{20, 10, 0});  // last known position
    REQUIRE(f.count(SignalId::kOnLostSightOfTarget, 1) == 1);
    f.step(4);
    REQUIRE(f.remembers(g, 2));  // still behind the bush: soft is hard for a memory target
  }
  SECTION("Should restart the timer when the target leaves soft cover") {
    f.add(2, EntityKind::kNpc, "wolf", {20, 0, 0});
    f.step();
    f.moveTo(2, {20, 10, 0});
    f.step(20);  // 2.5 s in the bush
    f.moveTo(2, {20, 0, 0});
    f.step();    // out: timer reset
    f.moveTo(2, {20, 10, 0});
    f.step(24);  // 2.875 s since it went back in, 5.25 s since it first did
    REQUIRE(f.sees(g, 2));
    f.step();
    REQUIRE(f.remembers(g, 2));
  }
  SECTION("Should not extend the rule to a second target that was never visible") {
    f.add(2, EntityKind::kNpc, "wolf", {20, 0, 0});
    f.add(3, EntityKind::kNpc, "wolf", {20.5f, 10, 0});  // in the bush from the start
    f.step(3);
    REQUIRE(f.sees(g, 2));
    REQUIRE(f.track(g, 3) == nullptr);
  }
  SECTION("Should draw each agent's persistence within [min, max] from its id") {
    SensorConfig r;
    PerceptionState a, b, a2;
    initPerceptionState(a, r, EntityId{7}, 1);
    initPerceptionState(b, r, EntityId{8}, 1);
    initPerceptionState(a2, r, EntityId{7}, 1);
    REQUIRE(a.soft_cover_persist_s >= 3.f);
    REQUIRE(a.soft_cover_persist_s <= 5.f);
    REQUIRE(a.soft_cover_persist_s == a2.soft_cover_persist_s);
    REQUIRE(a.soft_cover_persist_s != b.soft_cover_persist_s);
  }
}

TEST_CASE("Vision: an NPC never tracks its own species, but always tracks players",
          "[perception][vision][species]") {
  PerceptionFixture f;
  auto& g = f.addAgent(1, "guard", {0, 0, 0});
  f.addAgent(2, "guard", {10, 0, 0});
  f.add(3, EntityKind::kNpc, "wolf", {10, 2, 0});
  f.addPlayer(4, {3, -1, 0}, 1.7f, {0, 1.5f, 0}, "guard");  // a player of the guards' species
  f.step(2);
  SECTION("Should ignore a same-species NPC in plain view") { REQUIRE(f.track(g, 2) == nullptr); }
  SECTION("Should see an other-species NPC") { REQUIRE(f.sees(g, 3)); }
  SECTION("Should track a same-species player") { REQUIRE(f.sees(g, 4)); }
}

TEST_CASE("Vision: inactive objects are not potential targets", "[perception][vision][active]") {
  PerceptionFixture f;
  auto& g = f.addAgent(1, "guard", {0, 0, 0});
  f.add(2, EntityKind::kNpc, "wolf", {10, 0, 0});
  f.addPlayer(3, {4, 1, 0});
  SECTION("Should not see inactive entities") {
    f.entity(2).active = false;
    f.entity(3).active = false;
    f.step(5);
    REQUIRE(g.track_count == 0);
  }
  SECTION("Should lose a target that becomes inactive") {
    f.step();
    REQUIRE(f.sees(g, 2));
    f.entity(2).active = false;
    f.step();
    REQUIRE(f.remembers(g, 2));
  }
  SECTION("Should let an inactive agent perceive nothing") {
    f.entity(1).active = false;
    f.step(5);
    REQUIRE(g.track_count == 0);
  }
  SECTION("Should only see objects whose type is registered for visibility") {
    f.add(4, EntityKind::kObject, "grenade", {8, 1, 0});
    f.add(5, EntityKind::kObject, "crate", {8, -1, 0});
    f.sys().visibility().registerType(f.species("grenade"), {3.f, false});
    f.step();
    REQUIRE(f.sees(g, 4));
    REQUIRE(f.track(g, 4)->threat == 3.f);
    REQUIRE(f.track(g, 5) == nullptr);
    REQUIRE(f.sys().visibility().unregisterType(f.species("grenade")));
    f.step();
    REQUIRE(f.remembers(g, 4));
  }
}

TEST_CASE("Vision: sensors can be switched off at run time", "[perception][vision][sensors]") {
  PerceptionFixture f;
  auto& g = f.addAgent(1, "guard", {0, 0, 0});
  f.add(2, EntityKind::kNpc, "wolf", {10, 0, 0});
  SECTION("Should see nothing with vision off") {
    g.sensors.vision = false;
    f.step(3);
    REQUIRE(g.track_count == 0);
    REQUIRE(f.sys().totals().rays == 0);
  }
  SECTION("Should move visible targets to memory when vision is switched off") {
    f.step();
    REQUIRE(f.sees(g, 2));
    g.sensors.vision = false;
    f.step();
    REQUIRE(f.remembers(g, 2));
    g.sensors.vision = true;
    f.step();
    REQUIRE(f.sees(g, 2));
  }
  SECTION("Should apply a new range and field of view at the next full update") {
    f.step();
    REQUIRE(f.sees(g, 2));
    g.sensors.sight_range_m = 5.f;
    f.step();
    REQUIRE(f.remembers(g, 2));
    g.sensors.sight_range_m = 50.f;
    f.entity(1).forward = {-1, 0, 0};
    f.step();
    REQUIRE(f.remembers(g, 2));
  }
}
