// MbtNode: the building block of a modular behavior tree (seed 002, "Implementing an MBT
// Node"), and the contexts nodes run in.
//
// A node object is configuration: created by the node factory when a tree file loads,
// filled by load() from its XML element, immutable afterwards and shared by every agent
// running the tree. Everything an agent changes lives in the agent's MbtInstance: its
// variables, timestamps, and the runtime data of the nodes it is currently in.
//
// Runtime data. A node that needs per-agent state derives from MbtNodeT<RuntimeData>:
//   class MyNode : public MbtNodeT<MyNode::Data> { struct Data { int shots = 0; }; ... };
// The data object is constructed when the agent enters the node (first tick) and destroyed
// when it leaves it (finished or terminated), in a block from the library's bucket
// allocator; data(ctx) reaches it while the node runs. A node is "running for an agent"
// exactly while that block exists (isActive).
//
// Life of a node for one agent (driven by tick / terminate, which nodes never override):
//   tick:       not active → enter: construct data, log _startLog, onInitialize()
//               update() → Running: stay; Success/Failure: leave: terminate active
//               children, onTerminate(), destroy data, log _successLog/_failureLog
//   terminate:  active → terminate active children, onTerminate(), destroy data (no log)
//   sendEvent:  active → handleEvent(), then the same event to every active child
// So composites and decorators never need to terminate their children themselves.
//
// Child memory slots. Nodes that can be active at the same time for one agent get distinct
// slots in the instance's slot table; exclusive siblings (children of a Sequence, Selector,
// Priority, StateMachine) share them. A node whose children run at the same time (Parallel)
// must return true from childrenRunConcurrently(), or their data would collide (asserted).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <string_view>

#include "mbt/mbt_types.h"

namespace npc {

class MbtHost;
class MbtInstance;
class MbtLibrary;
class MbtLoadContext;
class MbtNode;
class MbtTree;
class MbtXmlElement;

// Nodes that finished during one tick, for the root-finished message (a ring: the last
// kCapacity are kept).
struct MbtTickTrace {
  static constexpr size_t kCapacity = 12;
  std::array<uint16_t, kCapacity> nodes{};
  uint32_t count = 0;
  void record(uint16_t node) { nodes[count++ % kCapacity] = node; }
};

// What a node sees while it runs for one agent (CryEngine's UpdateContext / EventContext).
struct MbtWorkspace;

struct MbtContext {
  MbtInstance& instance;
  MbtHost& host;
  const MbtTree& tree;
  MbtLibrary& library;
  MbtWorkspace& workspace;         // the ticking thread's allocator and scratch
  double now_s = 0.0;              // host time, read once per tick / event
  MbtTickTrace* trace = nullptr;   // nullptr outside tick()
  const struct MbtEvent* event = nullptr;  // the signal being handled (handleEvent only)
};

class MbtNode {
 public:
  MbtNode() = default;
  MbtNode(const MbtNode&) = delete;
  MbtNode& operator=(const MbtNode&) = delete;
  virtual ~MbtNode();

  // --- loading (once, before the tree is shared) ---------------------------------------
  // Reads the node's attributes and children. Report problems through `ctx` / `xml` (they
  // carry file, line, node type and tree) and return false on an error. Attributes the
  // node never reads produce a located "unknown attribute" warning; child elements it never
  // loads are an error. The reserved _startLog/_successLog/_failureLog are read for it.
  virtual bool load(MbtXmlElement& xml, MbtLoadContext& ctx) { return true; }
  // True when several children may be running at once (Parallel): they get separate slots.
  virtual bool childrenRunConcurrently() const { return false; }
  // True when ticking it reaches what only the tick thread may touch (the agent's planners:
  // <Plan>, <ExecutePlan>). Trees holding such a node tick on the tick thread
  // (MbtInstance::needsTickThread); the rest may tick on the pool's workers. A node type
  // that reaches beyond its MbtHost's calls, the group scopes of its own agent's group and
  // the library's Lua state (MbtLuaRuntime::run locks it) must say true.
  virtual bool needsTickThread() const { return false; }

