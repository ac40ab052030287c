#include "snapshot_restore.h"

#include <spdlog/spdlog.h>

#include "definitions_hash.h"
#include "logging.h"
#include "sim/simulation.h"
#include "sim_state_codec.h"
#include "snapshot_store.h"

namespace npc {

std::string configDefinitionsHash(const DaemonConfig& c) {
  return definitionsHash({c.archetypes_dir, c.selection_trees_dir, c.behavior_trees_dir,
                          c.goap_dir, c.long_actions, c.influences, c.world});
}

bool restoreFromSnapshot(const DaemonConfig& config, const std::string& definitions_hash,
                         Simulation& sim, std::vector<std::string>& errors) {
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
  if (!restoreSimState(state, sim, error)) {
    errors.push_back("--restore: " + path + ": " + error);
    return false;
  }
  spdlog::info(logEvent("restored",
                        "restored " + std::to_string(header.agents()) + " agents at tick " +
                            std::to_string(header.tick()) + " from " + path,
                        {{"agents", header.agents()}, {"tick", header.tick()}, {"path", path}}));
  return true;
}

}  // namespace npc
