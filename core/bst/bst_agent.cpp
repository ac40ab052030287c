// The per-agent half of SelectionTreeLibrary: bind, signals, variables, evaluation,
// migration across reloads and the debug view. Loading lives in selection_tree_library.cpp.
#include <nlohmann/json.hpp>

#include "bst/selection_tree_library.h"

namespace npc {

void SelectionTreeLibrary::bind(BstAgentState& agent, SelectionTreeId tree_id) const {
  const SelectionTree* t = tree(tree_id);
  agent.generation = generation_;
  agent.tree = t ? tree_id : SelectionTreeId::kNone;
  agent.values = t ? t->defaults : VariableSet{};
  agent.leaf = BstNodeIndex::kNone;
  agent.dirty = true;
}

bool SelectionTreeLibrary::applySignal(BstAgentState& agent, SignalId signal) const {
  prepare(agent);
  const SelectionTree* t = tree(agent.tree);
  if (!t || raw(signal) >= t->signal_index.size()) return false;
  const SignalRange range = t->signal_index[raw(signal)];
  if (range.count == 0) return false;
  const SignalAssignment* a = t->assignments.data() + range.first;
  for (const SignalAssignment* end = a + range.count; a != end; ++a) {
    const bool value = evaluateCondition(t->code.data(), a->value, agent.values);
    agent.dirty |= agent.values.set(a->variable, value);
  }
  return true;
}

bool SelectionTreeLibrary::setVariable(BstAgentState& agent, SelectionVariableId variable,
                                       bool value) const {
  prepare(agent);
  const SelectionTree* t = tree(agent.tree);
  const int index = t ? t->variableIndex(variable) : -1;
  if (index < 0) return false;
  agent.dirty |= agent.values.set(static_cast<unsigned>(index), value);
  return true;
}

Status SelectionTreeLibrary::setVariable(BstAgentState& agent, std::string_view name,
                                         bool value) const {
  prepare(agent);
  const SelectionTree* t = tree(agent.tree);
  if (!t) {
    return {StatusCode::kFailedPrecondition,
            "the agent has no selection tree, so no variable \"" + std::string(name) + "\""};
  }
  if (!setVariable(agent, findVariable(name), value)) {
    return {StatusCode::kNotFound, "selection tree \"" + t->name + "\" has no variable \"" +
                                       std::string(name) + "\""};
  }
  return Status::ok();
}

std::optional<bool> SelectionTreeLibrary::variable(const BstAgentState& agent,
                                                   SelectionVariableId variable) const {
  BstAgentState current = agent;
  prepare(current);
  const SelectionTree* t = tree(current.tree);
  const int index = t ? t->variableIndex(variable) : -1;
  if (index < 0) return std::nullopt;
  return current.values.get(static_cast<unsigned>(index));
}

BehaviorSelection SelectionTreeLibrary::evaluateChanged(BstAgentState& agent) const {
  BehaviorSelection result;
  result.previous = agent.behavior;
  agent.dirty = false;
  const SelectionTree* t = tree(agent.tree);
  if (!t) {
    agent.leaf = BstNodeIndex::kNone;
    agent.behavior = BehaviorId::kNone;
  } else {
    const BstNodeIndex leaf = t->select(agent.values, agent.leaf);
    // State machines read the current leaf, so a new leaf can make the next evaluation
    // differ even with the same values (CryEngine moves one step per update). Stay dirty
    // until selecting again from the new leaf gives the same leaf.
    if (t->has_state_machines && leaf != agent.leaf) {
      agent.dirty = t->select(agent.values, leaf) != leaf;
    }
    agent.leaf = leaf;
    agent.behavior = leaf == BstNodeIndex::kNone ? BehaviorId::kNone : t->nodes[raw(leaf)].behavior;
  }
  result.current = agent.behavior;
  result.changed = result.previous != result.current;
  return result;
}

void SelectionTreeLibrary::migrate(BstAgentState& agent) const {
  if (agent.generation > generation_) {  // not from this library: start over
    bind(agent, SelectionTreeId::kNone);
    return;
  }
  for (; agent.generation < generation_; ++agent.generation) {
    if (agent.tree == SelectionTreeId::kNone) continue;
    const SetRemap& remap = remaps_[agent.generation];
    const TreeRemap* r = raw(agent.tree) < remap.size() ? &remap[raw(agent.tree)] : nullptr;
    if (!r || r->to == SelectionTreeId::kNone) {
      agent.tree = SelectionTreeId::kNone;
      agent.values = VariableSet{};
      agent.leaf = BstNodeIndex::kNone;
      continue;
    }
    VariableSet values = r->defaults;
    for (size_t i = 0; i < r->variables.size(); ++i) {
      if (r->variables[i] != 0xff) values.set(r->variables[i], agent.values.get(static_cast<unsigned>(i)));
    }
    agent.values = values;
    agent.tree = r->to;
    const auto leaf = raw(agent.leaf);
    agent.leaf = leaf < r->leaves.size() ? static_cast<BstNodeIndex>(r->leaves[leaf])
                                         : BstNodeIndex::kNone;
  }
  agent.dirty = true;
}

nlohmann::json SelectionTreeLibrary::describe(const BstAgentState& state) const {
  BstAgentState agent = state;
  prepare(agent);
  const SelectionTree* t = tree(agent.tree);
  nlohmann::json j;
  j["tree"] = t ? nlohmann::json(t->name) : nlohmann::json(nullptr);
  j["behavior"] = std::string(behaviorName(agent.behavior));
  j["evaluated"] = !agent.dirty;
  nlohmann::json variables = nlohmann::json::object();
  nlohmann::json path = nlohmann::json::array();
  j["leaf"] = nullptr;
  if (t) {
    for (size_t i = 0; i < t->variable_names.size(); ++i) {
      variables[t->variable_names[i]] = agent.values.get(static_cast<unsigned>(i));
    }
    for (uint16_t n : t->pathTo(agent.leaf)) {
      const BstNodeInfo& info = t->info[n];
      nlohmann::json step;
      step["node"] = info.name;
      step["type"] = toString(t->nodes[n].kind);
      if (!info.condition.empty()) step["condition"] = info.condition;
      if (t->nodes[n].kind == BstNodeKind::kStateMachine) {
        step["state"] = t->state_names[t->nodes[n].first + t->stateFor(n, agent.leaf)];
      }
      if (t->nodes[n].kind == BstNodeKind::kLeaf) {
        step["behavior"] = std::string(behaviorName(t->nodes[n].behavior));
      }
      step["at"] = info.at;
      path.push_back(std::move(step));
    }
    if (agent.leaf != BstNodeIndex::kNone) j["leaf"] = t->info[raw(agent.leaf)].name;
  }
  j["variables"] = std::move(variables);
  j["path"] = std::move(path);
  return j;
}

}  // namespace npc
