// MbtTree: one loaded behavior tree file, the immutable template every agent running the
// tree shares (CryEngine's BehaviorTreeTemplate).
//
// Holds the node objects in a flat pre-order array (root = index 0) with each node's
// children as a contiguous run of pointers, the declared variables with their defaults,
// the signal variables, the timestamps, and all compiled conditions in one code array.
// Nothing in it changes after the builder finished, except the library's count of
// instances still bound to it (which decides when a tree replaced by a reload is freed).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bst/bst_types.h"   // VariableSet
#include "bst/condition.h"   // CompiledCondition, ConditionInstr, evaluateCondition
#include "mbt/mbt_types.h"
#include "mbt/node.h"

namespace npc {

struct MbtSignalAssignment {
  SignalId signal = SignalId::kNone;
  uint8_t variable = 0;
  CompiledCondition value;  // evaluated against the values as updated so far
};

struct MbtTimestampDef {
  std::string name;
  SignalId set_on = SignalId::kNone;      // kNone: only set by code
  uint8_t exclusive_to = 0xff;            // timestamp invalidated when this one is set
  uint32_t line = 0;
};

// What happens when the root node succeeds or fails.
enum class MbtRootFinish : uint8_t {
  kReboot,  // log it and start the tree again on the next tick (the seed, the default)
  kStop,    // log it and stop ticking until restart() or a reload (Lumberyard's code)
};

class MbtTree {
 public:
  MbtTree() = default;
  MbtTree(const MbtTree&) = delete;
  MbtTree& operator=(const MbtTree&) = delete;

  const std::string& name() const { return name_; }   // file stem ("SDK_Grunt_02")
  const std::string& file() const { return file_; }   // as in diagnostics
  const std::string& source() const { return source_; }  // file text (reload reuse check)

  const MbtNode& root() const { return *nodes_[0]; }
  const MbtNode& node(size_t index) const { return *nodes_[index]; }
  size_t nodeCount() const { return nodes_.size(); }
  // Slots in each instance's slot table (the most nodes that can run at once).
  uint16_t slotCount() const { return slot_count_; }
  MbtRootFinish rootFinish() const { return root_finish_; }
  // Some node needs the tick thread (MbtNode::needsTickThread).
  bool needsTickThread() const { return needs_tick_thread_; }

  // Variables, by index [Limit: < kMaxMbtVariables].
  size_t variableCount() const { return variable_names_.size(); }
  const std::string& variableName(size_t index) const { return variable_names_[index]; }
  const VariableSet& variableDefaults() const { return defaults_; }
  // Index of a declared variable (case-sensitive), or -1.
  int variableIndex(std::string_view name) const;
  bool evaluate(CompiledCondition condition, const VariableSet& values) const {
    return evaluateCondition(code_.data(), condition, values);
  }
  // Assignments the signal variables make for `signal`, in file order.
  std::span<const MbtSignalAssignment> assignments(SignalId signal) const;

  std::span<const MbtTimestampDef> timestamps() const { return timestamps_; }
  int timestampIndex(std::string_view name) const;

  // Bytes of the node configuration, shared by all agents (for the debug view).
  size_t sharedBytes() const { return shared_bytes_; }

 private:
  friend class MbtLoadContext;
  friend class MbtTreeBuilder;
  friend class MbtLibrary;
  friend class MbtInstance;

  std::string name_;
  std::string file_;
  std::string source_;
  std::vector<std::unique_ptr<MbtNode>> nodes_;
  std::vector<const MbtNode*> children_;  // each node's children are one contiguous run
  uint16_t slot_count_ = 0;
  MbtRootFinish root_finish_ = MbtRootFinish::kReboot;
  bool needs_tick_thread_ = false;
  std::vector<std::string> variable_names_;
  VariableSet defaults_;
  std::vector<ConditionInstr> code_;
  std::vector<MbtSignalAssignment> assignments_;  // sorted by signal, stable (file order)
  std::vector<MbtTimestampDef> timestamps_;
  size_t shared_bytes_ = 0;
  mutable uint32_t instances_ = 0;  // instances bound to this tree (library bookkeeping)
  bool retired_ = false;            // replaced by a reload; freed when instances_ == 0
};

}  // namespace npc
