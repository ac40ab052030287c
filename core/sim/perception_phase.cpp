#include "sim/perception_phase.h"

#include "base/prefetch.h"
#include "base/worker_pool.h"

namespace npc {

void PerceptionPhase::run(const PerceptionPhaseContext& ctx) {
  const EntityTable& entities = ctx.world.entities();
  if (ctx.derive_footsteps) {
    for (const Entity& e : entities.rows()) {
      if (e.kind == EntityKind::kPlayer) ctx.perception.addFootstep(e);
    }
  }
  // Agents' rows are a page apart, so the passes over them are split among the workers.
  perceivers_.resize(ctx.agents.size());
  forEachSlice(ctx.pool, ctx.agents.size(), [&](size_t begin, size_t end, unsigned) {
    for (size_t i = begin; i < end; ++i) {
      prefetchAhead(ctx.agents, i, [](const Agent& a) { return &a.entity; });
      const bool full = ctx.runs.empty() || ctx.runs[i] != 0;
      perceivers_[i] = {ctx.agents[i].entity, &ctx.agents[i].perception, full};
    }
  });
  ctx.signals.clear();
  ctx.perception.update(ctx.world, perceivers_, ctx.tick, ctx.now_s, ctx.signals, ctx.pool);
  noteActivePlaces(ctx);
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

void PerceptionPhase::noteActivePlaces(const PerceptionPhaseContext& ctx) {
  const size_t places = ctx.places.size();
  if (places == 0) return;
  const unsigned workers = workerCount(ctx.pool);
  if (active_.size() < workers) active_.resize(workers);
  const EntityTable& entities = ctx.world.entities();
  forEachSlice(ctx.pool, ctx.agents.size(), [&](size_t begin, size_t end, unsigned w) {
    std::vector<uint8_t>& active = active_[w];
    active.assign(places, 0);
    for (size_t i = begin; i < end; ++i) {
      prefetchAhead(ctx.agents, i, [](const Agent& a) { return &a.perception.attention.cls; });
      const Agent& agent = ctx.agents[i];
      if (agent.perception.attention.cls == AttentionClass::kNone) continue;
      const Entity* e = entities.get(agent.entity);
      if (e && raw(e->place) < places) active[raw(e->place)] = 1;
    }
  });
  // Every active place gets the same time, so the order of the notes does not matter.
  for (size_t p = 0; p < places; ++p) {
    for (unsigned w = 0; w < workers; ++w) {
      if (active_[w][p] != 0) {
        ctx.places.noteActivity(static_cast<PlaceIndex>(p), ctx.now_s);
        break;
      }
    }
  }
}

}  // namespace npc
