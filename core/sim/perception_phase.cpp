#include "sim/perception_phase.h"

#include "base/prefetch.h"

namespace npc {

void PerceptionPhase::run(const PerceptionPhaseContext& ctx) {
  const EntityTable& entities = ctx.world.entities();
  if (ctx.derive_footsteps) {
    for (const Entity& e : entities.rows()) {
      if (e.kind == EntityKind::kPlayer) ctx.perception.addFootstep(e);
    }
  }
  perceivers_.clear();
  for (size_t i = 0; i < ctx.agents.size(); ++i) {
    prefetchAhead(ctx.agents, i, [](const Agent& a) { return &a.entity; });
    const bool full = ctx.runs.empty() || ctx.runs[i] != 0;
    perceivers_.push_back({ctx.agents[i].entity, &ctx.agents[i].perception, full});
  }
  ctx.signals.clear();
  ctx.perception.update(ctx.world, perceivers_, ctx.tick, ctx.now_s, ctx.signals, ctx.pool);
  if (ctx.places.size() > 0) {
    for (size_t i = 0; i < ctx.agents.size(); ++i) {
      prefetchAhead(ctx.agents, i, [](const Agent& a) { return &a.perception.attention.cls; });
      const Agent& agent = ctx.agents[i];
      if (agent.perception.attention.cls == AttentionClass::kNone) continue;
      if (const Entity* e = entities.get(agent.entity)) ctx.places.noteActivity(e->place, ctx.now_s);
    }
  }
  for (const StealthChange& c : ctx.perception.stealth().changes()) {
    EventOut ev;
    ev.kind = EventKind::kStealth;
    ev.agent = c.agent;
    ev.subject = c.player;
    ev.value = c.value;
    if (const Entity* p = entities.get(c.player)) ev.place = p->place;
    ctx.events.push_back(ev);
  }
}

}  // namespace npc
