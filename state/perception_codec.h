// Perception codec: one agent's PerceptionState (sensors, tracks, sound targets,
// attention) to npc.state.v1.PerceptionState and back.
#pragma once

#include "npc/state/v1/perception.pb.h"
#include "perception/perception_state.h"

namespace npc {

namespace pb = ::npc::state::v1;

void encodePerception(const PerceptionState& s, pb::PerceptionState& out);
// Track entity handles are left null: SimStateAccess::finishRestore() finds them again.
// Lists longer than the fixed arrays keep their first entries.
void decodePerception(const pb::PerceptionState& in, PerceptionState& out);

}  // namespace npc
