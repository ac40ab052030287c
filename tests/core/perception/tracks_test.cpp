// Target tracks: memory and its expiry, the attention target's ordering, attribute objects,
// despawned targets.
#include <catch2/catch.hpp>

#include "perception_fixture.h"

using namespace npc;
using npc::test::PerceptionFixture;

namespace {
void wall(PerceptionFixture& f, uint64_t id, float x) {
  f.world.upsertObstacle({ObstacleId{id}, {{x, -30, 0}, {x + 1, 30, 4}}, Cover::kHard});
}
}  // namespace

TEST_CASE("Tracks: memory expiry grows with threat and time visible",
          "[perception][tracks][memory]") {
  SECTION("Should compute clamp((5 + 1 × visible_s) × threat, 2, 30)") {
    MemoryConfig m;
    REQUIRE(memoryDuration(m, 1.f, 2.0) == Approx(7.f));
    REQUIRE(memoryDuration(m, 2.f, 2.0) == Approx(14.f));
    REQUIRE(memoryDuration(m, 1.f, 40.0) == Approx(30.f));
    REQUIRE(memoryDuration(m, 0.1f, 0.0) == Approx(2.f));
  }
  PerceptionFixture f;
  auto& g = f.addAgent(1, "guard", {0, 0, 0});
  f.add(2, EntityKind::kNpc, "wolf", {10, 0, 0});
  SECTION("Should forget a target seen for 2 s exactly 7 s after losing it") {
    f.step(16);  // visible from t = 0.125 to t = 2.0
    wall(f, 1, 5);
    f.step();    // t = 2.125: memory, visible for 2.0 s, forgotten at 9.125
    REQUIRE(f.remembers(g, 2));
    REQUIRE(f.track(g, 2)->timer_s == Approx(9.125));
    f.step(55);  // t = 9.0
    REQUIRE(f.remembers(g, 2));
    REQUIRE(f.count(SignalId::kOnTargetForgotten, 1) == 0);
    f.step();    // t = 9.125
    REQUIRE(f.track(g, 2) == nullptr);
    REQUIRE(f.count(SignalId::kOnTargetForgotten, 1) == 1);
  }
  SECTION("Should remember a twice-as-threatening target twice as long") {
    f.sys().visibility().registerType(f.species("wolf"), {2.f, false});
    f.step(16);
    wall(f, 1, 5);
    f.step();
    REQUIRE(f.track(g, 2)->timer_s == Approx(2.125 + 14.0));
  }
  SECTION("Should move a remembered target back to the visibility list when seen again") {
    f.step();
    wall(f, 1, 5);
    f.step();
    REQUIRE(f.remembers(g, 2));
    f.world.removeObstacle(ObstacleId{1});
    f.step();
    REQUIRE(f.sees(g, 2));
    REQUIRE(f.count(SignalId::kOnEnemySeen, 1) == 2);
  }
}

TEST_CASE("Tracks: attention prefers visible over remembered over heard",
          "[perception][tracks][attention]") {
  PerceptionFixture f;
  f.config.visibility_types.push_back({"bear", 5.f, false});
  auto& g = f.addAgent(1, "guard", {0, 0, 0});
  f.add(2, EntityKind::kNpc, "bear", {10, -10, 0});  // threat 5
  f.step();
  REQUIRE(g.attention.target == EntityId{2});
  f.world.upsertObstacle({ObstacleId{1}, {{5, -8, 0}, {6, -3, 4}}, Cover::kHard});  // hides it
  f.step();
  REQUIRE(f.remembers(g, 2));
  REQUIRE(g.attention.cls == AttentionClass::kRemembered);

  SECTION("Should attend a visible target over a remembered one of higher threat") {
    f.add(3, EntityKind::kNpc, "wolf", {30, 5, 0});  // threat 1, farther
    f.step();
    REQUIRE(g.attention.cls == AttentionClass::kVisible);
    REQUIRE(g.attention.target == EntityId{3});
    REQUIRE(f.last(SignalId::kOnNewAttentionTarget, 1)->subject == EntityId{3});
  }
  SECTION("Should attend a remembered target over a threatening sound") {
    f.sys().addSound({{3, 3, 0}, 50.f, SoundKind::kGunshot, EntityId{9}, 1.f});
    f.step();
    REQUIRE(g.sound_count == 1);
    REQUIRE(g.attention.target == EntityId{2});
  }
  SECTION("Should attend a sound when nothing is seen or remembered") {
    f.step(210);  // a threat-5 target seen for 0.125 s is forgotten after 25.6 s
    REQUIRE(g.track_count == 0);
    REQUIRE(f.count(SignalId::kOnNoTarget, 1) == 1);
    f.sys().addSound({{3, 3, 0}, 50.f, SoundKind::kFootstep, EntityId{9}});
    f.step();
    REQUIRE(g.attention.cls == AttentionClass::kHeard);
    REQUIRE(g.attention.position == Vec3{3, 3, 0});
  }
  SECTION("Should prefer the higher threat within a class, even when farther") {
    f.world.removeObstacle(ObstacleId{1});
    f.add(3, EntityKind::kNpc, "wolf", {5, 1, 0});
    f.step();
    REQUIRE(f.sees(g, 2));
    REQUIRE(f.sees(g, 3));
    REQUIRE(g.attention.target == EntityId{2});
  }
}

