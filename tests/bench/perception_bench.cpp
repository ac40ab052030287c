// Perception at city scale (issue 02): 10,000 agents, 1,000 players, 50,000 box obstacles on
// 1 km². Prints microseconds per agent full update and rays per second.
// Target: a full update of all 10,000 agents under 20 ms on one core.
//
//   perception_bench --benchmark_counters_tabular=true
//
// Counters (thread CPU time, so other processes on a shared machine do not inflate them):
//   update_ms     one PerceptionSystem::update() call
//   us_per_agent  update_ms / agents that had a full update in it
//   rays          rays cast per update; rays_per_s = rays / update time (everything included)
// BM_LineOfSight gives the cost of a ray alone.
#include <time.h>

#include <cmath>
#include <memory>
#include <vector>

#include <benchmark/benchmark.h>

#include "base/rng.h"
#include "perception/perception_system.h"
#include "world/world.h"

using namespace npc;

namespace {

constexpr float kHalf = 500.f;  // 1 km × 1 km
constexpr int kObstacles = 50000;
constexpr int kPlayers = 1000;

struct Scene {
  World world;
  std::unique_ptr<PerceptionSystem> system;
  std::vector<PerceptionState> states;
  std::vector<Perceiver> perceivers;
  SignalQueue out{1 << 20};
  uint64_t tick = 0;
  ObstacleIndex probe;

  // A random point on open ground (not under any box), so eyes are not inside obstacles.
  Vec3 openPoint(Rng& rng) {
    for (;;) {
      const Vec3 p{rng.range(-kHalf, kHalf), rng.range(-kHalf, kHalf), 0};
      if (probe.lineOfSight(p + Vec3{0, 0, 10}, p + Vec3{0, 0, -1}).block == SightBlock::kClear) {
        return p;
      }
    }
  }

  Scene(int guards, int bandits, PerceptionConfig config) {
    Rng rng(2024);
    for (int i = 0; i < kObstacles; ++i) {
      const Vec3 p{rng.range(-kHalf, kHalf), rng.range(-kHalf, kHalf), 0};
      const Vec3 s{rng.range(1.f, 4.f), rng.range(1.f, 4.f), rng.range(0.5f, 4.f)};
      world.upsertObstacle({ObstacleId{static_cast<uint64_t>(i + 1)}, {p, p + s},
                            rng.uniform() < 0.2 ? Cover::kSoft : Cover::kHard});
    }
    probe.rebuild(world.obstacles());
    const SpeciesId guard = world.species().intern("guard");
    const SpeciesId bandit = world.species().intern("bandit");
    const SpeciesId human = world.species().intern("human");
    const int agents = guards + bandits;
    world.entities().reserve(static_cast<size_t>(agents + kPlayers));
    states.resize(static_cast<size_t>(agents));
    for (int i = 0; i < agents; ++i) {
      const EntityId id{static_cast<uint64_t>(i + 1)};
      Entity& e = *world.entities().get(world.entities().insert(id));
      e.kind = EntityKind::kNpc;
      e.species = i < guards ? guard : bandit;
      e.position = openPoint(rng);
      const float a = rng.range(0.f, 6.2831853f);
      e.forward = {std::cos(a), std::sin(a), 0};
      initPerceptionState(states[static_cast<size_t>(i)], SensorConfig{}, id, 7);
    }
    for (int i = 0; i < kPlayers; ++i) {
      Entity& e = *world.entities().get(
          world.entities().insert(EntityId{static_cast<uint64_t>(1000000 + i)}));
      e.kind = EntityKind::kPlayer;
      e.species = human;
      e.position = openPoint(rng);
      e.velocity = i % 2 == 0 ? Vec3{1.5f, 0, 0} : Vec3{};
      e.eye_height_m = i % 4 == 3 ? 0.9f : 1.7f;
    }
    for (int i = 0; i < agents; ++i) {
      perceivers.push_back({world.entities().find(EntityId{static_cast<uint64_t>(i + 1)}),
                            &states[static_cast<size_t>(i)]});
    }
    world.markMoved();
    world.refreshSpatialIndex();
    system = std::make_unique<PerceptionSystem>(config, world.species());
  }

  void update() {
    ++tick;
    out.clear();
    system->update(world, perceivers, tick, static_cast<double>(tick) * 0.1, out);
  }
};

double threadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Runs the timed loop and sets the counters described at the top of the file.
void measure(benchmark::State& state, Scene& scene) {
  for (int i = 0; i < 30; ++i) scene.update();  // coefficients reach their steady state
  uint64_t updates = 0, rays = 0;
  double cpu_s = 0.0;
  for (auto _ : state) {
    const double t0 = threadCpuSeconds();
    scene.update();
    cpu_s += threadCpuSeconds() - t0;
    updates += scene.system->lastTick().full_updates;
    rays += scene.system->lastTick().rays;
  }
  const double iters = static_cast<double>(state.iterations());
  state.counters["update_ms"] = cpu_s * 1e3 / iters;
  state.counters["agents_updated"] = static_cast<double>(updates) / iters;
  state.counters["us_per_agent"] = cpu_s * 1e6 / static_cast<double>(updates);
  state.counters["rays"] = static_cast<double>(rays) / iters;
  state.counters["rays_per_s"] = static_cast<double>(rays) / cpu_s;
  state.counters["candidates"] = static_cast<double>(scene.system->lastTick().candidates);
}

// Every agent does a full update every call: the "full update of all 10,000 agents".
void BM_FullUpdateAll(benchmark::State& state) {
  PerceptionConfig config;
  config.max_rays_per_tick = 0;
  Scene scene(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)), config);
  measure(state, scene);
}
BENCHMARK(BM_FullUpdateAll)
    ->ArgNames({"guards", "bandits"})
    ->Args({10000, 0})     // one NPC species vs 1,000 players
    ->Args({5000, 5000})   // two hostile NPC species as well
    ->Unit(benchmark::kMillisecond);

