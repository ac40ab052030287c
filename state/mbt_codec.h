// Modular behavior tree codec: one agent's tree runtime (variables, timestamps, stopped)
// to npc.state.v1.MbtState. Running nodes are not kept (mbt.proto).
#pragma once

#include "mbt/instance.h"
#include "npc/state/v1/mbt.pb.h"
#include "sim/sim_state_access.h"

namespace npc {

namespace pb = ::npc::state::v1;

// `runs`: the agent's behavior runs a tree. An instance left bound by a behavior that no
// longer runs it is not state (entering a tree binds it afresh).
void encodeMbt(const MbtInstance& instance, bool runs, pb::MbtState& out);
void decodeMbt(const pb::MbtState& in, AgentRecord& out);

}  // namespace npc
