// Hearing: the radius rule, hearing scale and switch, sound targets and their lifetimes,
// threatening sounds, bullet rain, footsteps derived from movement.
#include <catch2/catch.hpp>

#include "perception_fixture.h"

using namespace npc;
using npc::test::PerceptionFixture;

namespace {
Sound noise(Vec3 at, float radius, SoundKind kind, uint64_t source = 0, float threat = -1.f) {
  return {at, radius, kind, EntityId{source}, threat};
}
}  // namespace

TEST_CASE("Hearing: heard when distance / hearing scale <= radius", "[perception][hearing]") {
  PerceptionFixture f;
  SensorConfig sharp;
  sharp.hearing_scale = 2.f;
  auto& a = f.addAgent(1, "guard", {0, 0, 0});
  auto& b = f.addAgent(2, "guard", {100, 0, 0}, {1, 0, 0}, sharp);
  SECTION("Should hear a sound 9.9 m away with radius 10, not one 10.1 m away") {
    f.sys().addSound(noise({9.9f, 0, 0}, 10.f, SoundKind::kGeneric));
    f.sys().addSound(noise({-10.1f, 0, 0}, 10.f, SoundKind::kCollision));
    f.step();
    REQUIRE(a.sound_count == 1);
    REQUIRE(a.sounds[0].kind == SoundKind::kGeneric);
    REQUIRE(f.count(SignalId::kOnHearSound, 1) == 1);
  }
  SECTION("Should hear twice as far with hearing scale 2") {
    f.sys().addSound(noise({119.9f, 0, 0}, 10.f, SoundKind::kGeneric));
    f.sys().addSound(noise({79.9f, 0, 0}, 10.f, SoundKind::kGeneric));
    f.step();
    REQUIRE(b.sound_count == 1);
    REQUIRE(a.sound_count == 0);
    REQUIRE(f.sys().lastTick().sounds_heard == 1);
  }
  SECTION("Should hear nothing with hearing switched off") {
    a.sensors.hearing = false;
    f.sys().addSound(noise({1, 0, 0}, 10.f, SoundKind::kGunshot));
    f.step();
    REQUIRE(a.sound_count == 0);
    REQUIRE(f.count(SignalId::kOnHearThreateningSound, 1) == 0);
  }
  SECTION("Should not hear its own noise") {
    f.sys().addSound(noise({0, 0, 0}, 10.f, SoundKind::kGunshot, 1));
    f.step();
    REQUIRE(a.sound_count == 0);
  }
  SECTION("Should refuse malformed sounds") {
    REQUIRE_FALSE(f.sys().addSound(noise({0, 0, 0}, 0.f, SoundKind::kGeneric)));
    REQUIRE_FALSE(f.sys().addSound(noise({NAN, 0, 0}, 5.f, SoundKind::kGeneric)));
  }
}

TEST_CASE("Hearing: sound targets last the kind's lifetime", "[perception][hearing]") {
  PerceptionFixture f;
  auto& a = f.addAgent(1, "guard", {0, 0, 0});
  SECTION("Should keep a footstep for 2 s and a gunshot for 4 s") {
    f.sys().addSound(noise({5, 0, 0}, 10.f, SoundKind::kFootstep, 7));
    f.sys().addSound(noise({-5, 0, 0}, 100.f, SoundKind::kGunshot, 8));
    f.step();  // heard at t = 0.125
    REQUIRE(a.sound_count == 2);
    f.step(15);  // t = 2.0
    REQUIRE(a.sound_count == 2);
    f.step();    // t = 2.125: the footstep expired
    REQUIRE(a.sound_count == 1);
    REQUIRE(a.sounds[0].source == EntityId{8});
    f.step(16);  // t = 4.125
    REQUIRE(a.sound_count == 0);
    REQUIRE(f.count(SignalId::kOnNoTarget, 1) == 1);
  }
  SECTION("Should refresh a source's target without a new signal, and signal escalation") {
    f.sys().addSound(noise({5, 0, 0}, 10.f, SoundKind::kFootstep, 7));
    f.step();
    f.sys().addSound(noise({6, 0, 0}, 10.f, SoundKind::kFootstep, 7));
    f.step();
    REQUIRE(a.sound_count == 1);
    REQUIRE(a.sounds[0].position == Vec3{6, 0, 0});
    REQUIRE(f.count(SignalId::kOnHearSound, 1) == 1);
    f.sys().addSound(noise({6, 0, 0}, 100.f, SoundKind::kGunshot, 7));
    f.step();
    REQUIRE(a.sound_count == 1);
    REQUIRE(a.sounds[0].kind == SoundKind::kGunshot);
    REQUIRE(a.sounds[0].threat == 1.f);
    REQUIRE(f.count(SignalId::kOnHearThreateningSound, 1) == 1);
  }
  SECTION("Should merge anonymous sounds of one kind within 2 m") {
    f.sys().addSound(noise({5, 0, 0}, 10.f, SoundKind::kCollision));
    f.sys().addSound(noise({6.5f, 0, 0}, 10.f, SoundKind::kCollision));
    f.sys().addSound(noise({9, 0, 0}, 10.f, SoundKind::kCollision));
    f.step();
    REQUIRE(a.sound_count == 2);
  }
}

