// Ids, limits and small value types of the modular behavior tree (MBT) module.
// See core/mbt/README.md for the design.
//
// Names a tree refers to are interned once at load into tables the library keeps for its
// whole life: events and signals are the daemon's SignalId (world/signal_names.h), action,
// parameter and text names are ActionNameIds (world/ids.h) of the action NameTable shared
// with the simulation's output, group scopes are GroupScopeIds of MbtGroupScopes.
// Node indices belong to one loaded tree (MbtTree) and are only meaningful with it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "base/name_id.h"
#include "world/signal_names.h"

namespace npc {

// Result of ticking a node (CryEngine's BehaviorTree::Status).
enum class MbtStatus : uint8_t { kRunning, kSuccess, kFailure };

std::string_view toString(MbtStatus status);

// A node inside one tree: pre-order index, the root is 0.
enum class MbtNodeIndex : uint16_t { kNone = 0xffff };
inline constexpr uint16_t raw(MbtNodeIndex index) { return static_cast<uint16_t>(index); }

// A scope of <GroupScope> and <LimitConcurrentUsers>, interned in MbtGroupScopes.
using GroupScopeId = NameId<struct GroupScopeTag>;

// Lanes: agents' trees tick on the tick's pool one lane at a time, each lane's agents in
// row order, and an agent's lane is a function of its group key (MbtAgentView::group)
// alone. Group scopes are counted per lane (MbtGroupScopes), so agents that share a scope
// always meet it in the same order, whatever the number of threads.
inline constexpr uint32_t kMbtLanes = 64;
inline constexpr uint32_t mbtLaneOf(uint64_t group) {
  return static_cast<uint32_t>((group * 0x9E3779B97F4A7C15ull) >> 58);  // top 6 bits
}
static_assert(kMbtLanes == 64, "mbtLaneOf keeps 6 bits");

// Limits. Reported as located load errors when a file exceeds them.
inline constexpr size_t kMaxMbtNodes = 0xfffe;          // per tree
inline constexpr size_t kMaxMbtVariables = 128;         // per tree (one 128-bit set per agent)
inline constexpr size_t kMaxMbtTimestamps = 255;        // per tree
inline constexpr size_t kMaxMbtDepth = 128;             // nesting of nodes
inline constexpr size_t kMaxParallelChildren = 32;      // one bit each in a running mask
inline constexpr size_t kMaxCompositeChildren = 255;    // Sequence, Selector, Priority cases,
                                                        // StateMachine states
inline constexpr size_t kMaxMbtActionParams = 8;        // parameters of one action request
inline constexpr size_t kMbtLogHistory = 16;            // log entries kept per agent

// Who receives a signal a node sends (CryEngine's `filter` attribute of <Signal>).
enum class MbtSignalScope : uint8_t {
  kSelf,                  // "Sender" (default): the agent itself
  kGroup,                 // every agent of the sender's group, the sender included
  kGroupExcludingSender,  // every agent of the sender's group but the sender
};

std::string_view toString(MbtSignalScope scope);

enum class MbtLogKind : uint8_t {
  kStart,         // _startLog
  kSuccess,       // _successLog
  kFailure,       // _failureLog
  kMessage,       // <Log>, <Bubble log="1">, Lua print / entity:Log
  kBreakpoint,    // <Breakpoint>
  kError,         // a node failed for a reason worth reading (Lua error, no target, ...)
  kRootFinished,  // the root succeeded or failed (with the recently finished nodes)
  kReloaded,      // the tree was replaced by a reload
};

std::string_view toString(MbtLogKind kind);

}  // namespace npc
