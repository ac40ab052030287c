// Intention codec: an agent's influences and intention queue to npc.state.v1.IntentState.
// Decoding keeps the influences and the running intentions (AgentRecord::interrupted, for
// a restore that reports them INTERRUPTED), and the whole queue for an exact one
// (intent.proto).
#pragma once

#include "npc/state/v1/intent.pb.h"
#include "name_list.h"
#include "sim/sim_state_access.h"
#include "sim_state_copy.h"

namespace npc {

namespace pb = ::npc::state::v1;

void encodeIntent(const AgentCopy& agent, NameList actions, pb::IntentState& out);
void decodeIntent(const pb::IntentState& in, SimStateAccess& access, AgentRecord& out);
// The exact parts (the whole queue, counters, recent outcomes); false when absent or of
// another size.
bool decodeIntentRun(const pb::IntentState& in, AgentRecord::Exact& out);

}  // namespace npc