TEST_CASE("Hearing: threatening sounds and bullet rain", "[perception][hearing]") {
  PerceptionFixture f;
  auto& a = f.addAgent(1, "guard", {0, 0, 0});
  f.addAgent(2, "guard", {20, 0, 0});
  SECTION("Should send OnHearThreateningSound for a gunshot, OnHearSound for a footstep") {
    f.sys().addSound(noise({10, 10, 0}, 200.f, SoundKind::kGunshot, 9));
    f.sys().addSound(noise({-3, 0, 0}, 10.f, SoundKind::kFootstep, 10));
    f.step();
    REQUIRE(f.count(SignalId::kOnHearThreateningSound, 1) == 1);
    REQUIRE(f.count(SignalId::kOnHearSound, 1) == 1);
    REQUIRE(f.last(SignalId::kOnHearThreateningSound, 1)->subject == EntityId{9});
    REQUIRE(a.attention.target == EntityId{9});  // the higher threat among sounds
  }
  SECTION("Should send OnBulletRain for an impact within 5 m, once per second") {
    f.sys().addSound(noise({3, 0, 0}, 20.f, SoundKind::kBulletImpact));
    f.sys().addSound(noise({3, 1, 0}, 20.f, SoundKind::kBulletImpact));
    f.step();
    REQUIRE(f.count(SignalId::kOnBulletRain, 1) == 1);
    REQUIRE(f.count(SignalId::kOnBulletRain, 2) == 0);  // 17 m away: heard, no rain
    REQUIRE(f.count(SignalId::kOnHearThreateningSound, 2) == 1);
    f.step(7);
    f.sys().addSound(noise({3, 0, 0}, 20.f, SoundKind::kBulletImpact));
    f.step();  // t = 1.125: the cooldown has passed
    REQUIRE(f.count(SignalId::kOnBulletRain, 1) == 2);
  }
  SECTION("Should ignore a squad-mate's footsteps but not its gunshots") {
    f.sys().addSound(noise({20, 0, 0}, 30.f, SoundKind::kFootstep, 2));
    f.step();
    REQUIRE(a.sound_count == 0);
    f.sys().addSound(noise({20, 0, 0}, 30.f, SoundKind::kGunshot, 2));
    f.step();
    REQUIRE(a.sound_count == 1);
  }
}

TEST_CASE("Hearing: footsteps derived from movement", "[perception][hearing][footsteps]") {
  FootstepConfig c;
  SECTION("Should use 4 m + 2.5 m per m/s standing, 2 m + 2 m per m/s crouched") {
    REQUIRE(footstepRadius(c, Stance::kStand, 3.f) == Approx(11.5f));
    REQUIRE(footstepRadius(c, Stance::kCrouch, 1.f) == Approx(4.f));
    REQUIRE(footstepRadius(c, Stance::kStand, 3.f, 0.5f) == Approx(5.75f));
  }
  SECTION("Should take the stance from the eye height and the speed from the velocity") {
    Entity e;
    e.id = EntityId{5};
    e.position = {1, 2, 0};
    e.velocity = {3, 4, 0};  // 5 m/s
    auto s = footstepFromMovement(c, e);
    REQUIRE(s);
    REQUIRE(s->radius_m == Approx(16.5f));
    REQUIRE(s->source == EntityId{5});
    REQUIRE(s->kind == SoundKind::kFootstep);
    e.eye_height_m = 1.0f;
    REQUIRE(footstepFromMovement(c, e)->radius_m == Approx(12.f));
    e.velocity = {0, 0, -3};
    REQUIRE_FALSE(footstepFromMovement(c, e));
  }
  SECTION("Should let a running player be heard farther than a sneaking one") {
    PerceptionFixture f;
    auto& a = f.addAgent(1, "guard", {0, 0, 0});
    f.addPlayer(2, {-9, 0, 0}, 1.0f, {0, 1, 0});  // sneaking: 4 m radius
    REQUIRE(f.sys().addFootstep(f.entity(2)));
    f.step();
    REQUIRE(a.sound_count == 0);
    f.entity(2).eye_height_m = 1.7f;
    f.entity(2).velocity = {0, 4, 0};  // running: 14 m radius
    REQUIRE(f.sys().addFootstep(f.entity(2)));
    f.step();
    REQUIRE(a.sound_count == 1);
  }
}
