// Behavior selection tree codec: one agent's BstAgentState to npc.state.v1.BstState.
#pragma once

#include "bst/selection_tree_library.h"
#include "npc/state/v1/bst.pb.h"

namespace npc {

namespace pb = ::npc::state::v1;

// `behavior_name`: SelectionTreeLibrary::behaviorName(s.behavior), as copied for the snapshot.
void encodeBst(const BstAgentState& s, uint8_t behavior_def, std::string_view behavior_name,
               pb::BstState& out);
// The generation is the library's current one: indices are those of the same definitions.
BstAgentState decodeBst(const pb::BstState& in, const SelectionTreeLibrary& trees);

}  // namespace npc
