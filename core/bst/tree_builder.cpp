#include "bst/tree_builder.h"

#include <algorithm>
#include <optional>

#include "base/did_you_mean.h"

namespace npc {
namespace {

constexpr uint16_t kNoNode = 0xffff;

std::string quoted(std::string_view text) { return "\"" + std::string(text) + "\""; }
std::string tagOf(const XmlItem& item) { return "<" + std::string(item.node.name()) + ">"; }

bool hasElementChildren(pugi::xml_node node) {
  for (pugi::xml_node c = node.first_child(); c; c = c.next_sibling()) {
    if (c.type() == pugi::node_element) return true;
  }
  return false;
}

}  // namespace

TreeBuilder::TreeBuilder(const TreeSource& source, const BlockTable& blocks, BstNames& names,
                         const BstLoadOptions& options, Diagnostics& diagnostics)
    : source_(source),
      names_(names),
      options_(options),
      diagnostics_(diagnostics),
      expander_(blocks, diagnostics) {}

SelectionTree TreeBuilder::build() {
  tree_.name = source_.name;
  tree_.type = source_.type;
  tree_.at = where(source_.element.where);

  std::vector<XmlItem> sections, variables, signals, translations;
  std::optional<XmlItem> root;
  expander_.children(source_.element, source_.scope, sections);
  for (const XmlItem& item : sections) {
    if (tagIs(item.node, "Blocks")) continue;  // registered while discovering files
    if (tagIs(item.node, "Variables")) {
      variables.push_back(item);
    } else if (tagIs(item.node, "SignalVariables")) {
      signals.push_back(item);
    } else if (tagIs(item.node, "LeafTranslations")) {
      translations.push_back(item);
    } else if (root) {
      diagnostics_.error(item.where, "unexpected " + tagOf(item) + ": selection tree " +
                                         quoted(tree_.name) + " already has a root node (" +
                                         tagOf(*root) + " at " + where(root->where) + ")");
      continue;
    } else {
      root = item;
      continue;
    }
    checkAttributes(item, {}, diagnostics_);
  }

  // Variables first: conditions and signals refer to them wherever they are written.
  for (const XmlItem& section : variables) loadVariables(section);
  if (declared_ > kMaxSelectionVariables) {
    diagnostics_.error(source_.element.where,
                       "selection tree " + quoted(tree_.name) + " declares " +
                           std::to_string(declared_) + " variables; at most " +
                           std::to_string(kMaxSelectionVariables) + " are supported");
  }
  tree_.variable_index.assign(names_.variables.size(), 0xff);
  for (size_t i = 0; i < tree_.variable_ids.size(); ++i) {
    tree_.variable_index[raw(tree_.variable_ids[i])] = static_cast<uint8_t>(i);
  }

  if (!root) {
    diagnostics_.error(source_.element.where,
                       "selection tree " + quoted(tree_.name) + " has no root node");
  } else {
    if (pugi::xml_attribute c = root->node.attribute("condition")) {
      diagnostics_.warning(locate(*root, c), "condition on the root node is ignored");
    }
    buildNode(*root, kNoNode, 0, "", "");
  }

  std::vector<std::pair<SignalId, SignalAssignment>> assignments;
  for (const XmlItem& section : signals) loadSignals(section, assignments);
  std::stable_sort(assignments.begin(), assignments.end(),
                   [](const auto& a, const auto& b) { return raw(a.first) < raw(b.first); });
  tree_.signal_index.assign(names_.signals->size(), SignalRange{});
  for (const auto& [signal, assignment] : assignments) {
    SignalRange& range = tree_.signal_index[raw(signal)];
    if (range.count == 0) range.first = static_cast<uint32_t>(tree_.assignments.size());
    ++range.count;
    tree_.assignments.push_back(assignment);
  }

  for (const XmlItem& section : translations) loadTranslations(section);
  assignBehaviors();
  for (const BstNode& node : tree_.nodes) {
    tree_.has_state_machines |= node.kind == BstNodeKind::kStateMachine;
  }
  return std::move(tree_);
}

const char* TreeBuilder::required(const XmlItem& item, const char* attribute) {
  pugi::xml_attribute a = item.node.attribute(attribute);
  if (a && *a.value() != '\0') return a.value();
  diagnostics_.error(item.where, tagOf(item) + " without a " + quoted(attribute));
  return nullptr;
}

int TreeBuilder::resolve(std::string_view name) const {
  auto it = variables_.find(toLower(name));
  return it == variables_.end() ? -1 : it->second.first;
}

bool TreeBuilder::compile(const XmlItem& item, pugi::xml_attribute attribute,
                          const std::string& what, CompiledCondition& out) {
  const Location at = locate(item, attribute);
  const std::string text = attribute.value();
  std::string error;
  std::vector<std::string> warnings;
  auto resolver = [this](std::string_view name) { return resolve(name); };
  auto hint = [this](std::string_view name) { return didYouMean(name, tree_.variable_names); };
  if (!compileCondition(text, resolver, tree_.code, out, error, warnings, hint)) {
    diagnostics_.error(at, what + " " + quoted(text) + ": " + error);
    return false;
  }
  for (const std::string& w : warnings) diagnostics_.warning(at, what + " " + quoted(text) + " " + w);
  return true;
}

void TreeBuilder::loadVariables(const XmlItem& section) {
  std::vector<XmlItem> items;
  expander_.children(section, source_.scope, items);
  for (const XmlItem& item : items) {
    if (!tagIs(item.node, "Variable")) {
      diagnostics_.error(item.where, "unexpected " + tagOf(item) +
                                         " in <Variables>; expected <Variable>");
      continue;
    }
    checkAttributes(item, {"name", "default"}, diagnostics_);
    const char* name = required(item, "name");
    if (!name) continue;
    bool value = false;
    if (pugi::xml_attribute d = item.node.attribute("default")) {
      if (equalsNoCase(d.value(), "true")) {
        value = true;
      } else if (!equalsNoCase(d.value(), "false")) {
        diagnostics_.error(locate(item, d), "variable " + quoted(name) +
                                                ": default must be \"true\" or \"false\", not " +
                                                quoted(d.value()));
        continue;
      }
    }
    const std::string lower = toLower(name);
    if (auto it = variables_.find(lower); it != variables_.end()) {
      diagnostics_.error(item.where, "duplicate variable " + quoted(name) +
                                         " (first declared at " + it->second.second + ")");
      continue;
    }
    const size_t index = declared_++;
    if (index >= kMaxSelectionVariables) continue;  // reported once for the tree
    const SelectionVariableId id = names_.variables.intern(lower);
    if (id == SelectionVariableId::kNone) {
      diagnostics_.error(item.where, "too many distinct variable names");
      continue;
    }
    variables_.emplace(lower, std::make_pair(static_cast<int>(index), where(item.where)));
    tree_.variable_names.emplace_back(name);
    tree_.variable_ids.push_back(id);
    tree_.defaults.set(static_cast<unsigned>(index), value);
  }
}

void TreeBuilder::loadSignals(const XmlItem& section,
                              std::vector<std::pair<SignalId, SignalAssignment>>& out) {
  std::vector<XmlItem> items;
  expander_.children(section, source_.scope, items);
  for (const XmlItem& item : items) {
    if (!tagIs(item.node, "Signal")) {
      diagnostics_.error(item.where, "unexpected " + tagOf(item) +
                                         " in <SignalVariables>; expected <Signal>");
      continue;
    }
    checkAttributes(item, {"name", "variable", "value"}, diagnostics_);
    const char* name = required(item, "name");
    const char* variable = required(item, "variable");
    const char* value = required(item, "value");
    if (!name || !variable || !value) continue;
    const int index = resolve(variable);
    if (index < 0) {
      diagnostics_.error(locate(item, item.node.attribute("variable")),
                         "signal " + quoted(name) + " sets unknown variable " + quoted(variable) +
                             didYouMean(variable, tree_.variable_names));
      continue;
    }
    SignalAssignment assignment;
    assignment.variable = static_cast<uint8_t>(index);
    if (!compile(item, item.node.attribute("value"), "signal " + quoted(name) + " value",
                 assignment.value)) {
      continue;
    }
    const SignalId id = names_.signals->intern(name);
    if (id == SignalId::kNone) {
      diagnostics_.error(item.where, "too many distinct signal names");
      continue;
    }
    out.emplace_back(id, assignment);
  }
}

uint16_t TreeBuilder::buildNode(const XmlItem& item, uint16_t parent, size_t depth,
                                std::string condition, std::string state) {
  BstNodeKind kind;
  if (tagIs(item.node, "Leaf")) {
    kind = BstNodeKind::kLeaf;
  } else if (tagIs(item.node, "Priority")) {
    kind = BstNodeKind::kPriority;
  } else if (tagIs(item.node, "StateMachine")) {
    kind = BstNodeKind::kStateMachine;
  } else if (tagIs(item.node, "Sequence")) {
    diagnostics_.error(item.where, "<Sequence> is not supported (CryEngine 3.4 parses it but "
                                   "cannot evaluate it); use <Priority> or <StateMachine>");
    return kNoNode;
  } else {
    diagnostics_.error(item.where, "unknown node type " + tagOf(item) +
                                       "; expected <Priority>, <StateMachine> or <Leaf>" +
                                       didYouMean(item.node.name(), {"Priority", "StateMachine", "Leaf"}));
    return kNoNode;
  }
  if (depth >= kMaxTreeDepth) {
    diagnostics_.error(item.where, "nodes nest deeper than " + std::to_string(kMaxTreeDepth) +
                                       " levels");
    return kNoNode;
  }
  if (tree_.nodes.size() >= kNoNode - 1) {
    diagnostics_.error(item.where, "selection tree " + quoted(tree_.name) + " has too many nodes");
    return kNoNode;
  }
  checkAttributes(item, {"name", "condition"}, diagnostics_);
  const char* name = required(item, "name");

  const auto index = static_cast<uint16_t>(tree_.nodes.size());
  BstNode node;
  node.kind = kind;
  node.parent = parent;
  tree_.nodes.push_back(node);
  tree_.info.push_back({name ? name : "", std::move(condition), std::move(state), where(item.where)});
  node_at_.push_back(item.where);

  if (kind == BstNodeKind::kLeaf) {
    if (hasElementChildren(item.node)) {
      diagnostics_.error(item.where, "leaf " + quoted(tree_.info[index].name) +
                                         " must not have children");
    }
  } else if (kind == BstNodeKind::kPriority) {
    buildPriority(item, index, depth);
  } else {
    buildStateMachine(item, index, depth);
  }
  tree_.nodes[index].subtree_end = static_cast<uint16_t>(tree_.nodes.size());
  return index;
}

void TreeBuilder::buildPriority(const XmlItem& item, uint16_t index, size_t depth) {
  std::vector<XmlItem> items;
  expander_.children(item, source_.scope, items);
  std::vector<PriorityChild> children;
  for (const XmlItem& child : items) {
    PriorityChild entry;
    std::string text;
    if (pugi::xml_attribute c = child.node.attribute("condition")) {
      text = c.value();
      compile(child, c, "condition", entry.condition);
    }
    entry.node = buildNode(child, index, depth + 1, text, "");
    if (entry.node != kNoNode) children.push_back(entry);
  }
  if (!hasElementChildren(item.node)) {
    diagnostics_.warning(item.where, "Priority " + quoted(tree_.info[index].name) +
                                         " has no children and never selects a leaf");
  }
  tree_.nodes[index].first = static_cast<uint32_t>(tree_.children.size());
  tree_.nodes[index].count = static_cast<uint16_t>(children.size());
  tree_.children.insert(tree_.children.end(), children.begin(), children.end());
}

void TreeBuilder::buildStateMachine(const XmlItem& item, uint16_t index, size_t depth) {
  const std::string machine = tree_.info[index].name;
  std::vector<XmlItem> items;
  expander_.children(item, source_.scope, items);
  std::vector<std::pair<XmlItem, std::string>> declared;  // valid states, file order
  std::unordered_map<std::string, std::pair<size_t, std::string>> by_name;  // lower → (i, at)
  for (const XmlItem& s : items) {
    if (!tagIs(s.node, "State")) {
      diagnostics_.error(s.where, "unexpected " + tagOf(s) + " in <StateMachine>; expected <State>");
      continue;
    }
    checkAttributes(s, {"name"}, diagnostics_);
    const char* name = required(s, "name");
    if (!name) continue;
    auto [it, inserted] = by_name.emplace(toLower(name), std::make_pair(declared.size(), where(s.where)));
    if (!inserted) {
      diagnostics_.error(s.where, "duplicate state " + quoted(name) + " (first declared at " +
                                      it->second.second + ")");
      continue;
    }
    declared.emplace_back(s, name);
  }
  if (declared.empty()) {
    diagnostics_.error(item.where, "StateMachine " + quoted(machine) + " has no states");
  } else if (declared.size() > kMaxMachineStates) {
    diagnostics_.error(item.where, "StateMachine " + quoted(machine) + " has " +
                                       std::to_string(declared.size()) + " states; at most " +
                                       std::to_string(kMaxMachineStates) + " are supported");
    declared.resize(kMaxMachineStates);
  }

  std::vector<MachineState> states;
  for (const auto& [state_item, state_name] : declared) {
    std::vector<XmlItem> parts;
    expander_.children(state_item, source_.scope, parts);
    std::vector<StateTransition> transitions;
    uint16_t child = kNoNode;
    bool has_child = false;
    for (const XmlItem& part : parts) {
      if (tagIs(part.node, "Transition")) {
        checkAttributes(part, {"state", "condition"}, diagnostics_);
        const char* target = required(part, "state");
        pugi::xml_attribute condition = part.node.attribute("condition");
        if (!condition) required(part, "condition");
        StateTransition t;
        bool ok = target != nullptr;
        if (target) {
          auto it = by_name.find(toLower(target));
          if (it == by_name.end() || it->second.first >= declared.size()) {
            NameSuggester states(target);
            for (const auto& [declared_item, declared_name] : declared) states.consider(declared_name);
            diagnostics_.error(locate(part, part.node.attribute("state")),
                               "transition of state " + quoted(state_name) +
                                   " to unknown state " + quoted(target) + states.hint());
            ok = false;
          } else {
            t.target = static_cast<uint8_t>(it->second.first);
          }
        }
        ok = condition && compile(part, condition, "condition", t.condition) && ok;
        if (ok) transitions.push_back(t);
        continue;
      }
      if (has_child) {
        diagnostics_.error(part.where, "state " + quoted(state_name) +
                                           " has more than one child node");
        continue;
      }
      has_child = true;
      if (pugi::xml_attribute c = part.node.attribute("condition")) {
        diagnostics_.warning(locate(part, c), "condition on the child of state " +
                                                  quoted(state_name) +
                                                  " is ignored (use <Transition>)");
      }
      child = buildNode(part, index, depth + 1, "", state_name);
    }
    if (!has_child) {
      diagnostics_.error(state_item.where, "state " + quoted(state_name) + " has no child node");
    }
    if (transitions.size() > 255) {
      diagnostics_.error(state_item.where, "state " + quoted(state_name) +
                                               " has more than 255 transitions");
      transitions.resize(255);
    }
    MachineState ms;
    ms.node = child;
    ms.first_transition = static_cast<uint32_t>(tree_.transitions.size());
    ms.transition_count = static_cast<uint8_t>(transitions.size());
    tree_.transitions.insert(tree_.transitions.end(), transitions.begin(), transitions.end());
    states.push_back(ms);
    tree_.state_names.push_back(state_name);
  }
  tree_.nodes[index].first = static_cast<uint32_t>(tree_.states.size());
  tree_.nodes[index].count = static_cast<uint16_t>(states.size());
  tree_.states.insert(tree_.states.end(), states.begin(), states.end());
}

void TreeBuilder::loadTranslations(const XmlItem& section) {
  std::vector<XmlItem> items;
  expander_.children(section, source_.scope, items);
  for (const XmlItem& item : items) {
    if (!tagIs(item.node, "Map")) {
      diagnostics_.error(item.where, "unexpected " + tagOf(item) +
                                         " in <LeafTranslations>; expected <Map>");
      continue;
    }
    checkAttributes(item, {"node", "target"}, diagnostics_);
    const char* node = required(item, "node");
    const char* target = required(item, "target");
    if (!node || !target) continue;
    auto same = std::find_if(translations_.begin(), translations_.end(),
                             [&](const Translation& t) { return t.node == node; });
    if (same != translations_.end()) {
      diagnostics_.error(item.where, "duplicate translation for " + quoted(node) +
                                         " (first at " + where(same->at) + ")");
      continue;
    }
    Translation t;
    t.node = node;
    t.target = target;
    t.at = item.where;
    size_t start = 0;
    std::vector<std::string> parts;
    for (size_t colon; (colon = t.node.find(':', start)) != std::string::npos; start = colon + 1) {
      parts.push_back(t.node.substr(start, colon - start));
    }
    t.leaf = t.node.substr(start);
    if (t.leaf.empty() || std::any_of(parts.begin(), parts.end(), [](auto& p) { return p.empty(); })) {
      diagnostics_.error(item.where, "translation node " + quoted(node) + " has an empty part");
      continue;
    }
    t.ancestors = std::move(parts);
    translations_.push_back(std::move(t));
  }
}

void TreeBuilder::assignBehaviors() {
  for (uint16_t i = 0; i < tree_.nodes.size(); ++i) {
    if (tree_.nodes[i].kind != BstNodeKind::kLeaf) continue;
    const std::string& leaf = tree_.info[i].name;
    if (leaf.empty()) continue;  // already reported
    // A plain translation wins; otherwise the first qualified one (file order) whose
    // ancestors match the leaf's parents, nearest first (CryEngine's SelectionTranslator).
    Translation* chosen = nullptr;
    for (Translation& t : translations_) {
      if (t.ancestors.empty() && t.leaf == leaf) chosen = &t;
    }
    for (size_t k = 0; !chosen && k < translations_.size(); ++k) {
      Translation& t = translations_[k];
      if (t.ancestors.empty() || t.leaf != leaf) continue;
      uint16_t p = tree_.nodes[i].parent;
      size_t n = t.ancestors.size();
      while (n > 0 && p != kNoNode && tree_.info[p].name == t.ancestors[n - 1]) {
        --n;
        p = tree_.nodes[p].parent;
      }
      if (n == 0) chosen = &t;
    }
    const std::string& behavior = chosen ? chosen->target : leaf;
    if (chosen) chosen->used = true;
    if (options_.is_known_behavior && !options_.is_known_behavior(behavior)) {
      diagnostics_.error(node_at_[i],
                         chosen ? "leaf " + quoted(leaf) + " maps to " + quoted(behavior) +
                                      " (translation at " + where(chosen->at) +
                                      "), which is not a known behavior"
                                : "leaf " + quoted(leaf) +
                                      " is not a known behavior and has no translation");
    }
    const BehaviorId id = names_.behaviors.intern(behavior);
    if (id == BehaviorId::kNone) {
      diagnostics_.error(node_at_[i], "too many distinct behavior names");
      continue;
    }
    tree_.nodes[i].behavior = id;
  }
  for (const Translation& t : translations_) {
    if (!t.used) {
      diagnostics_.warning(t.at, "translation for " + quoted(t.node) + " is not used by any leaf of tree " +
                                     quoted(tree_.name));
    }
  }
}

}  // namespace npc
