// Modular behavior tree codec: one agent's tree runtime (variables, timestamps, stopped)
// to npc.state.v1.MbtState, with the running nodes' data for an exact restore (mbt.proto).
#pragma once

#include <optional>

#include "mbt/instance.h"
#include "npc/state/v1/mbt.pb.h"
#include "sim/sim_state_access.h"
#include "sim_state_copy.h"

namespace npc {

namespace pb = ::npc::state::v1;

// Nothing when the agent's behavior runs no tree (row.tree is kNone): an instance left
// bound by a behavior that no longer runs it is not state (entering a tree binds it afresh).
void encodeMbt(const AgentCopy& row, const SimStateCopy& copy, pb::MbtState& out);
void decodeMbt(const pb::MbtState& in, AgentRecord& out);
// An agent's Lua values (MbtInstance::saveLua); decodeLua gives nullopt when they are empty.
void encodeLua(const LuaEnvImage& in, pb::MbtLuaState& out);
std::optional<LuaEnvImage> decodeLua(const pb::MbtLuaState& in);
// The run's image (running nodes, stream, registers); nullopt when the state has none.
std::optional<MbtInstance::RunImage> decodeMbtRun(const pb::MbtState& in);

}  // namespace npc
