#include "sim/scheduling_phase.h"

#include "base/prefetch.h"

namespace npc {

void SchedulingPhase::run(const SchedulingPhaseContext& ctx) {
  const EntityTable& entities = ctx.world.entities();
  for (size_t row = 0; row < ctx.agents.size(); ++row) {
    prefetchAhead(ctx.agents, row, [](const Agent& a) { return &a.intent.queue; });
    Agent& agent = ctx.agents[row];
    // Most agents wait (for a client's result, a date): skipped before their body is read.
    if (agent.intent.queue.empty() || ctx.scheduler.skipsTurn(agent.intent, ctx.now_s)) continue;
    ctx.profile.atAgent(agent.id);
    const Entity* self = entities.get(agent.entity);
    if (!self) continue;
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
  ctx.flush();
}

}  // namespace npc
