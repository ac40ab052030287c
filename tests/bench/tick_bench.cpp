// Whole-tick cost over thousands of agents, and heap allocations per tick (target: none in
// steady state, whatever the agent count).
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include <benchmark/benchmark.h>

#include <nlohmann/json.hpp>

#include "allocation_counter.h"
#include "base/json_reader.h"
#include "base/rng.h"
#include "demo/demo_game.h"
#include "sim/scale_world.h"
#include "sim/simulation.h"

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

// Args: agents, tick.threads.
void BM_SimTick(benchmark::State& state) {
  const auto agents = static_cast<uint64_t>(state.range(0));
  SimConfig config;
  config.threads = static_cast<unsigned>(state.range(1));
  // Third argument 1: tick.lod on (agents with no player within 40 m run one tick in 4).
  config.detail.enabled = state.range(2) != 0;
  config.detail.near_m = 40.f;
  config.detail.far_period_ticks = 4;
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
  const uint64_t before = npc::test::allocationCount();
  for (auto _ : state) sim.tick();
  const uint64_t allocs = npc::test::allocationCount() - before;
  state.counters["allocs_per_tick"] =
      benchmark::Counter(static_cast<double>(allocs) / static_cast<double>(state.iterations()));
  state.counters["time_per_agent"] =
      benchmark::Counter(static_cast<double>(agents) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_SimTick)
    ->Args({1000, 1})
    ->Args({10000, 1})
    ->Args({50000, 1})
    ->Args({10000, 2})  // the pool path allocates nothing per tick either
    ->Unit(benchmark::kMillisecond);

// The tick with planners: every agent is seed 003's pyromaniac guard (config/goap/guard.json)
// among smart objects; the bench plays the game (every action completes at once) and each
// tick 1 % of the guards are given their fires back, so they plan again. Allocations are
// counted inside tick() only (the bench's own result submissions are not the daemon's).
ArchetypeSet plannerArchetypes() {
  ArchetypeSet set;
  JsonReader reader("bench");
  nlohmann::json j = nlohmann::json::parse(R"({ "pyromaniac": {
    "species": "human", "behavior": "GuardIdle", "action_timeout_s": 86400,
    "perception": { "vision": false, "hearing": false },
    "behaviors": { "GuardIdle": { "mode": "plan" } },
    "planner": { "domain": "guard", "targets": { "post": "home" }, "blackboard": { "bored": true },
                 "transient_facts": ["something_burning"] } } })");
  set.loadObject(j, reader);
  return set;
}