TEST_CASE("Tracks: seeing an attribute reveals its principal", "[perception][tracks][attribute]") {
  PerceptionFixture f;
  f.config.visibility_types.push_back({"flashlight_spot", 1.f, false});
  auto& g = f.addAgent(1, "guard", {0, 0, 0});
  f.addPlayer(2, {30, 0, 0});
  wall(f, 1, 20);                                                // the player hides behind it
  f.add(3, EntityKind::kAttribute, "flashlight_spot", {19.5f, 2, 0});  // the beam on the wall

  SECTION("Should put the principal, at its own position, in the visibility list") {
    REQUIRE(f.sys().visibility().setPrincipal(f.world, EntityId{3}, EntityId{2}).isOk());
    f.step();
    REQUIRE(f.sees(g, 2));
    REQUIRE(f.track(g, 2)->position == Vec3{30, 0, 0});
    REQUIRE(f.track(g, 3) == nullptr);
    REQUIRE(f.last(SignalId::kOnEnemySeen, 1)->subject == EntityId{2});
  }
  SECTION("Should ignore an attribute without a principal, or of an unregistered type") {
    f.step(3);
    REQUIRE(g.track_count == 0);
    f.add(4, EntityKind::kAttribute, "footprint", {10, 1, 0});
    REQUIRE(f.sys().visibility().setPrincipal(f.world, EntityId{4}, EntityId{2}).isOk());
    f.step(3);
    REQUIRE(g.track_count == 0);
  }
  SECTION("Should raise the principal's coefficient when the type uses the coefficient") {
    f.sys().visibility().registerType(f.species("flashlight_spot"), {1.f, true});
    REQUIRE(f.sys().visibility().setPrincipal(f.world, EntityId{3}, EntityId{2}).isOk());
    f.moveTo(3, {19.5f, 0, 0});
    f.step(2);
    // The spot is 19.5 m away, still, eye 1.7 m: ((1 − 0.39)² + 0.1) × 1.5 × 0.5 − 0.1.
    REQUIRE(f.coefficient(g, 2) == Approx(2 * ((0.61f * 0.61f + 0.1f) * 0.75f - 0.1f)));
  }
  SECTION("Should not reveal a principal of the observer's own species") {
    f.add(5, EntityKind::kNpc, "guard", {30, 3, 0});
    REQUIRE(f.sys().visibility().setPrincipal(f.world, EntityId{3}, EntityId{5}).isOk());
    f.step();
    REQUIRE(g.track_count == 0);
  }
  SECTION("Should refuse a principal that is an attribute, with a message") {
    f.add(6, EntityKind::kAttribute, "flashlight_spot", {1, 1, 0});
    Status s = f.sys().visibility().setPrincipal(f.world, EntityId{3}, EntityId{6});
    REQUIRE(s.code() == StatusCode::kInvalidArgument);
    REQUIRE(s.message() == "entity 3: the principal entity 6 must not be an attribute");
    s = f.sys().visibility().setPrincipal(f.world, EntityId{2}, EntityId{1});
    REQUIRE(s.message() == "entity 2: is not an attribute");
    s = f.sys().visibility().setPrincipal(f.world, EntityId{99}, EntityId{2});
    REQUIRE(s.code() == StatusCode::kNotFound);
    REQUIRE(s.message() == "attribute entity 99: unknown");
  }
  SECTION("Should forget the mapping when either entity is forgotten") {
    REQUIRE(f.sys().visibility().setPrincipal(f.world, EntityId{3}, EntityId{2}).isOk());
    f.sys().visibility().forgetEntity(EntityId{2});
    REQUIRE(f.sys().visibility().principalOf(EntityId{3}) == EntityId::kNone);
  }
}

