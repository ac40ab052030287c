// Cost control: staggered full updates, the ray budget, candidates from the grid only,
// and determinism of the whole phase.
#include <catch2/catch.hpp>

#include "perception_fixture.h"

using namespace npc;
using npc::test::PerceptionFixture;

namespace {
// 100 guards in a row, each facing a wolf 5 m ahead of it; with a 60° cone each sees only
// its own wolf (the neighbours' are 76° off), so each full update casts one ray.
void populate(PerceptionFixture& f) {
  SensorConfig narrow;
  narrow.fov_deg = 60.f;
  for (uint64_t i = 0; i < 100; ++i) {
    f.addAgent(1 + i, "guard", {static_cast<float>(i) * 20.f, 0, 0}, {0, 1, 0}, narrow);
    f.add(1000 + i, EntityKind::kNpc, "wolf", {static_cast<float>(i) * 20.f, 5, 0});
  }
}
}  // namespace

TEST_CASE("Scheduling: full updates are staggered over the period",
          "[perception][scheduling]") {
  PerceptionFixture f;
  f.config.full_update_period_ticks = 4;
  populate(f);
  SECTION("Should update each agent once per 4 ticks, spread over the phases") {
    std::vector<uint64_t> per_tick;
    for (int t = 0; t < 8; ++t) {
      f.step();
      per_tick.push_back(f.sys().lastTick().full_updates);
    }
    for (size_t t = 0; t < 4; ++t) {
      REQUIRE(per_tick[t] == per_tick[t + 4]);  // the same agents every period
      REQUIRE(per_tick[t] >= 10);               // no tick takes everybody
      REQUIRE(per_tick[t] <= 45);
    }
    REQUIRE(per_tick[0] + per_tick[1] + per_tick[2] + per_tick[3] == 100);
    for (const PerceptionState& s : f.states) REQUIRE(s.full_updates == 2);
  }
}

TEST_CASE("Scheduling: the ray budget defers agents to the next tick",
          "[perception][scheduling][budget]") {
  PerceptionFixture f;
  f.config.max_rays_per_tick = 30;
  populate(f);
  SECTION("Should stop at the budget and catch up over the next ticks") {
    f.step();
    REQUIRE(f.sys().lastTick().rays == 30);
    REQUIRE(f.sys().lastTick().full_updates == 30);
    REQUIRE(f.sys().lastTick().deferred_updates == 70);
    f.step(3);
    size_t seen = 0;
    for (const PerceptionState& s : f.states) seen += s.track_count;
    REQUIRE(seen == 100);  // every guard has had its first full update
  }
}

TEST_CASE("Scheduling: candidates come from the grid, rays from the obstacle grid",
          "[perception][scheduling]") {
  PerceptionFixture f;
  populate(f);
  for (uint64_t i = 0; i < 2000; ++i) {  // a field of posts far from everyone
    const float x = static_cast<float>(i % 50) * 4.f, y = 500.f + static_cast<float>(i / 50) * 4.f;
    f.world.upsertObstacle({ObstacleId{i + 1}, {{x, y, 0}, {x + 1, y + 1, 3}}, Cover::kHard});
  }
  SECTION("Should examine only the targets in range, one ray each") {
    f.step();
    // Each guard gets its own wolf and the neighbours' within 50 m (at most 5), never
    // the 100 wolves; one ray each.
    REQUIRE(f.sys().lastTick().candidates <= 500);
    REQUIRE(f.sys().lastTick().rays == 100);
    REQUIRE(f.sys().obstacles().obstacleCount() == 2000);
  }
}

TEST_CASE("Scheduling: the phase is deterministic", "[perception][scheduling][determinism]") {
  auto run = [] {
    PerceptionFixture f;
    f.config.full_update_period_ticks = 3;
    f.config.max_rays_per_tick = 25;
    populate(f);
    for (uint64_t i = 0; i < 20; ++i) f.addPlayer(5000 + i, {static_cast<float>(i) * 90.f, 20, 0});
    for (int t = 0; t < 40; ++t) {
      if (t % 5 == 0) {
        f.sys().addSound({{100, 3, 0}, 60.f, SoundKind::kGunshot, EntityId{5000}, -1.f});
      }
      f.step();
    }
    return f.signals;
  };
  SECTION("Should emit the same signals in the same order for the same inputs") {
    const auto a = run();
    const auto b = run();
    REQUIRE(a.size() > 100);
    REQUIRE(a.size() == b.size());
    for (size_t i = 0; i < a.size(); ++i) {
      REQUIRE(a[i].id == b[i].id);
      REQUIRE(a[i].receiver == b[i].receiver);
      REQUIRE(a[i].subject == b[i].subject);
      REQUIRE(a[i].value == b[i].value);
    }
  }
}
