// SelectionTreeLibrary: every behavior selection tree the daemon knows, plus the per-agent
// operations on them (bind, signals, variables, evaluation, debug view). Owned by the tick
// thread; nothing here is synchronised.
//
// Loading. loadDirectory() reads every *.xml under a directory (recursively, in sorted path
// order): files rooted at <SelectionTrees>, <SelectionTree> or <Blocks>. The whole set is
// built and validated first; only when it has no error is it swapped in (generation()
// increments). Any error leaves the previous set in place, so a bad file never replaces a
// good load. All errors and warnings come back in the report as "file:line: message".
//
// Reload. reload() re-reads the last directory; reloadIfChanged() does so only when an .xml
// file under it was added, removed or modified (poll it at a slow rate, not per tick: it
// walks the directory). After a successful reload every agent is migrated lazily on its next
// call (or eagerly with migrate()): same tree by name, variable values kept where the name
// still exists (new variables take their defaults), current behavior kept, the current leaf
// kept where the same node path exists (so state machines keep their state), and the agent
// is re-evaluated. Agents may skip any number of reloads (e.g. while hibernating): each
// reload keeps a small remap table (about 130 bytes + 2 bytes per node per tree).
//
// Ids. SignalId, SelectionVariableId and BehaviorId are interned for the library's life and
// never change meaning; SelectionTreeId and node indices belong to one generation.
//
// Cost. evaluate() on an agent whose variables did not change since its last evaluation is
// a couple of compares (no tree walk); otherwise one walk of the tree (plus one more when a
// state machine tree changed leaf, to know whether the result is stable). No call below
// allocates, except loading, describe() and the string overload of setVariable().
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "base/source_dir.h"
#include "base/status.h"
#include "bst/bst_types.h"
#include "bst/load_options.h"
#include "bst/selection_tree.h"

namespace npc {

// An in-memory file (tests, embedded data). `name` is what diagnostics show.
using BstSourceFile = SourceFile;

struct BstLoadReport {
  std::vector<std::string> errors;    // non-empty = the load was refused
  std::vector<std::string> warnings;
  size_t files = 0;
  size_t trees = 0;
  bool ok() const { return errors.empty(); }
  // Errors then warnings, one per line.
  std::string text() const;
};

// One agent's selection state: embed it in the agent. 32 bytes, trivially copyable.
struct BstAgentState {
  VariableSet values;                               // by the tree's variable index
  uint32_t generation = 0;                          // library generation the indices refer to
  SelectionTreeId tree = SelectionTreeId::kNone;    // kNone: no tree ("No Behavior")
  BehaviorId behavior = BehaviorId::kNone;          // current behavior
  BstNodeIndex leaf = BstNodeIndex::kNone;          // leaf that selected it
  bool dirty = true;                                // values changed since the last evaluation
};

// Result of evaluate(): when `changed`, leave `previous` (its exit runs) then enter `current`.
struct BehaviorSelection {
  BehaviorId previous = BehaviorId::kNone;
  BehaviorId current = BehaviorId::kNone;
  bool changed = false;
};

class SelectionTreeLibrary {
 public:
  // Owns its signal names (tests, tools).
  SelectionTreeLibrary() { names_.signals = &own_signals_; }
  // Shares the daemon's signal names, so perception's and clients' SignalIds apply directly.
  explicit SelectionTreeLibrary(SignalNames& signals) { names_.signals = &signals; }
  SelectionTreeLibrary(const SelectionTreeLibrary&) = delete;
  SelectionTreeLibrary& operator=(const SelectionTreeLibrary&) = delete;

  // --- loading ------------------------------------------------------------------------
  // Loads every *.xml under `dir`. Remembers `dir` and `options` for reload().
  BstLoadReport loadDirectory(const std::string& dir, BstLoadOptions options = {});
  // Loads the given files as one set (same rules as a directory).
  BstLoadReport loadSources(const std::vector<BstSourceFile>& files,
                            const BstLoadOptions& options = {});
  // Reloads the last directory (error report if none was loaded).
  BstLoadReport reload();
  // Reloads when the directory's *.xml files changed since the last load attempt;
  // nullopt when nothing changed or no directory was loaded.
  std::optional<BstLoadReport> reloadIfChanged();
  // Number of successful loads so far (0 = nothing loaded).
  uint32_t generation() const { return generation_; }

