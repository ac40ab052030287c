#include "sim/scheduling_phase.h"

#include "base/prefetch.h"
#include "base/worker_pool.h"

namespace npc {

void SchedulingPhase::run(const SchedulingPhaseContext& ctx) {
  // The events earlier phases left (trees' and plans' intentions) first: what they wake
  // (a tree starting its next action, a plan its next step) is then due this tick.
  ctx.flush();
  const unsigned workers = workerCount(ctx.pool);
  if (due_.size() < workers) due_.resize(workers);
  skipped_.assign(workers, 0);
  forEachSlice(ctx.pool, ctx.agents.size(), [&](size_t begin, size_t end, unsigned w) {
    findDue(ctx, begin, end, w);
    ctx.profile.workerDone(w);
  });
  for (unsigned w = 0; w < workers; ++w) {
    ctx.scheduler.countSkipped(skipped_[w]);
    const std::vector<uint32_t>& rows = due_[w];
    for (size_t i = 0; i < rows.size(); ++i) {
      if (i + kPrefetchRows < rows.size()) prefetchForRead(&ctx.agents[rows[i + kPrefetchRows]].entity);
      takeTurn(ctx, ctx.agents[rows[i]]);
    }
  }
  ctx.flush();
}

void SchedulingPhase::findDue(const SchedulingPhaseContext& ctx, size_t begin, size_t end,
                              unsigned worker) {
  std::vector<uint32_t>& due = due_[worker];
  due.clear();
  uint64_t skipped = 0;
  for (size_t row = begin; row < end; ++row) {
    prefetchAhead(ctx.agents.first(end), row, [](const Agent& a) { return &a.intent.queue; });
    const IntentAgentState& intent = ctx.agents[row].intent;
    // Most agents wait (for a client's result, a date): left out before their body is read.
    if (intent.queue.empty()) continue;
    if (ctx.scheduler.due(intent, ctx.now_s)) {
      due.push_back(static_cast<uint32_t>(row));
    } else {
      ++skipped;
    }
  }
  skipped_[worker] = skipped;
}

void SchedulingPhase::takeTurn(const SchedulingPhaseContext& ctx, Agent& agent) {
  ctx.profile.atAgent(agent.id);
  const Entity* self = ctx.world.entities().get(agent.entity);
  if (!self) return;
  if (ctx.events.room() < ActionScheduler::kMaxEventsPerTurn ||
      ctx.starts.room() < ActionScheduler::kMaxStartsPerTurn) {
    ctx.flush();
  }
  AgentTurn turn;
  turn.agent = agent.id;
  turn.entity = agent.entity;
  turn.owner = ctx.addressee(self->owner);
  turn.place = self->place;
  turn.now_s = ctx.now_s;
  turn.quantum_s = ctx.quantum_s;
  turn.client_timeout_s = ctx.archetypes.at(agent.archetype).action_timeout_s;
  ctx.scheduler.update(agent.intent, turn, ctx.starts, ctx.events);
}

}  // namespace npc
