// Whole-tick cost over thousands of agents, and heap allocations per tick (target: none in
// steady state, whatever the agent count).
#include <atomic>
#include <cstdlib>
#include <new>

#include <benchmark/benchmark.h>

#include "base/rng.h"
#include "sim/simulation.h"

namespace {
std::atomic<uint64_t> g_allocations{0};
}

// Counting replacements of the global allocation functions. GCC cannot see that new and
// delete below are a matched malloc/free pair and warns; they are.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

void* operator new(size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }

using namespace npc;

namespace {

ArchetypeSet benchArchetypes() {
  ArchetypeSet set;
  Archetype a;
  a.name = "villager";
  a.species = "human";
  a.action_timeout_s = 1e9f;  // the bench never reports results: agents stay busy...
  set.add(a);
  Archetype idle = a;
  idle.name = "idler";        // ...or have nothing to do but look around
  idle.wander.radius_m = 0.f;
  idle.greet.cooldown_s = 1e9f;
  set.add(idle);
  return set;
}

void BM_SimTick(benchmark::State& state) {
  const auto agents = static_cast<uint64_t>(state.range(0));
  SimConfig config;
  config.max_queued_commands = agents + 1000;
  Simulation sim(config, benchArchetypes());
  Rng rng(9);
  const float extent = 10.f * std::sqrt(static_cast<float>(agents));
  for (uint64_t i = 0; i < agents; ++i) {
    EntityState s;
    s.id = EntityId{1000 + i};
    s.kind = EntityKind::kNpc;
    s.archetype = i % 2 ? "villager" : "idler";
    s.position = Vec3{rng.range(0, extent), rng.range(0, extent), 0};
    sim.submit({ClientId{1}, 0, UpsertEntity{s}});
  }
  for (uint64_t i = 0; i < agents / 20; ++i) {  // one player per 20 agents
    EntityState s;
    s.id = EntityId{1 + i};
    s.kind = EntityKind::kPlayer;
    s.position = Vec3{rng.range(0, extent), rng.range(0, extent), 0};
    sim.submit({ClientId{1}, 0, UpsertEntity{s}});
  }
  for (int i = 0; i < 5; ++i) sim.tick();  // spawn and warm up buffers
  const uint64_t before = g_allocations.load();
  for (auto _ : state) sim.tick();
  const uint64_t allocs = g_allocations.load() - before;
  state.counters["allocs_per_tick"] =
      benchmark::Counter(static_cast<double>(allocs) / static_cast<double>(state.iterations()));
  state.counters["time_per_agent"] =
      benchmark::Counter(static_cast<double>(agents) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_SimTick)->Arg(1000)->Arg(10000)->Arg(50000)->Unit(benchmark::kMillisecond);

}  // namespace
