// SelectionPhase: the evaluation half of step 4 of the tick (ARCHITECTURE.md "One tick").
// Every awake agent's selection tree is evaluated against its variables (a no-op for an
// agent whose variables did not change); the agents whose behavior changed come back in row
// order, for the simulation to leave the old behavior and enter the new one.
//
// Reads: the selection tree library (read-only during the phase).
// Writes: each agent's own BstAgentState, nothing else, so with a pool worker w evaluates
// the w-th contiguous slice of rows and the changes, gathered slice by slice, come out in
// row order: the outcome is the one-thread outcome. Entering behaviors (events, intentions,
// trees) has effects across agents and stays on the tick thread, in that order.
// Thread: the tick thread calls run(); the pool's threads only evaluate and mark progress.
#pragma once

#include <span>
#include <vector>

#include "agent/agent.h"
#include "bst/selection_tree_library.h"
#include "sim/tick_profile.h"

namespace npc {

class WorkerPool;

struct SelectionPhaseContext {
  std::span<Agent> agents;             // awake agents; their BstAgentState is written
  std::span<const uint8_t> runs;       // by agent row: 0 = not evaluated this tick (empty: all)
  const SelectionTreeLibrary& trees;
  TickProfile& profile;                // progress marks, one slot per worker
  WorkerPool* pool = nullptr;          // null or one thread: the tick thread alone
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
  std::vector<std::vector<BehaviorChange>> lanes_;  // one per worker, capacity reused
  std::vector<BehaviorChange> changes_;           // the lanes merged, with several workers
};

}  // namespace npc
