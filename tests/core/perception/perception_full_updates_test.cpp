// Full updates on a worker pool: the same signals in the same order, the same agent states
// and counters as on the tick thread alone, with and without the ray budget cutting in.
#include <catch2/catch.hpp>

#include "base/rng.h"
#include "base/worker_pool.h"
#include "perception_fixture.h"

using namespace npc;
using npc::test::PerceptionFixture;

namespace {

// A crowd of two species among players and walls, everyone moving a little each tick.
void populate(PerceptionFixture& f) {
  Rng rng(5);
  for (uint64_t i = 0; i < 600; ++i) {
    f.addAgent(1000 + i, i % 3 ? "human" : "wolf", {rng.range(0, 150), rng.range(0, 150), 0},
               {rng.range(-1, 1), rng.range(-1, 1) + 2.f, 0});
  }
  for (uint64_t i = 0; i < 20; ++i) f.addPlayer(1 + i, {rng.range(0, 150), rng.range(0, 150), 0});
  for (uint64_t i = 0; i < 30; ++i) {
    Obstacle o;
    o.id = ObstacleId{1 + i};
    const float x = rng.range(0, 150), y = rng.range(0, 150);
    o.box = {{x, y, 0}, {x + 4, y + 1, 3}};
    o.cover = i % 2 ? Cover::kHard : Cover::kSoft;
    f.world.upsertObstacle(o);
  }
}

void wander(PerceptionFixture& f, uint64_t tick) {
  Rng rng(tick);
  for (uint64_t i = 0; i < 20; ++i) {
    Entity& p = f.entity(1 + i);
    f.moveTo(1 + i, p.position + Vec3{rng.range(-2, 2), rng.range(-2, 2), 0});
  }
}

struct Run {
  std::vector<Signal> signals;
  std::vector<PerceptionStats> stats;
  std::vector<uint32_t> tracks;  // per agent at the end: track count * 100 + attention class
};

Run run(unsigned threads, uint32_t max_rays) {
  PerceptionFixture f;
  f.config.max_rays_per_tick = max_rays;
  f.config.full_update_period_ticks = 2;
  populate(f);
  WorkerPool pool(threads);
  Run r;
  for (uint64_t t = 1; t <= 40; ++t) {
    wander(f, t);
    ++f.tick;
    f.world.refreshSpatialIndex();
    f.out.clear();
    f.sys().update(f.world, f.perceivers, f.tick, f.now(), f.out, &pool);
    r.signals.insert(r.signals.end(), f.out.signals().begin(), f.out.signals().end());
    r.stats.push_back(f.sys().lastTick());
  }
  for (const PerceptionState& st : f.states) {
    r.tracks.push_back(static_cast<uint32_t>(st.track_count) * 100 +
                       static_cast<uint32_t>(st.attention.cls));
  }
  return r;
}

void requireSame(const Run& a, const Run& b) {
  REQUIRE(a.signals.size() == b.signals.size());
  for (size_t i = 0; i < a.signals.size(); ++i) {
    INFO("signal " << i);
    REQUIRE(a.signals[i].receiver == b.signals[i].receiver);
    REQUIRE(a.signals[i].id == b.signals[i].id);
    REQUIRE(a.signals[i].subject == b.signals[i].subject);
    REQUIRE(a.signals[i].value == b.signals[i].value);
  }
  for (size_t t = 0; t < a.stats.size(); ++t) {
    INFO("tick " << t + 1);
    REQUIRE(a.stats[t].full_updates == b.stats[t].full_updates);
    REQUIRE(a.stats[t].deferred_updates == b.stats[t].deferred_updates);
    REQUIRE(a.stats[t].rays == b.stats[t].rays);
    REQUIRE(a.stats[t].rays_hard == b.stats[t].rays_hard);
    REQUIRE(a.stats[t].candidates == b.stats[t].candidates);
    REQUIRE(a.stats[t].signals_sent == b.stats[t].signals_sent);
  }
  REQUIRE(a.tracks == b.tracks);
}

}  // namespace

TEST_CASE("Perception on a worker pool gives the one-thread outcome", "[perception][threads]") {
  SECTION("Should match with no ray budget") {
    const Run one = run(1, 0);
    REQUIRE(one.signals.size() > 500);  // agents see, notice and lose players
    requireSame(one, run(2, 0));
    requireSame(one, run(4, 0));
  }
  SECTION("Should defer the same agents when the ray budget runs out") {
    const Run one = run(1, 400);
    uint64_t deferred = 0;
    for (const PerceptionStats& s : one.stats) deferred += s.deferred_updates;
    REQUIRE(deferred > 0);  // the budget did cut in
    requireSame(one, run(2, 400));
    requireSame(one, run(3, 400));
  }
}
