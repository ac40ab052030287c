// Intention codec: an agent's influences and intention queue to npc.state.v1.IntentState.
// Decoding keeps the influences and turns running intentions into INTERRUPTED reports
// (AgentRecord::interrupted); queued ones are dropped (intent.proto).
#pragma once

#include "npc/state/v1/intent.pb.h"
#include "sim/sim_state_access.h"

namespace npc {

namespace pb = ::npc::state::v1;

void encodeIntent(const Agent& agent, const NameTable& actions, pb::IntentState& out);
void decodeIntent(const pb::IntentState& in, SimStateAccess& access, AgentRecord& out);

}  // namespace npc
