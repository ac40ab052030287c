// BehaviorPhase: step 5 of the tick (ARCHITECTURE.md "One tick"). An agent whose behavior
// names a modular behavior tree ticks it (its action nodes program intentions through
// SimMbtHost); any other idle agent's built-in behavior mode programs its next action.
// Agents on a reduced rate skip their off ticks; agents of a draining place wind down.
//
// Reads: the world and the places' states (frozen: nothing moves during the phase).
// Writes: each agent's own tree instance, behavior memory and intention queue; what trees
// reach across agents (intention numbering and events, signals, group scopes, the tree
// log, plans) is ordered so that the outcome does not depend on the thread count:
//   1. Every agent belongs to the lane of its group (mbtLaneOf), the lane's agents in row
//      order; the lanes are kept until rows move (DenseTable::layoutVersion).
//   2. The pool's workers take whole lanes. A lane's agents tick in row order with their
//      worker's host, which programs intentions under provisional ids and keeps events,
//      signals, log messages and errors in the worker's BehaviorOutbox. Group scopes are
//      counted per lane, so agents sharing one meet it in row order on one worker. Lua
//      runs one call at a time (MbtLuaRuntime), navmesh questions go to the worker's own
//      query (SimNavigation::treesFor). A tree that needs the tick thread (one that plans:
//      MbtInstance::needsTickThread) is only marked for step 3.
//   3. The tick thread walks the marked rows in row order: a pooled agent's new
//      intentions get their final ids (as many as it made, in the order it made them, as
//      a serial tick would number them) and its effects are passed on; a tick-thread
//      agent ticks there and then, as before.
// Thread: run() on the tick thread; step 2 on the pool (or the tick thread alone).
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "agent/agent.h"
#include "agent/archetype.h"
#include "agent/builtin_behaviors.h"
#include "hibernation/place_dispatcher.h"
#include "intent/decision_tree.h"
#include "mbt/host.h"
#include "mbt/mbt_types.h"
#include "perception/signals.h"
#include "sim/behavior_outbox.h"
#include "sim/tick_profile.h"
#include "world/world.h"

namespace npc {

class SimMbtHost;
class WorkerPool;

// True when the agent's current behavior runs a modular behavior tree (it then programs
// its own actions; the built-in modes leave it alone).
bool runsBehaviorTree(const Agent& agent, const ArchetypeSet& archetypes);

struct BehaviorPhaseContext {
  std::span<Agent> agents;                 // awake agents
  std::span<const uint8_t> runs;           // by agent row: 0 = off tick (empty: all run)
  const World& world;
  const PlaceDispatcher& places;           // a draining place's agents do not start anything
  const ArchetypeSet& archetypes;
  const BuiltinBehaviors& behaviors;
  SimMbtHost& trees;                       // the simulation as the tick thread's trees see it
  // Worker w's host, writing to outbox(w).
  std::span<const std::unique_ptr<SimMbtHost>> worker_trees;
  const TreeContext& intentions;           // where intentions are numbered and told
  TickProfile& profile;
  WorkerPool* pool = nullptr;              // null: the tick thread alone
  uint64_t rows_version = 0;               // the agents' DenseTable::layoutVersion
  uint64_t tick = 0;
  double now_s = 0.0;
  // A built-in behavior's action could not be programmed: tell the agent's owner.
  std::function<void(ClientId owner, EntityId agent, std::string text)> error;
  std::function<void(const SignalRequest&)> signal;  // a signal a tree sent
  std::function<void(const MbtLogMessage&)> log;     // a tree's message
};

class BehaviorPhase {
 public:
  // Outboxes for `workers` workers (kept; only grows). Call before run() with the pool's
  // size, then build each worker's host over outbox(w).
  void reserveWorkers(unsigned workers, const ActionRegistry& registry, size_t event_capacity);
  BehaviorOutbox& outbox(unsigned worker) { return *outboxes_[worker]; }

  void run(const BehaviorPhaseContext& ctx);

 private:
  static constexpr uint32_t kTickThread = 0xffffffffu;  // marks_: ticks in step 3

  void assignLanes(const BehaviorPhaseContext& ctx);
  void runLane(const BehaviorPhaseContext& ctx, uint32_t lane, unsigned worker);
  void merge(const BehaviorPhaseContext& ctx);
  void passOn(const BehaviorPhaseContext& ctx, Agent& agent, BehaviorOutbox& out,
              const AgentEffects& effects);

  std::array<std::vector<uint32_t>, kMbtLanes> lanes_;  // rows, ascending
  uint64_t lanes_version_ = ~uint64_t{0};
  // By row: 0 = nothing to merge; kTickThread; else (worker << 24) | (record + 1).
  std::vector<uint32_t> marks_;
  std::vector<std::unique_ptr<BehaviorOutbox>> outboxes_;
};

}  // namespace npc
