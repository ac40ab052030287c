// Sleeping agents cost nothing per tick: the tick of 10,000 awake agents alone versus the
// same with 990,000 more asleep in 99 other places; bytes per sleeping agent.
#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

#include <benchmark/benchmark.h>

#include "base/rng.h"
#include "sim/simulation.h"

using namespace npc;

namespace {

constexpr uint64_t kAwake = 10000;
constexpr uint64_t kPerSleepingPlace = 10000;

ArchetypeSet benchArchetypes() {
  ArchetypeSet set;
  Archetype worker;
  worker.name = "worker";
  worker.species = "human";
  worker.behaviors.push_back({"Work", BehaviorMode::kWander});
  worker.behavior = "Work";
  worker.action_timeout_s = 1e9f;
  set.add(worker);
  // Villagers rest (no client actions in flight), so their villages drain and sleep at once.
  Archetype villager = worker;
  villager.name = "villager";
  villager.behaviors = {{"Rest", BehaviorMode::kIdle}};
  villager.behavior = "Rest";
  set.add(villager);
  return set;
}

void spawnPlace(Simulation& sim, PlaceIndex place, const char* archetype, uint64_t first_id,
                uint64_t count, Rng& rng) {
  const Aabb& b = sim.world().place(place)->bounds;
  for (uint64_t i = 0; i < count; ++i) {
    EntityState s;
    s.id = EntityId{first_id + i};
    s.kind = EntityKind::kNpc;
    s.archetype = archetype;
    s.position = Vec3{rng.range(b.min.x, b.max.x), rng.range(b.min.y, b.max.y), 0};
    sim.submit({ClientId{1}, 0, UpsertEntity{s}});
  }
}

// 10,000 awake agents in a market with 500 players; `sleeping_places` more places of
// 10,000 agents each, put to sleep before measuring.
std::unique_ptr<Simulation> build(int sleeping_places) {
  SimConfig config;
  config.hibernation.quiet_s = 0.05;  // under one tick: villages sleep on their second tick
  config.max_agents = 2'000'000;
  config.max_queued_commands = 1 << 22;
  config.derive_footsteps = false;
  auto sim = std::make_unique<Simulation>(config, benchArchetypes());
  sim->world().addPlace("market", {{0, 0, -1}, {1000, 1000, 10}});
  for (int p = 0; p < sleeping_places; ++p) {
    const float x = 2000.f + 600.f * static_cast<float>(p);
    sim->world().addPlace("village" + std::to_string(p), {{x, 0, -1}, {x + 500.f, 500.f, 10}});
  }
  Rng rng(1);
  for (uint64_t i = 0; i < 500; ++i) {
    EntityState s;
    s.id = EntityId{1 + i};
    s.kind = EntityKind::kPlayer;
    s.position = Vec3{rng.range(0, 1000), rng.range(0, 1000), 0};
    sim->submit({ClientId{1}, 0, UpsertEntity{s}});
  }
  spawnPlace(*sim, PlaceIndex{0}, "worker", 1'000'000, kAwake, rng);
  for (int p = 0; p < sleeping_places; ++p) {
    spawnPlace(*sim, static_cast<PlaceIndex>(p + 1), "villager",
               2'000'000 + kPerSleepingPlace * static_cast<uint64_t>(p), kPerSleepingPlace, rng);
    sim->tick();  // spawn ...
    sim->tick();  // ... and sleep (quiet_s 0, nothing in flight: the village drains at once)
  }
  for (int i = 0; i < 5; ++i) sim->tick();
  return sim;
}

void measure(benchmark::State& state, Simulation& sim) {
  std::vector<double> ms;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    sim.tick();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  const SimStats s = sim.stats();
  state.counters["p99_ms"] = ms[std::min(ms.size() - 1, ms.size() * 99 / 100)];
  state.counters["awake"] = static_cast<double>(s.agents_awake);
  state.counters["asleep"] = static_cast<double>(s.agents_asleep);
  if (s.agents_asleep > 0) {
    state.counters["bytes_per_sleeper"] =
        static_cast<double>(sim.dormantBytes()) / static_cast<double>(s.agents_asleep);
  }
}

void BM_TickAwakeOnly(benchmark::State& state) {
  auto sim = build(0);
  measure(state, *sim);
}
BENCHMARK(BM_TickAwakeOnly)->Unit(benchmark::kMillisecond)->Iterations(200);

void BM_TickWithSleepers(benchmark::State& state) {
  auto sim = build(static_cast<int>(state.range(0)));
  measure(state, *sim);
}
BENCHMARK(BM_TickWithSleepers)->Arg(9)->Arg(99)->Unit(benchmark::kMillisecond)->Iterations(200);

}  // namespace
