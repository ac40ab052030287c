// SnapshotStore: the snapshot directory (config snapshot.dir). Files are named by tick
// ("snapshot-000000004210.npcsnap") so that name order is age order; only the newest
// `keep` stay after each write. `--restore latest` takes the newest good one and falls
// back, saying so, past files it refuses. Each snapshot's input journal sits beside it
// ("journal-000000004210.npcjournal") and goes when no kept snapshot precedes it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "snapshot_file.h"

namespace npc {

class SnapshotStore {
 public:
  SnapshotStore(std::string dir, uint32_t keep) : dir_(std::move(dir)), keep_(keep) {}

  const std::string& dir() const { return dir_; }
  std::string pathFor(uint64_t tick) const;
  // The input journal that follows the snapshot of `tick` (journal_file.h).
  std::string journalPathFor(uint64_t tick) const;
  // Removes the journals older than the oldest snapshot kept: nothing can replay them.
  void removeStaleJournals() const;
  // Snapshot files, newest first.
  std::vector<std::string> list() const;
  // Writes `bytes` (encodeSnapshot) as the snapshot of `tick`, then removes all but the
  // newest `keep`. Creates the directory if needed. `path` receives the file written.
  Status write(uint64_t tick, const std::string& bytes, std::string& path) const;

  struct Restored {
    std::string path;                 // "" when none was usable
    std::vector<std::string> skipped;  // why newer files were refused, newest first
  };
  // The newest snapshot that passes readSnapshotFile; `error` says why none did.
  Restored latest(const std::string& definitions_hash, pb::SnapshotHeader& header,
                  pb::SimState& state, std::string& error) const;

 private:
  std::string dir_;
  uint32_t keep_;
};

}  // namespace npc