void BM_SimTickPlanning(benchmark::State& state) {
  const auto agents = static_cast<uint64_t>(state.range(0));
  SimConfig config;
  config.max_queued_commands = 4 * agents + 1000;
  config.max_plans_per_tick = static_cast<uint32_t>(agents);
  config.hibernation.enabled = false;
  Simulation sim(config, plannerArchetypes());
  sim.setDefinitionSources({"", NPCD_SOURCE_DIR "/config/goap", "", ""});
  if (!sim.loadDefinitions(DefinitionLoad::kFirst).ok()) {
    state.SkipWithError("config/goap did not load");
    return;
  }
  Rng rng(9);
  const float extent = 10.f * std::sqrt(static_cast<float>(agents));
  const char* species[] = {"torch", "brazier", "haystack", "cart", "oil_lamp"};
  for (uint64_t i = 0; i < agents; ++i) {
    EntityState s;
    s.id = EntityId{100000 + i};
    s.kind = EntityKind::kObject;
    s.species = species[i % 5];
    s.position = Vec3{rng.range(0, extent), rng.range(0, extent), 0};
    sim.submit({ClientId{1}, 0, UpsertEntity{s}});
  }
  for (uint64_t i = 0; i < agents; ++i) {
    EntityState s;
    s.id = EntityId{1000 + i};
    s.kind = EntityKind::kNpc;
    s.archetype = "pyromaniac";
    s.position = Vec3{rng.range(0, extent), rng.range(0, extent), 0};
    sim.submit({ClientId{1}, 0, UpsertEntity{s}});
  }
  std::vector<Command> game;
  uint64_t rearm = 0;
  auto playGame = [&] {
    for (const ActionOut& a : sim.output().actions) {
      ActionResult r;
      r.agent = a.agent;
      r.intention = a.intention;
      r.outcome = ActionOutcome::kCompleted;
      game.push_back({ClientId{1}, 0, r});
    }
    for (uint64_t k = 0; k < std::max<uint64_t>(1, agents / 100); ++k) {
      game.push_back({ClientId{1}, 0, SetPlannerValue{EntityId{1000 + rearm++ % agents}, "fires_started", "0", false, {}}});
    }
    sim.submit(game);
  };
  for (int i = 0; i < 50; ++i) {  // spawn, plan, burn: reach the steady state
    sim.tick();
    playGame();
  }
  uint64_t allocs = 0;
  const uint64_t plans_before = sim.stats().plans;
  for (auto _ : state) {
    const uint64_t before = npc::test::allocationCount();
    sim.tick();
    allocs += npc::test::allocationCount() - before;
    state.PauseTiming();
    playGame();
    state.ResumeTiming();
  }
  const auto iterations = static_cast<double>(state.iterations());
  state.counters["allocs_per_tick"] = benchmark::Counter(static_cast<double>(allocs) / iterations);
  state.counters["plans_per_tick"] =
      benchmark::Counter(static_cast<double>(sim.stats().plans - plans_before) / iterations);
  state.counters["time_per_agent"] =
      benchmark::Counter(static_cast<double>(agents) * iterations,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_SimTickPlanning)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

// The whole tick at scale: a generated world (core/sim/scale_world.h) of N awake agents of
// the demo archetypes (villagers, woodcutters, guards, wolves, 1 % planning pyromaniacs)
// over N/500 places with two scripted players each, running the demo's selection trees,
// behavior trees and planner domains; the daemon's stand-in game plays every action. Reports
// the tick's p50/p99 and each phase's mean ms per tick (TickProfile), plus allocations.
// Args: agents, tick.threads.
void BM_ScaleWorldTick(benchmark::State& state) {
  ScaleWorldSpec spec;
  spec.agents = static_cast<uint32_t>(state.range(0));
  const WorldFile world = makeScaleWorld(spec);
  std::vector<std::string> errors;
  ArchetypeSet archetypes;
  archetypes.loadDirectory(NPCD_SOURCE_DIR "/config/archetypes", errors);
  SimConfig config;
  config.hibernation.enabled = false;  // every agent awake: the worst case
  config.max_agents = spec.agents;
  config.max_queued_commands = 4 * static_cast<size_t>(spec.agents) + 10000;
  config.threads = static_cast<unsigned>(state.range(1));
  // Third argument 1: tick.lod on (agents with no player within 40 m run one tick in 4).
  config.detail.enabled = state.range(2) != 0;
  config.detail.near_m = 40.f;
  config.detail.far_period_ticks = 4;
  Simulation sim(config, std::move(archetypes));
  sim.setDefinitionSources({NPCD_SOURCE_DIR "/config/behavior_trees", NPCD_SOURCE_DIR "/config/goap",
                            "", NPCD_SOURCE_DIR "/config/selection_trees"});
  const bool loaded = errors.empty() &&
                      sim.loadDefinitions(DefinitionLoad::kFirst).ok() &&
                      applyWorldFile(world, sim, errors);
  if (!loaded) {
    state.SkipWithError("the demo definitions or the scale world did not load");
    return;
  }
  DemoGame game(world.players);
  std::vector<Command> commands;
  commands.reserve(4 * static_cast<size_t>(spec.agents));
  auto step = [&] {
    game.step(sim, commands);
    sim.submit(commands);
  };
  for (int i = 0; i < 30; ++i) {  // spawn, pick behaviors, start walking: a steady state
    sim.tick();
    step();
  }
  std::array<uint64_t, kTickPhaseCount> before{};
  for (TickPhase phase : kTickPhases) before[index(phase)] = sim.profile().totalNs(phase);
  std::vector<double> tick_ms;
  tick_ms.reserve(1024);
  uint64_t allocs = 0;
  for (auto _ : state) {
    const uint64_t a = npc::test::allocationCount();
    sim.tick();
    allocs += npc::test::allocationCount() - a;
    tick_ms.push_back(static_cast<double>(sim.profile().lastTickNs()) / 1e6);
    state.PauseTiming();
    step();
    state.ResumeTiming();
  }
  const auto iterations = static_cast<double>(state.iterations());
  for (TickPhase phase : kTickPhases) {
    if (phase == TickPhase::kEmit) continue;  // the server's, not measured here
    const auto spent = static_cast<double>(sim.profile().totalNs(phase) - before[index(phase)]);
    state.counters[std::string(tickPhaseName(phase)) + "_ms"] = benchmark::Counter(spent / 1e6 / iterations);
  }
  std::sort(tick_ms.begin(), tick_ms.end());
  auto at = [&](double p) { return tick_ms[static_cast<size_t>(p * static_cast<double>(tick_ms.size() - 1))]; };
  state.counters["p50_ms"] = benchmark::Counter(at(0.5));
  state.counters["p99_ms"] = benchmark::Counter(at(0.99));
  state.counters["allocs_per_tick"] = benchmark::Counter(static_cast<double>(allocs) / iterations);
  state.counters["awake"] = benchmark::Counter(static_cast<double>(sim.stats().agents_awake));
  state.counters["reduced"] = benchmark::Counter(static_cast<double>(sim.stats().agents_reduced));
}
BENCHMARK(BM_ScaleWorldTick)
    ->ArgsProduct({{10000, 50000, 100000}, {1, 2}, {0}})
    ->Iterations(30)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ScaleWorldTick)
    ->ArgsProduct({{100000}, {1, 2}, {1}})
    ->Iterations(30)
    ->Unit(benchmark::kMillisecond);

