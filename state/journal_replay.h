// Replaying the input journal: one record at a time, the commands it applied go to the
// simulation and it ticks once; the state checksum and output hash it comes to are compared
// with those the record holds. Used by a daemon catching up after a restore and by
// `npcd replay`.
#pragma once

#include <cstdint>

#include "base/status.h"
#include "npc/state/v1/journal.pb.h"

namespace npc {

class Simulation;
namespace pb = ::npc::state::v1;

struct ReplayedTick {
  uint64_t tick = 0;
  uint64_t state_checksum = 0;
  uint64_t output_hash = 0;
  bool matches = false;  // both equal the record's
};

// The record must be for the simulation's next tick; an error (nothing applied) when it is
// not or a command does not decode.
Status replayTick(Simulation& sim, const pb::JournalTick& record, ReplayedTick& out);

}  // namespace npc
