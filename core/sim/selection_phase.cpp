#include "sim/selection_phase.h"

#include "base/prefetch.h"
#include "base/worker_pool.h"

namespace npc {

namespace {

// Rows [begin, end) evaluated by `worker` into `out`.
void evaluateRows(const SelectionPhaseContext& ctx, size_t begin, size_t end, unsigned worker,
                  std::vector<BehaviorChange>& out) {
  const std::span<Agent> agents = ctx.agents.rows();
  for (size_t row = begin; row < end; ++row) {
    prefetchAhead(agents.first(end), row, [](const Agent& a) { return &a.id; });
    prefetchAhead(agents.first(end), row, [](const Agent& a) { return &a.bst; });
    if (!ctx.runs.empty() && ctx.runs[row] == 0) continue;  // a reduced-rate agent's off tick
    Agent& agent = agents[row];
    ctx.profile.atAgent(agent.id, worker);
    const BehaviorSelection selection = ctx.trees.evaluate(agent.bst);
    if (selection.changed) out.push_back({static_cast<uint32_t>(row), selection});
  }
}

}  // namespace

void SelectionPhase::applySignals(const SelectionPhaseContext& ctx) {
  const std::span<const Signal> signals = ctx.signals;
  const std::span<Agent> agents = ctx.agents.rows();
  receivers_.resize(signals.size());
  // The receivers, looked up on the workers (a hash probe and a row each, mostly misses).
  forEachSlice(ctx.pool, signals.size(), [&](size_t begin, size_t end, unsigned) {
    for (size_t k = begin; k < end; ++k) {
      const auto handle = ctx.agents.find(signals[k].receiver);
      Receiver& r = receivers_[k];
      r = {};
      if (const Agent* agent = ctx.agents.get(handle)) {
        r.row = ctx.agents.rowOf(handle);
        r.tree_bound = agent->mbt.bound();
      }
    }
  });
  // Receivers without a behavior tree: each worker takes the signals of its rows.
  forEachSlice(ctx.pool, agents.size(), [&](size_t begin, size_t end, unsigned) {
    for (size_t k = 0; k < signals.size(); ++k) {
      const Receiver& r = receivers_[k];
      if (r.row < begin || r.row >= end || r.tree_bound) continue;
      ctx.trees.applySignal(agents[r.row].bst, signals[k].id);
    }
  });
  // The others on the tick thread, each signal to both of the receiver's trees in turn.
  for (size_t k = 0; k < signals.size(); ++k) {
    const Receiver& r = receivers_[k];
    if (r.row == kNoReceiver || !r.tree_bound) continue;
    Agent& agent = agents[r.row];
    ctx.trees.applySignal(agent.bst, signals[k].id);
    ctx.tree_event(agent, signals[k]);
  }
}

std::span<const BehaviorChange> SelectionPhase::run(const SelectionPhaseContext& ctx) {
  applySignals(ctx);
  const unsigned workers = workerCount(ctx.pool);
  if (lanes_.size() < workers) lanes_.resize(workers);
  const std::span<Agent> agents = ctx.agents.rows();
  forEachSlice(ctx.pool, agents.size(), [&](size_t begin, size_t end, unsigned w) {
    lanes_[w].clear();
    evaluateRows(ctx, begin, end, w, lanes_[w]);
    ctx.profile.workerDone(w);
  });
  if (workers == 1) return lanes_[0];
  changes_.clear();
  for (unsigned w = 0; w < workers; ++w) {
    changes_.insert(changes_.end(), lanes_[w].begin(), lanes_[w].end());
  }
  return changes_;
}

}  // namespace npc
