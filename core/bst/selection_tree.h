// SelectionTree: one loaded behavior selection tree, immutable and shared by every agent
// (and every archetype) that uses it. Built by TreeBuilder; evaluated by select().
//
// Layout: nodes form a flat pre-order array (a node's descendants are the indices in
// (index, subtree_end)); children, states, transitions and compiled conditions live in
// their own flat arrays and are referenced by index ranges. Names, files and lines are cold
// data kept only for diagnostics and the debug view.
//
// Semantics (CryEngine 3.4, BT-REFERENCE.md §4):
//  - Leaf: selects itself.
//  - Priority: the first child, in file order, whose condition holds AND whose subtree
//    yields a leaf (backtracking otherwise). No child → no leaf.
//  - StateMachine: its current state is the state whose subtree holds the agent's current
//    leaf, or the first state when the leaf lies elsewhere. From there the first transition
//    (file order) whose condition holds is followed, repeatedly, until none fires or a state
//    repeats; then the state's single child is evaluated. Because the state is derived from
//    the current leaf, an agent needs no per-machine storage.
#pragma once

#include <string>
#include <vector>

#include "bst/bst_types.h"
#include "bst/condition.h"

namespace npc {

enum class BstNodeKind : uint8_t { kLeaf, kPriority, kStateMachine };

struct BstNode {
  BstNodeKind kind = BstNodeKind::kLeaf;
  uint16_t parent = 0xffff;      // 0xffff for the root
  uint16_t subtree_end = 0;      // one past the last descendant
  uint32_t first = 0;            // Priority: into children; StateMachine: into states
  uint16_t count = 0;
  BehaviorId behavior = BehaviorId::kNone;  // leaves: the translated behavior
};

struct PriorityChild {
  uint16_t node = 0;
  CompiledCondition condition;  // count 0 = no condition (true)
};

struct MachineState {
  uint16_t node = 0;  // the state's single child node
  uint32_t first_transition = 0;
  uint8_t transition_count = 0;
};

struct StateTransition {
  uint8_t target = 0;  // index among the machine's states
  CompiledCondition condition;
};

// The assignments one signal makes, in file order.
struct SignalRange {
  uint32_t first = 0;
  uint16_t count = 0;
};

struct SignalAssignment {
  uint8_t variable = 0;
  CompiledCondition value;  // evaluated against the values as updated so far
};

// Cold per-node data for diagnostics and the debug view.
struct BstNodeInfo {
  std::string name;
  std::string condition;  // source text of the condition that guards it ("" = none)
  std::string state;      // for the child of a machine state: that state's name
  std::string at;         // "file:line"
};

struct SelectionTree {
  // --- hot: read by every evaluation --------------------------------------------------
  std::vector<BstNode> nodes;               // nodes[0] is the root
  std::vector<PriorityChild> children;
  std::vector<MachineState> states;
  std::vector<StateTransition> transitions;
  std::vector<ConditionInstr> code;         // all compiled conditions of this tree
  VariableSet defaults;
  std::vector<SignalRange> signal_index;    // by SignalId; ids past the end: not handled
  std::vector<SignalAssignment> assignments;
  std::vector<uint8_t> variable_index;      // by SelectionVariableId; 0xff = not declared
  bool has_state_machines = false;

  // --- cold ---------------------------------------------------------------------------
  std::string name;
  std::string type;                          // "BehaviorSelectionTree", ...
  std::string at;                            // "file:line" of <SelectionTree>
  std::vector<std::string> variable_names;   // declared spelling, by variable index
  std::vector<SelectionVariableId> variable_ids;
  std::vector<BstNodeInfo> info;             // by node index
  std::vector<std::string> state_names;      // parallel to `states`

  // The leaf selected for `values`, given the agent's current leaf (which fixes the states
  // of the machines above it). BstNodeIndex::kNone when no leaf matches. Allocates nothing.
  BstNodeIndex select(const VariableSet& values, BstNodeIndex current_leaf) const;

  // Index of the state of machine `machine` that holds `leaf`, or 0 when `leaf` is not below
  // that machine (the machine's state for an agent whose current leaf is `leaf`).
  uint8_t stateFor(uint16_t machine, BstNodeIndex leaf) const;
  bool contains(uint16_t node, BstNodeIndex leaf) const {
    const auto l = raw(leaf);
    return leaf != BstNodeIndex::kNone && l >= node && l < nodes[node].subtree_end;
  }
  // Root-to-node path (node indices), empty for kNone.
  std::vector<uint16_t> pathTo(BstNodeIndex node) const;
  // "Root/Combat/Attack" with "[State]" steps for machine states: identifies a node across
  // reloads.
  std::string pathKey(uint16_t node) const;
  int variableIndex(SelectionVariableId id) const {
    const auto i = raw(id);
    return i < variable_index.size() && variable_index[i] != 0xff ? variable_index[i] : -1;
  }
  size_t leafCount() const;

 private:
  bool evaluate(uint16_t node, const VariableSet& values, BstNodeIndex current_leaf,
                BstNodeIndex& out) const;
};

const char* toString(BstNodeKind kind);

}  // namespace npc
