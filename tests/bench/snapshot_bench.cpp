// Snapshots: what a capture costs the tick thread (copySimState, plain rows) and what the
// background thread's building and encoding cost, with the encoded bytes per agent, for
// the demo world and a generated scale world (core/sim/scale_world.h).
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "demo_sim.h"
#include "sim/scale_world.h"
#include "sim/simulation.h"
#include "sim/world_file.h"
#include "sim_state_codec.h"
#include "sim_state_copy.h"
#include "journal_codec.h"
#include "journal_file.h"
#include "snapshot_file.h"
#include "state_checksum.h"

using namespace npc;

namespace {

// The demo's definitions with `world`, ticked `ticks` times with the stand-in game.
std::unique_ptr<Simulation> loadWorld(const WorldFile& world, int ticks, benchmark::State& state,
                                      double quiet_s = 20.0) {
  SimConfig config;
  config.hibernation.quiet_s = quiet_s;
  bench::DemoSim demo;
  if (!demo.load(world, config, state)) return nullptr;
  demo.run(ticks);
  return std::move(demo.sim);
}

// The loop is the tick thread's part, a copy into a SimStateCopy reused between captures
// (as SnapshotWriter reuses them; first_ms: the first, into an empty copy); build_ms and
// encode_ms are the background thread's: the messages built from the copy, then encoded
// into the file's bytes.
void measure(benchmark::State& state, Simulation& sim) {
  SimStateCopy copy;
  // The first capture also grows the copy's vectors (page faults on tens of MB); the
  // writer keeps its copies, so later captures copy into capacity they have: the loop.
  const auto first = std::chrono::steady_clock::now();
  copySimState(sim, copy);
  state.counters["first_ms"] =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - first).count();
  for (auto _ : state) {
    copySimState(sim, copy);
    benchmark::DoNotOptimize(copy);
  }
  pb::SimState captured;
  auto start = std::chrono::steady_clock::now();
  buildSimState(copy, captured);
  const double build_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  start = std::chrono::steady_clock::now();
  const std::string bytes = encodeSnapshot(captured, SnapshotInfo{});
  const double encode_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  state.counters["build_ms"] = build_ms;
  // What the copy holds (the copy is memory-bound; of the agents' intention queues the tick
  // thread writes only the slots in use, and sleepers are shared, not copied).
  auto bytesOf = [](const auto& v) { return static_cast<double>(v.size() * sizeof(v[0])); };
  state.counters["copy_agents_MB"] =
      (bytesOf(copy.agents) + bytesOf(copy.tracks) + bytesOf(copy.sounds) + bytesOf(copy.timestamps) +
       bytesOf(copy.running) + static_cast<double>(copy.node_data.size()) + bytesOf(copy.entities)) / 1e6;
  state.counters["copy_planners_MB"] = (bytesOf(copy.planner_memory) + bytesOf(copy.planner_rows)) / 1e6;
  // Sleepers are shared with the simulation, not copied: only their references and the
  // sleeping planners are.
  state.counters["copy_sleepers_MB"] = (bytesOf(copy.dormant) + bytesOf(copy.sleeping_planners)) / 1e6;
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

// 10,000 awake agents and range(0) agents asleep. Ticking a million agents until their
// places sleep would take minutes, so the sleepers are made the way a restore makes them:
// a small quiet place (no players) falls asleep for real, its sleepers are copied with new
// ids into the captured state up to range(0), and that state is restored into a fresh
// simulation (timed: restore_ms). Then the capture (the loop) and the encoding are measured
// as for the other worlds, with the file's bytes per sleeping agent. One sleeper in five
// plans (pyromaniacs), so its planner memory (facts, blackboard, pacing) sleeps with it.
void BM_CaptureWithSleepers(benchmark::State& state) {
  const auto sleepers = static_cast<size_t>(state.range(0));
  ScaleWorldSpec awake_spec;  // 2 players per place: these stay awake
  awake_spec.agents = 10000;
  WorldFile world = makeScaleWorld(awake_spec);
  ScaleWorldSpec quiet_spec;  // one place nobody visits, east of the others
  quiet_spec.agents = 500;
  quiet_spec.players_per_place = 0;
  // One species, nobody to notice; pyromaniacs plan.
  quiet_spec.mix = {{"villager", 2}, {"woodcutter", 1}, {"guard", 1}, {"pyromaniac", 1}};
  quiet_spec.first_agent_id = 20000000;
  quiet_spec.first_object_id = 90000000;
  const WorldFile quiet = makeScaleWorld(quiet_spec);
  const float east = 10000.f;
  for (Place place : quiet.places) {
    place.name = "quiet_" + place.name;
    place.bounds.min.x += east;
    place.bounds.max.x += east;
    world.places.push_back(place);
  }
  for (Obstacle o : quiet.obstacles) {
    o.id = static_cast<ObstacleId>(raw(o.id) + 100000);
    o.box.min.x += east;
    o.box.max.x += east;
    world.obstacles.push_back(o);
  }
  for (EntityState e : quiet.entities) {
    if (e.position) e.position->x += east;
    world.entities.push_back(e);
  }
  // Quiet for 2 s, then walks in flight finish (the stand-in game completes them): asleep
  // well before 30 s.
  const auto first = loadWorld(world, 300, state, 2.0);
  if (!first) return;
  pb::SimState captured;
  captureSimState(*first, captured);
  pb::HibernationState& h = *captured.mutable_hibernation();
  if (h.dormant_size() == 0) {
    state.SkipWithError("the quiet place did not fall asleep");
    return;
  }
  const int seeds = h.dormant_size();
  std::vector<uint64_t> seed_ids;  // ids are deltas from the sleeper before (hibernation.proto)
  for (const pb::DormantAgentState& d : h.dormant()) {
    seed_ids.push_back((seed_ids.empty() ? 0 : seed_ids.back()) + static_cast<uint64_t>(d.id_delta()));
  }
  std::map<uint64_t, pb::GoapSleeper> seed_planners;
  for (const pb::GoapSleeper& s : captured.sleeping_planners()) seed_planners[s.id()] = s;
  uint64_t previous_id = seed_ids.back();
  h.mutable_dormant()->Reserve(static_cast<int>(sleepers));
  for (size_t i = static_cast<size_t>(seeds); i < sleepers; ++i) {
    const size_t seed = i % static_cast<size_t>(seeds);
    pb::DormantAgentState copy = h.dormant(static_cast<int>(seed));
    copy.set_id_delta(static_cast<int64_t>(30000000 + i - previous_id));
    previous_id = 30000000 + i;
    *h.add_dormant() = std::move(copy);
    const auto planner = seed_planners.find(seed_ids[seed]);
    if (planner == seed_planners.end()) continue;
    pb::GoapSleeper& s = *captured.add_sleeping_planners();
    s = planner->second;
    s.set_id(previous_id);
  }
  state.counters["sleeping_planners"] = static_cast<double>(captured.sleeping_planners_size());
  const auto second = loadWorld(world, 0, state, 2.0);
  std::string error;
  const auto start = std::chrono::steady_clock::now();
  if (!restoreSimState(captured, *second, error)) {
    state.SkipWithError(error.c_str());
    return;
  }
  state.counters["restore_ms"] =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  captured.Clear();
  measure(state, *second);
  pb::SimState only_awake;  // the same world with nobody asleep, for the sleepers' share
  captureSimState(*first, only_awake);
  only_awake.mutable_hibernation()->clear_dormant();
  only_awake.clear_sleeping_planners();
  const double awake_bytes = static_cast<double>(encodeSnapshot(only_awake, SnapshotInfo{}).size());
  state.counters["bytes_per_sleeper"] =
      (state.counters["bytes"].value - awake_bytes) / static_cast<double>(sleepers);
}
BENCHMARK(BM_CaptureWithSleepers)->Arg(1000000)->Unit(benchmark::kMillisecond)->Iterations(10);

}  // namespace

