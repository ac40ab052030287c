// Starting from a snapshot (`npcd --restore latest|FILE`, config snapshot.restore_on_start):
// the daemon loads its definitions and world as usual, then replaces the runtime state with
// the snapshot's. A file that is damaged, of another format or taken with other definitions
// is refused; `latest` falls back to the previous good snapshot and logs why.
//
// With the input journal on, the journal written after that snapshot (and the ones after
// it, when a later snapshot never reached the disk) is replayed on top, so the daemon comes
// back at the last tick it ran, not at the snapshot. Then the intentions in flight are
// reported INTERRUPTED (an InterruptInFlight command, journaled like any other): the game's
// connections, and the results of those actions, are gone.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config.h"

namespace npc {

class Simulation;

// The definitions hash of a daemon config (definitions_hash.h over the files it loads).
std::string configDefinitionsHash(const DaemonConfig& config);

// Where the restored daemon's journal goes on: the file it continues.
struct RestoredFrom {
  bool restored = false;        // false: started fresh (restore_on_start, nothing to restore)
  uint64_t snapshot_tick = 0;
  uint64_t journal_after = 0;   // the journal file continued (its snapshot's tick)
  uint64_t journal_bytes = 0;   // its length up to its last whole record; 0: none continued
  uint64_t replayed_ticks = 0;
  uint64_t diverged_ticks = 0;  // replayed ticks whose checksum differs from the record's
};

// Restores `sim` as config.snapshot.restore says. False with the reason in `errors` (the
// daemon must not start then). With restore_on_start and an empty snapshot directory the
// daemon starts fresh (true, nothing restored).
bool restoreFromSnapshot(const DaemonConfig& config, const std::string& definitions_hash,
                         Simulation& sim, RestoredFrom& from, std::vector<std::string>& errors);

}  // namespace npc
