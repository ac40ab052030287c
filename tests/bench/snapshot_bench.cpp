// Snapshots: what a capture costs the tick thread (captureSimState, a copy into messages)
// and what the background thread's encoding costs, with the encoded bytes per agent, for
// the demo world and a generated scale world (core/sim/scale_world.h).
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "agent/archetype.h"
#include "demo/demo_game.h"
#include "hibernation/long_action.h"
#include "sim/scale_world.h"
#include "sim/simulation.h"
#include "sim/world_file.h"
#include "sim_state_codec.h"
#include "snapshot_file.h"

using namespace npc;

namespace {

// The demo's definitions with `world`, ticked `ticks` times with the stand-in game.
std::unique_ptr<Simulation> loadWorld(const WorldFile& world, int ticks, benchmark::State& state) {
  std::vector<std::string> errors;
  ArchetypeSet archetypes;
  archetypes.loadDirectory(NPCD_SOURCE_DIR "/config/archetypes", errors);
  LongActionLibrary long_actions;
  long_actions.loadFile(NPCD_SOURCE_DIR "/config/long_actions.json", errors);
  SimConfig config;
  config.hibernation.quiet_s = 20.0;
  auto sim = std::make_unique<Simulation>(config, std::move(archetypes));
  sim->setLongActions(std::move(long_actions));
  const bool loaded = errors.empty() &&
                      sim->loadBehaviorTrees(NPCD_SOURCE_DIR "/config/behavior_trees").ok() &&
                      sim->loadPlannerDomains(NPCD_SOURCE_DIR "/config/goap").ok() &&
                      sim->loadSelectionTrees(NPCD_SOURCE_DIR "/config/selection_trees").ok() &&
                      applyWorldFile(world, *sim, errors);
  if (!loaded) {
    state.SkipWithError("the demo definitions or the world did not load");
    return nullptr;
  }
  DemoGame game(world.players);
  std::vector<Command> pending;
  for (int t = 0; t < ticks; ++t) {
    sim->tick();
    game.step(*sim, pending);
    sim->submit(pending);
  }
  return sim;
}

void measure(benchmark::State& state, Simulation& sim) {
  pb::SimState captured;
  for (auto _ : state) {
    captureSimState(sim, captured);
    benchmark::DoNotOptimize(captured);
  }
  const auto start = std::chrono::steady_clock::now();
  const std::string bytes = encodeSnapshot(captured, SnapshotInfo{});
  const double encode_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  const SimStats stats = sim.stats();
  state.counters["agents"] = static_cast<double>(stats.agents);
  state.counters["asleep"] = static_cast<double>(stats.agents_asleep);
  state.counters["bytes"] = static_cast<double>(bytes.size());
  state.counters["bytes_per_agent"] = static_cast<double>(bytes.size()) / static_cast<double>(stats.agents);
  state.counters["encode_ms"] = encode_ms;
}

void BM_CaptureDemo(benchmark::State& state) {
  std::vector<std::string> errors;
  WorldFile world;
  loadWorldFile(NPCD_SOURCE_DIR "/config/demo.json", world, errors);
  const auto sim = loadWorld(world, 600, state);
  if (sim) measure(state, *sim);
}
BENCHMARK(BM_CaptureDemo)->Unit(benchmark::kMicrosecond);

void BM_CaptureScale(benchmark::State& state) {
  ScaleWorldSpec spec;
  spec.agents = static_cast<uint32_t>(state.range(0));
  const auto sim = loadWorld(makeScaleWorld(spec), 20, state);
  if (sim) measure(state, *sim);
}
BENCHMARK(BM_CaptureScale)->Arg(10000)->Unit(benchmark::kMillisecond);

}  // namespace