  // --- names --------------------------------------------------------------------------
  // Tree by name (case-insensitive, as CryEngine); kNone when there is none.
  SelectionTreeId findTree(std::string_view name) const;
  const SelectionTree* tree(SelectionTreeId id) const;
  size_t treeCount() const { return trees_.size(); }
  // Signals the caller will send: intern once at start-up, keep the id.
  SignalId internSignal(std::string_view name);
  SignalId findSignal(std::string_view name) const;
  std::string_view signalName(SignalId id) const;
  // Variable names, for behaviors that call SetBehaviorVariable (case-insensitive).
  SelectionVariableId internVariable(std::string_view name);
  SelectionVariableId findVariable(std::string_view name) const;
  // Behaviors that leaves selected (after translation); "No Behavior" for kNone.
  BehaviorId findBehavior(std::string_view name) const;
  std::string_view behaviorName(BehaviorId id) const;
  size_t behaviorCount() const { return names_.behaviors.size(); }

  // --- agents -------------------------------------------------------------------------
  // Gives the agent a tree (kNone: none) with the tree's default values. Keeps its current
  // behavior, so the next evaluate() reports the change from it.
  void bind(BstAgentState& agent, SelectionTreeId tree) const;
  // Applies a signal through the tree's signal variables (file order, each value evaluated
  // against the values as updated so far). False when the tree does not handle it.
  bool applySignal(BstAgentState& agent, SignalId signal) const;
  // SetBehaviorVariable. False when the agent's tree does not declare the variable.
  bool setVariable(BstAgentState& agent, SelectionVariableId variable, bool value) const;
  // By name, for the API: kNotFound naming the variable and tree when unknown.
  Status setVariable(BstAgentState& agent, std::string_view name, bool value) const;
  // Current value; nullopt when the tree does not declare it.
  std::optional<bool> variable(const BstAgentState& agent, SelectionVariableId variable) const;
  // Re-evaluates when needed and reports the behavior change, if any.
  BehaviorSelection evaluate(BstAgentState& agent) const {
    if (agent.generation != generation_) [[unlikely]] migrate(agent);
    if (!agent.dirty) [[likely]] return {agent.behavior, agent.behavior, false};
    return evaluateChanged(agent);
  }
  // Brings an agent from an older generation to the current one (see "Reload" above).
  void migrate(BstAgentState& agent) const;
  // Debug view: tree, behavior ("No Behavior" when none), leaf, variables by name, and the
  // path of nodes from the root to the leaf with the conditions and machine states on it.
  nlohmann::json describe(const BstAgentState& agent) const;

 private:
  struct TreeRemap {
    SelectionTreeId to = SelectionTreeId::kNone;
    VariableSet defaults;             // of the new tree
    std::vector<uint8_t> variables;   // old index → new index, 0xff = gone
    std::vector<uint16_t> leaves;     // old node → new node, 0xffff = gone
  };
  using SetRemap = std::vector<TreeRemap>;  // by old SelectionTreeId

  BehaviorSelection evaluateChanged(BstAgentState& agent) const;
  void prepare(BstAgentState& agent) const {
    if (agent.generation != generation_) [[unlikely]] migrate(agent);
  }
  SetRemap remapTo(const std::vector<SelectionTree>& next) const;
  std::string directoryFingerprint() const;

  SignalNames own_signals_;
  BstNames names_;
  std::vector<SelectionTree> trees_;
  std::unordered_map<std::string, uint16_t> by_name_;  // lower-cased name → tree
  uint32_t generation_ = 0;
  std::vector<SetRemap> remaps_;  // remaps_[g]: generation g → g + 1

  std::string dir_;
  BstLoadOptions options_;
  std::string fingerprint_;  // of dir_ at the last load attempt
};

}  // namespace npc
