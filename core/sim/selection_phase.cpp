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
  const unsigned workers = ctx.pool ? ctx.pool->size() : 1u;
  if (lanes_.size() < workers) lanes_.resize(workers);
  changes_.clear();
  if (workers == 1) {
    evaluateRows(ctx, 0, ctx.agents.size(), 0, changes_);
    return changes_;
  }
  const size_t n = ctx.agents.size();
  ctx.pool->run([&](unsigned w) {
    lanes_[w].clear();
    evaluateRows(ctx, n * w / workers, n * (w + 1) / workers, w, lanes_[w]);
    ctx.profile.workerDone(w);
  });
  for (unsigned w = 0; w < workers; ++w) {
    changes_.insert(changes_.end(), lanes_[w].begin(), lanes_[w].end());
  }
  return changes_;
}

}  // namespace npc