TEST_CASE("Tracks: a despawned target is dropped", "[perception][tracks]") {
  PerceptionFixture f;
  auto& g = f.addAgent(1, "guard", {0, 0, 0});
  f.add(2, EntityKind::kNpc, "wolf", {10, 0, 0});
  f.step();
  REQUIRE(f.sees(g, 2));
  SECTION("Should drop the track and send OnNoTarget, even if the id is reused") {
    f.world.entities().remove(EntityId{2});
    f.add(2, EntityKind::kNpc, "wolf", {-10, 0, 0});  // behind: not visible
    f.world.markMoved();
    f.step();
    REQUIRE(g.track_count == 0);
    REQUIRE(f.count(SignalId::kOnNoTarget, 1) == 1);
  }
}

TEST_CASE("Tracks: capacities are fixed and truncation is counted", "[perception][tracks]") {
  PerceptionFixture f;
  SECTION("Should keep 16 tracks, count the rest, and let a higher threat displace one") {
    f.config.visibility_types.push_back({"bear", 5.f, false});
    auto& g = f.addAgent(1, "guard", {0, 0, 0});
    for (uint64_t i = 0; i < 20; ++i) {
      f.add(100 + i, EntityKind::kNpc, "wolf", {10, static_cast<float>(i) - 10.f, 0});
    }
    f.step();
    REQUIRE(g.track_count == kMaxTracks);
    REQUIRE(g.tracks_dropped == 4);
    REQUIRE(f.sys().lastTick().tracks_dropped == 4);
    f.add(200, EntityKind::kNpc, "bear", {12, 0, 0});
    f.step();
    REQUIRE(f.sees(g, 200));
    REQUIRE(g.track_count == kMaxTracks);
  }
  SECTION("Should examine at most max_candidates targets per full update") {
    f.config.max_candidates = 4;
    auto& g = f.addAgent(1, "guard", {0, 0, 0});
    for (uint64_t i = 0; i < 10; ++i) {
      f.add(100 + i, EntityKind::kNpc, "wolf", {10, static_cast<float>(i) - 5.f, 0});
    }
    f.step();
    REQUIRE(g.track_count == 4);
    REQUIRE(g.candidates_truncated == 1);
    REQUIRE(f.sys().lastTick().candidates_truncated == 1);
  }
}

TEST_CASE("Tracks: neutral things are seen and remembered, never enemies",
          "[perception][tracks][attention]") {
  PerceptionFixture f;
  f.config.visibility_types.push_back({"flowers", 1.f, false, true});
  auto& g = f.addAgent(1, "guard", {0, 0, 0});
  f.add(2, EntityKind::kObject, "flowers", {6, 1, 0});
  f.step();

  SECTION("Should see them with OnObjectSeen, and attend to nothing") {
    REQUIRE(f.sees(g, 2));
    REQUIRE(f.count(SignalId::kOnObjectSeen, 1) == 1);
    REQUIRE(f.count(SignalId::kOnEnemySeen, 1) == 0);
    REQUIRE(g.attention.cls == AttentionClass::kNone);
  }
  SECTION("Should remember them out of sight without losing sight of a target") {
    f.world.upsertObstacle({ObstacleId{1}, {{3, -2, 0}, {4, 4, 4}}, Cover::kHard});
    f.step();
    REQUIRE(f.remembers(g, 2));
    REQUIRE(f.count(SignalId::kOnLostSightOfTarget, 1) == 0);
    REQUIRE(g.attention.cls == AttentionClass::kNone);
  }
  SECTION("Should leave a player the attention target") {
    f.addPlayer(3, {8, -1, 0});
    f.step(30);
    REQUIRE(f.sees(g, 3));
    REQUIRE(g.attention.target == EntityId{3});
  }
}
