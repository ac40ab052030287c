// Starting from a snapshot (`npcd --restore latest|FILE`, config snapshot.restore_on_start):
// the daemon loads its definitions and world as usual, then replaces the runtime state with
// the snapshot's. A file that is damaged, of another format or taken with other definitions
// is refused; `latest` falls back to the previous good snapshot and logs why.
#pragma once

#include <string>
#include <vector>

#include "config.h"

namespace npc {

class Simulation;

// The definitions hash of a daemon config (definitions_hash.h over the files it loads).
std::string configDefinitionsHash(const DaemonConfig& config);

// Restores `sim` as config.snapshot.restore says. False with the reason in `errors` (the
// daemon must not start then). With restore_on_start and an empty snapshot directory the
// daemon starts fresh (true, nothing restored).
bool restoreFromSnapshot(const DaemonConfig& config, const std::string& definitions_hash,
                         Simulation& sim, std::vector<std::string>& errors);

}  // namespace npc
