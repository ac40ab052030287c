#include "snapshot_restore.h"

#include <filesystem>

#include <spdlog/spdlog.h>

#include "definitions_hash.h"
#include "journal_file.h"
#include "journal_replay.h"
#include "logging.h"
#include "sim/simulation.h"
#include "sim_state_codec.h"
#include "snapshot_store.h"

namespace npc {

std::string configDefinitionsHash(const DaemonConfig& c) {
  return definitionsHash({c.archetypes_dir, c.selection_trees_dir, c.behavior_trees_dir,
                          c.goap_dir, c.long_actions, c.influences, c.world});
}

namespace {

// The journals after the snapshot of `tick` in `dir`, replayed in order: each one's last
// tick names the next (a snapshot whose capture opened it may never have been written).
void catchUp(const std::string& dir, uint64_t tick, const std::string& definitions_hash,
             Simulation& sim, RestoredFrom& from) {
  const SnapshotStore store(dir, 1);
  uint64_t after = tick;
  for (;;) {
    const std::string path = store.journalPathFor(after);
    JournalContents journal;
    const Status read = readJournalFile(path, journal);
    if (!read.isOk()) {
      if (std::filesystem::exists(path)) spdlog::warn(logText("journal not replayed: " + read.message()));
      return;
    }
    if (!definitions_hash.empty() && journal.header.definitions_hash() != definitions_hash) {
      spdlog::warn(logText(path + ": written with other definitions, not replayed"));
      return;
    }
    from.journal_after = after;
    from.journal_bytes = journal.valid_bytes;
    for (const pb::JournalTick& record : journal.ticks) {
      ReplayedTick replayed;
      const Status step = replayTick(sim, record, replayed);
      if (!step.isOk()) {
        spdlog::warn(logText(path + ": replay stopped: " + step.message()));
        return;
      }
      ++from.replayed_ticks;
      if (!replayed.matches) ++from.diverged_ticks;
    }
    if (!journal.stopped.empty()) spdlog::info(logText(path + ": read up to " + journal.stopped));
    if (sim.tickCount() == after) return;  // an empty journal: the last one
    after = sim.tickCount();
  }
}

}  // namespace

bool restoreFromSnapshot(const DaemonConfig& config, const std::string& definitions_hash,
                         Simulation& sim, RestoredFrom& from, std::vector<std::string>& errors) {
  const SnapshotConfig& c = config.snapshot;
  pb::SnapshotHeader header;
  pb::SimState state;
  std::string path;
  if (c.restore == "latest") {
    const SnapshotStore store(c.dir, c.keep);
    if (store.list().empty() && c.restore_on_start) {
      spdlog::info(logText("snapshot.restore_on_start: no snapshot in " + c.dir + ", starting fresh"));
      return true;
    }
    std::string error;
    const SnapshotStore::Restored found = store.latest(definitions_hash, header, state, error);
    for (const std::string& why : found.skipped) {
      spdlog::warn(logText("snapshot refused, falling back to an older one: " + why));
    }
    if (found.path.empty()) {
      errors.push_back("--restore latest: " + error);
      return false;
    }
    path = found.path;
  } else {
    path = c.restore;
    const Status read = readSnapshotFile(path, definitions_hash, header, state);
    if (!read.isOk()) {
      errors.push_back("--restore: " + read.message());
      return false;
    }
  }
  if (header.world_seed() != config.seed) {
    // Restored agents keep their own random streams; only agents spawned later use the seed.
    spdlog::warn(logText(path + ": taken with seed " + std::to_string(header.world_seed()) +
                         ", the config says " + std::to_string(config.seed)));
  }
  std::string error;
  // Exact when a journal may follow: replaying it needs the run as it was.
  const RestoreMode mode = c.journal ? RestoreMode::kExact : RestoreMode::kRestart;
  if (!restoreSimState(state, sim, error, mode)) {
    errors.push_back("--restore: " + path + ": " + error);
    return false;
  }
  from.restored = true;
  from.snapshot_tick = header.tick();
  from.journal_after = header.tick();
  spdlog::info(logEvent("restored",
                        "restored " + std::to_string(header.agents()) + " agents at tick " +
                            std::to_string(header.tick()) + " from " + path,
                        {{"agents", header.agents()}, {"tick", header.tick()}, {"path", path}}));
  if (!c.journal) return true;
  catchUp(std::filesystem::path(path).parent_path().string(), header.tick(), definitions_hash, sim, from);
  if (from.replayed_ticks > 0) {
    spdlog::info(logEvent(
        "journal replayed",
        "replayed " + std::to_string(from.replayed_ticks) + " ticks of the input journal: at tick " +
            std::to_string(sim.tickCount()) + " as before the stop" +
            (from.diverged_ticks ? ", " + std::to_string(from.diverged_ticks) + " of them diverged" : ""),
        {{"ticks", from.replayed_ticks}, {"tick", sim.tickCount()}, {"diverged", from.diverged_ticks}}));
  }
  sim.submit(Command{ClientId::kDaemon, 0, InterruptInFlight{}});
  return true;
}

}  // namespace npc
