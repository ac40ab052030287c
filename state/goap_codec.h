// GOAP codec: a planning agent's facts, blackboard and pacing memory to
// npc.state.v1.GoapState. Keys, tags and fact words are those of the same domains.
#pragma once

#include "npc/state/v1/goap.pb.h"
#include "sim/sim_state_access.h"

namespace npc {

namespace pb = ::npc::state::v1;

void encodeGoap(const PlannerMemory& memory, pb::GoapState& out);
PlannerMemory decodeGoap(const pb::GoapState& in);
// Squad memory (a perception group's blackboard and pacing) uses the same message.

}  // namespace npc