// The ingest step alone: every npc of a world moved by one client update a tick, as a game
// streams its NPCs' positions (the stream path's cost on the tick thread). Reports the ingest
// phase's time per command; the rest of the tick runs but is not counted.
void BM_IngestMoves(benchmark::State& state) {
  const auto agents = static_cast<uint64_t>(state.range(0));
  SimConfig config;
  config.max_queued_commands = 2 * agents + 1000;
  Simulation sim(config, benchArchetypes());
  Rng rng(9);
  const float extent = 10.f * std::sqrt(static_cast<float>(agents));
  std::vector<Vec3> at(agents);
  for (uint64_t i = 0; i < agents; ++i) {
    at[i] = Vec3{rng.range(0, extent), rng.range(0, extent), 0};
    EntityState s;
    s.id = EntityId{1000 + i};
    s.kind = EntityKind::kNpc;
    s.archetype = "idler";
    s.position = at[i];
    sim.submit({ClientId{1}, 0, UpsertEntity{s}});
  }
  for (int i = 0; i < 3; ++i) sim.tick();
  std::vector<Command> moves;
  uint64_t seq = 0;
  uint64_t ingest_ns = 0;
  for (auto _ : state) {
    state.PauseTiming();
    ++seq;
    moves.clear();
    for (uint64_t i = 0; i < agents; ++i) {
      EntityState s;
      s.id = EntityId{1000 + i};
      s.kind = EntityKind::kNpc;
      at[i].x += 0.1f;
      s.position = at[i];
      s.velocity = Vec3{1.f, 0.f, 0.f};
      moves.push_back({ClientId{1}, seq, UpsertEntity{std::move(s)}, static_cast<uint32_t>(i)});
    }
    sim.submit(moves);
    state.ResumeTiming();
    sim.tick();
    ingest_ns += sim.profile().lastNs(TickPhase::kIngest);
  }
  state.counters["ingest_ms"] = benchmark::Counter(
      static_cast<double>(ingest_ns) / 1e6 / static_cast<double>(state.iterations()));
  state.counters["ns_per_command"] = benchmark::Counter(
      static_cast<double>(ingest_ns) / static_cast<double>(agents * state.iterations()));
}
BENCHMARK(BM_IngestMoves)->Arg(10000)->Arg(100000)->Iterations(20)->Unit(benchmark::kMillisecond);

}  // namespace