  // --- drivers (what parents and the instance call) -------------------------------------
  MbtStatus tick(MbtContext& ctx) const;
  void terminate(MbtContext& ctx) const;
  void sendEvent(MbtContext& ctx, SignalId event) const;
  bool isActive(const MbtContext& ctx) const;

  // --- debug ----------------------------------------------------------------------------
  // Custom text for the debug view (GetDebugTextForVisualizer), e.g. time left on a
  // Timeout. Called only while the node is active.
  virtual void debugText(const MbtContext& ctx, std::string& out) const {}
  // Static text this node logs as kMessage (<Log message>, <Bubble message>).
  virtual std::string_view logMessage() const { return {}; }

  // --- configuration --------------------------------------------------------------------
  MbtNodeIndex index() const { return static_cast<MbtNodeIndex>(index_); }
  uint32_t line() const { return line_; }
  std::string_view type() const { return type_; }   // tag as written ("LimitConcurrentUsers")
  size_t childCount() const { return child_count_; }
  const MbtNode& child(size_t i) const { return *children_[i]; }
  uint16_t slot() const { return slot_; }
  // _startLog / _successLog / _failureLog text for kStart / kSuccess / kFailure ("" if none).
  std::string_view logText(MbtLogKind kind) const;
  size_t runtimeBlockBytes() const;   // bytes its runtime data occupies per agent

  // Runtime data hooks, implemented by MbtNodeT.
  virtual size_t runtimeBytes() const { return 0; }
  virtual void constructRuntime(void* block) const {}
  virtual void destroyRuntime(void* block) const {}
  // A snapshot put this node back in the running set with its data (MbtInstance::restoreRun):
  // claim again what entering it had claimed outside the agent (a group scope's place).
  virtual void onRestored(MbtContext& ctx) const {}

 protected:
  // Called on entry, before the first update().
  virtual void onInitialize(MbtContext& ctx) const {}
  // Does the node's work for this tick.
  virtual MbtStatus update(MbtContext& ctx) const = 0;
  // Called when the node is left, finished or interrupted, after its children were
  // terminated and before its runtime data is destroyed.
  virtual void onTerminate(MbtContext& ctx) const {}
  // An event reached this active node (before its active children).
  virtual void handleEvent(MbtContext& ctx, SignalId event) const {}

  void* runtimeBlock(const MbtContext& ctx) const;

 private:
  friend class MbtTreeBuilder;
  friend class MbtLoadContext;
  void leave(MbtContext& ctx) const;

  uint16_t index_ = 0;
  uint16_t slot_ = 0;
  uint16_t child_count_ = 0;
  uint32_t line_ = 0;
  std::string_view type_;
  const MbtNode* const* children_ = nullptr;
  std::unique_ptr<std::array<std::string, 3>> logs_;  // _startLog, _successLog, _failureLog
};

// Base for nodes with per-agent runtime data (the seed's `struct RuntimeData`).
template <class RuntimeDataT>
class MbtNodeT : public MbtNode {
 public:
  using RuntimeData = RuntimeDataT;
  static_assert(alignof(RuntimeData) <= 16, "runtime data is 16-byte aligned at most");
  // Snapshots copy it as bytes (MbtInstance::captureRun): plain data, no pointers to own.
  static_assert(std::is_trivially_copyable_v<RuntimeData>, "runtime data is plain data");

  size_t runtimeBytes() const override { return sizeof(RuntimeData); }
  void constructRuntime(void* block) const override { new (block) RuntimeData(); }
  void destroyRuntime(void* block) const override {
    static_cast<RuntimeData*>(block)->~RuntimeData();
  }

 protected:
  // The agent's data of this node; only while the node is active.
  RuntimeData& data(const MbtContext& ctx) const {
    return *static_cast<RuntimeData*>(runtimeBlock(ctx));
  }
};

}  // namespace npc
