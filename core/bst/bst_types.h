// Ids, limits and the variable bitset shared by the behavior selection tree (BST) module.
// See core/bst/README.md for the design.
//
// Every name a tree refers to is interned once at load into a table the library keeps for
// its whole life (signals, variables, behaviors), so these ids stay valid across reloads:
// a caller may resolve "OnEnemySeen" once at start-up and keep the SignalId forever.
// Indices *inside* one loaded tree (variable index, node index) are only valid for that
// tree; agents carry the library generation they refer to and are migrated on reload.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "world/signal_names.h"  // SignalId: signals are the daemon-wide vocabulary

namespace npc {

// Variables one tree may declare: an agent's values live in a fixed 128-bit set. A tree that
// declares more fails to load with a located error.
inline constexpr size_t kMaxSelectionVariables = 128;
// States one <StateMachine> may hold (CryEngine's own limit: a 32-bit visited mask).
inline constexpr size_t kMaxMachineStates = 32;
// Nesting depth of tree nodes (bounds the recursion of loading and evaluation).
inline constexpr size_t kMaxTreeDepth = 64;

// A selection tree of the currently loaded set. Changes meaning on reload: look trees up by
// name (SelectionTreeLibrary::findTree) after a reload instead of caching the id.
enum class SelectionTreeId : uint16_t { kNone = 0xffff };
// A behavior name (after leaf translation). Stable for the library's lifetime.
// kNone is "No Behavior": no tree, or no leaf of the tree matched.
enum class BehaviorId : uint16_t { kNone = 0xffff };
// A selection variable name (case-insensitive, as CryEngine's lower-case hash). Stable for
// the library's lifetime; each tree maps it to its own bit index.
enum class SelectionVariableId : uint16_t { kNone = 0xffff };
// A node inside one tree (pre-order index; a node's descendants follow it).
enum class BstNodeIndex : uint16_t { kNone = 0xffff };

inline constexpr std::string_view kNoBehaviorName = "No Behavior";

inline constexpr uint16_t raw(SelectionTreeId id) { return static_cast<uint16_t>(id); }
inline constexpr uint16_t raw(BehaviorId id) { return static_cast<uint16_t>(id); }
inline constexpr uint16_t raw(SelectionVariableId id) { return static_cast<uint16_t>(id); }
inline constexpr uint16_t raw(BstNodeIndex id) { return static_cast<uint16_t>(id); }

// The values of one agent's selection variables, indexed by the tree's variable index
// [Limit: index < kMaxSelectionVariables].
struct VariableSet {
  uint64_t words[2] = {0, 0};

  bool get(unsigned index) const { return (words[index >> 6] >> (index & 63)) & 1u; }
  // Sets a value; returns true when it actually changed.
  bool set(unsigned index, bool value) {
    const uint64_t mask = uint64_t{1} << (index & 63);
    uint64_t& word = words[index >> 6];
    const uint64_t before = word;
    word = value ? (word | mask) : (word & ~mask);
    return word != before;
  }
  friend bool operator==(const VariableSet&, const VariableSet&) = default;
};

}  // namespace npc