// The production setting: staggered over 3 ticks (0.3 s at 10 Hz) with a ray budget.
void BM_StaggeredTick(benchmark::State& state) {
  PerceptionConfig config;
  config.full_update_period_ticks = 3;
  config.max_rays_per_tick = 20000;
  Scene scene(10000, 0, config);
  measure(state, scene);
}
BENCHMARK(BM_StaggeredTick)->Unit(benchmark::kMillisecond);

// Ray cost alone: eye-to-eye lines of ≤ 50 m between random open points.
void BM_LineOfSight(benchmark::State& state) {
  Scene scene(0, 0, PerceptionConfig{});
  ObstacleIndex index(8.f);
  index.rebuild(scene.world.obstacles());
  Rng rng(9);
  std::vector<std::pair<Vec3, Vec3>> rays;
  for (int i = 0; i < 4096; ++i) {
    const Vec3 a = scene.openPoint(rng) + Vec3{0, 0, 1.7f};
    const float ang = rng.range(0.f, 6.2831853f), len = rng.range(1.f, 50.f);
    rays.push_back({a, a + Vec3{len * std::cos(ang), len * std::sin(ang), 0}});
  }
  size_t i = 0, blocked = 0;
  const double t0 = threadCpuSeconds();
  for (auto _ : state) {
    const auto& r = rays[i++ & 4095];
    blocked += index.lineOfSight(r.first, r.second).block != SightBlock::kClear;
  }
  const double cpu_s = threadCpuSeconds() - t0;
  state.counters["ns_per_ray"] = cpu_s * 1e9 / static_cast<double>(state.iterations());
  state.counters["rays_per_s"] = static_cast<double>(state.iterations()) / cpu_s;
  state.counters["blocked"] =
      static_cast<double>(blocked) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_LineOfSight);

void BM_ObstacleRebuild(benchmark::State& state) {
  Scene scene(0, 0, PerceptionConfig{});
  ObstacleIndex index(8.f);
  for (auto _ : state) {
    index.rebuild(scene.world.obstacles());
    benchmark::ClobberMemory();
  }
  state.counters["cell_entries"] = static_cast<double>(index.cellEntries());
}
BENCHMARK(BM_ObstacleRebuild)->Unit(benchmark::kMillisecond);

// Loud sounds (issue: a finite but absurd radius froze the tick): 10,000 hearing agents on
// 1 km², no obstacles, ten sounds per update of radius 20,000 m (range 0) or 1e30 m
// (range 1). Each sound reaches every agent; the grid query behind it costs one pass over
// the entities whatever the radius, so update_ms is the cost of hearing, not of the area.
void BM_LoudSounds(benchmark::State& state) {
  const float radius = state.range(0) == 0 ? 20000.f : 1e30f;
  World world;
  const SpeciesId guard = world.species().intern("guard");
  constexpr int kAgents = 10000;
  std::vector<PerceptionState> states(kAgents);
  std::vector<Perceiver> perceivers;
  SensorConfig sensors;
  sensors.vision = false;
  Rng rng(77);
  for (int i = 0; i < kAgents; ++i) {
    const EntityId id{static_cast<uint64_t>(i + 1)};
    Entity& e = *world.entities().get(world.entities().insert(id));
    e.kind = EntityKind::kNpc;
    e.species = guard;
    e.position = {rng.range(-kHalf, kHalf), rng.range(-kHalf, kHalf), 0};
    initPerceptionState(states[static_cast<size_t>(i)], sensors, id, 7);
  }
  for (int i = 0; i < kAgents; ++i) {
    perceivers.push_back({world.entities().find(EntityId{static_cast<uint64_t>(i + 1)}),
                          &states[static_cast<size_t>(i)]});
  }
  world.markMoved();
  world.refreshSpatialIndex();
  PerceptionSystem system(PerceptionConfig{}, world.species());
  SignalQueue out(1 << 20);
  uint64_t tick = 0;
  double cpu_s = 0.0;
  uint64_t heard = 0;
  for (auto _ : state) {
    for (int k = 0; k < 10; ++k) {
      system.addSound({Vec3{rng.range(-kHalf, kHalf), rng.range(-kHalf, kHalf), 0}, radius,
                       SoundKind::kGunshot, EntityId::kNone, -1.f});
    }
    ++tick;
    out.clear();
    const double t0 = threadCpuSeconds();
    system.update(world, perceivers, tick, static_cast<double>(tick) * 0.1, out);
    cpu_s += threadCpuSeconds() - t0;
    heard += system.lastTick().sounds_heard;
  }
  const double iters = static_cast<double>(state.iterations());
  state.counters["update_ms"] = cpu_s * 1e3 / iters;
  state.counters["heard_per_update"] = static_cast<double>(heard) / iters;
}
BENCHMARK(BM_LoudSounds)->ArgName("radius_1e30")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
