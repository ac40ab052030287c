#include "sim/selection_phase.h"

#include "base/prefetch.h"
#include "base/worker_pool.h"

namespace npc {

namespace {

// Rows [begin, end) evaluated by `worker` into `out`.
void evaluateRows(const SelectionPhaseContext& ctx, size_t begin, size_t end, unsigned worker,
                  std::vector<BehaviorChange>& out) {
  for (size_t row = begin; row < end; ++row) {
    prefetchAhead(ctx.agents.first(end), row, [](const Agent& a) { return &a.id; });
    prefetchAhead(ctx.agents.first(end), row, [](const Agent& a) { return &a.bst; });
    if (!ctx.runs.empty() && ctx.runs[row] == 0) continue;  // a reduced-rate agent's off tick
    Agent& agent = ctx.agents[row];
    ctx.profile.atAgent(agent.id, worker);
    const BehaviorSelection selection = ctx.trees.evaluate(agent.bst);
    if (selection.changed) out.push_back({static_cast<uint32_t>(row), selection});
  }
}

}  // namespace

std::span<const BehaviorChange> SelectionPhase::run(const SelectionPhaseContext& ctx) {
  const unsigned workers = workerCount(ctx.pool);
  if (lanes_.size() < workers) lanes_.resize(workers);
  forEachSlice(ctx.pool, ctx.agents.size(), [&](size_t begin, size_t end, unsigned w) {
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
