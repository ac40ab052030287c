#include "bst/selection_tree.h"

#include <algorithm>

namespace npc {

const char* toString(BstNodeKind kind) {
  switch (kind) {
    case BstNodeKind::kLeaf: return "Leaf";
    case BstNodeKind::kPriority: return "Priority";
    case BstNodeKind::kStateMachine: return "StateMachine";
  }
  return "?";
}

BstNodeIndex SelectionTree::select(const VariableSet& values, BstNodeIndex current_leaf) const {
  BstNodeIndex out = BstNodeIndex::kNone;
  if (nodes.empty() || !evaluate(0, values, current_leaf, out)) return BstNodeIndex::kNone;
  return out;
}

uint8_t SelectionTree::stateFor(uint16_t machine, BstNodeIndex leaf) const {
  if (!contains(machine, leaf)) return 0;
  const BstNode& m = nodes[machine];
  for (uint16_t s = 0; s < m.count; ++s) {
    if (contains(states[m.first + s].node, leaf)) return static_cast<uint8_t>(s);
  }
  return 0;
}

bool SelectionTree::evaluate(uint16_t index, const VariableSet& values, BstNodeIndex current_leaf,
                             BstNodeIndex& out) const {
  const BstNode& node = nodes[index];
  switch (node.kind) {
    case BstNodeKind::kLeaf:
      out = static_cast<BstNodeIndex>(index);
      return true;
    case BstNodeKind::kPriority: {
      const PriorityChild* child = children.data() + node.first;
      for (const PriorityChild* end = child + node.count; child != end; ++child) {
        if (evaluateCondition(code.data(), child->condition, values) &&
            evaluate(child->node, values, current_leaf, out)) {
          return true;
        }
      }
      return false;
    }
    case BstNodeKind::kStateMachine: {
      const MachineState* machine_states = states.data() + node.first;
      uint8_t state = stateFor(index, current_leaf);
      // CryEngine seeds the visited mask with the state before a reset (a slip); we seed it
      // with the state we start from, so a loop always stops on a state of the loop.
      uint32_t visited = uint32_t{1} << state;
      for (;;) {
        const MachineState& s = machine_states[state];
        const StateTransition* t = transitions.data() + s.first_transition;
        const StateTransition* end = t + s.transition_count;
        while (t != end && !evaluateCondition(code.data(), t->condition, values)) ++t;
        if (t == end) break;
        state = t->target;
        if (visited & (uint32_t{1} << state)) break;
        visited |= uint32_t{1} << state;
      }
      return evaluate(machine_states[state].node, values, current_leaf, out);
    }
  }
  return false;
}

std::vector<uint16_t> SelectionTree::pathTo(BstNodeIndex node) const {
  std::vector<uint16_t> path;
  if (node == BstNodeIndex::kNone || raw(node) >= nodes.size()) return path;
  for (uint16_t n = raw(node); n != 0xffff; n = nodes[n].parent) path.push_back(n);
  std::reverse(path.begin(), path.end());
  return path;
}

std::string SelectionTree::pathKey(uint16_t node) const {
  std::string key;
  for (uint16_t n : pathTo(static_cast<BstNodeIndex>(node))) {
    if (!key.empty()) key += '/';
    if (!info[n].state.empty()) key += "[" + info[n].state + "]/";
    key += info[n].name;
  }
  return key;
}

size_t SelectionTree::leafCount() const {
  return static_cast<size_t>(std::count_if(nodes.begin(), nodes.end(), [](const BstNode& n) {
    return n.kind == BstNodeKind::kLeaf;
  }));
}

}  // namespace npc