// The input journal's cost per tick on the tick thread (server/input_journal.h): a tick of
// range(0) client updates (each an NPC's new position and velocity, what a game streams)
// encoded as the tick applies them, the state checksum and output hash after the tick, and
// the record appended to a file (no sync: the "interval" policy syncs on another thread).
void BM_JournalTick(benchmark::State& state) {
  ScaleWorldSpec spec;
  spec.agents = 10000;
  const auto sim = loadWorld(makeScaleWorld(spec), 20, state);
  if (!sim) return;
  const std::string path = "/tmp/npcd-bench.npcjournal";
  Status status;
  auto writer = JournalWriter::create(path, pb::JournalHeader(), status);
  std::vector<Command> updates;
  uint32_t n = 0;
  for (const Entity& e : sim->world().entities().rows()) {
    if (e.kind != EntityKind::kNpc || n == state.range(0)) continue;
    EntityState s;
    s.id = e.id;
    s.kind = EntityKind::kNpc;
    s.position = Vec3{e.position.x + 0.5f, e.position.y, e.position.z};
    s.velocity = Vec3{1.f, 0.f, 0.f};
    updates.push_back(Command{static_cast<ClientId>(1), n, UpsertEntity{s}, n});
    ++n;
  }
  pb::JournalTick tick;
  double checksum_ms = 0.0;
  for (auto _ : state) {
    tick.Clear();
    for (const Command& c : updates) encodeCommand(c, *tick.add_commands());
    const auto start = std::chrono::steady_clock::now();
    tick.set_state_checksum(stateChecksum(*sim));
    checksum_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    tick.set_output_hash(hashTickOutput(sim->output(), sim->names()));
    writer->append(tick);
  }
  state.counters["updates"] = static_cast<double>(updates.size());
  state.counters["bytes_per_update"] =
      updates.empty() ? 0.0 : static_cast<double>(tick.ByteSizeLong()) / static_cast<double>(updates.size());
  state.counters["checksum_ms"] = checksum_ms;
  std::remove(path.c_str());
}
BENCHMARK(BM_JournalTick)->Arg(0)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);
