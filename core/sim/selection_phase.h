// SelectionPhase: step 4 of the tick (ARCHITECTURE.md "One tick"). This tick's signals set
// their receivers' selection variables (and reach their behavior trees as events); then
// every awake agent's selection tree is evaluated against its variables (a no-op for an
// agent whose variables did not change); the agents whose behavior changed come back in row
// order, for the simulation to leave the old behavior and enter the new one.
//
// Reads: the selection tree library (read-only during the phase), the signals.
// Writes: each agent's own BstAgentState, nothing else, so with a pool worker w works on the
// w-th contiguous slice of rows and the changes, gathered slice by slice, come out in row
// order: the outcome is the one-thread outcome. A signal to an agent whose behavior tree is
// bound reaches it on the tick thread, in signal order, right after its selection tree took
// it (the tree's event handlers may set selection variables); the other receivers' signals
// are applied by the worker that owns the receiver's row, in signal order too. Entering
// behaviors (events, intentions, trees) has effects across agents and stays on the tick
// thread, in row order.
// Thread: the tick thread calls run(); the pool's threads look receivers up, apply signals,
// evaluate and mark progress.
#pragma once

#include <functional>
#include <span>
#include <vector>

#include "agent/agent.h"
#include "base/dense_table.h"
#include "bst/selection_tree_library.h"
#include "perception/signals.h"
#include "sim/tick_profile.h"

namespace npc {

class WorkerPool;

struct SelectionPhaseContext {
  DenseTable<Agent, EntityId>& agents;  // awake agents; their BstAgentState is written
  std::span<const uint8_t> runs;       // by agent row: 0 = not evaluated this tick (empty: all)
  const SelectionTreeLibrary& trees;
  TickProfile& profile;                // progress marks, one slot per worker
  WorkerPool* pool = nullptr;          // null or one thread: the tick thread alone
  std::span<const Signal> signals;     // this tick's, in delivery order
  // A signal reaches the behavior tree of its receiver, whose tree is bound (tick thread).
  std::function<void(Agent&, const Signal&)> tree_event;
};

// An agent whose selected behavior changed this tick.
struct BehaviorChange {
  uint32_t row = 0;                    // its row in SelectionPhaseContext::agents
  BehaviorSelection selection;
};

class SelectionPhase {
 public:
  // The agents whose behavior changed, in row order; valid until the next run().
  std::span<const BehaviorChange> run(const SelectionPhaseContext& ctx);

 private:
  static constexpr uint32_t kNoReceiver = 0xffffffffu;
  // Each signal's receiver: its row, and whether its behavior tree takes the signal too.
  struct Receiver {
    uint32_t row = kNoReceiver;
    bool tree_bound = false;
  };

  void applySignals(const SelectionPhaseContext& ctx);

  std::vector<Receiver> receivers_;               // by signal, capacity reused
  std::vector<std::vector<BehaviorChange>> lanes_;  // one per worker, capacity reused
  std::vector<BehaviorChange> changes_;           // the lanes merged, with several workers
};

}  // namespace npc
