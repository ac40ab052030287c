#include "bst_codec.h"

namespace npc {

void encodeBst(const BstAgentState& s, uint8_t behavior_def, std::string_view behavior_name,
               pb::BstState& out) {
  for (uint64_t word : s.values.words) out.add_variables(word);
  out.set_tree(raw(s.tree));
  out.set_behavior(raw(s.behavior));
  out.set_leaf(raw(s.leaf));
  out.set_dirty(s.dirty);
  out.set_behavior_name(std::string(behavior_name));
  out.set_behavior_def(behavior_def);
}

BstAgentState decodeBst(const pb::BstState& in, const SelectionTreeLibrary& trees) {
  BstAgentState s;
  for (int i = 0; i < in.variables_size() && i < 2; ++i) s.values.words[i] = in.variables(i);
  s.generation = trees.generation();
  s.tree = static_cast<SelectionTreeId>(in.tree());
  s.behavior = static_cast<BehaviorId>(in.behavior());
  s.leaf = static_cast<BstNodeIndex>(in.leaf());
  s.dirty = in.dirty();
  return s;
}

}  // namespace npc
