#include "sim/behavior_phase.h"

#include "base/prefetch.h"
#include "intent/action_out.h"
#include "sim/sim_mbt_host.h"

namespace npc {

namespace {

ActionArg toArg(const ActionParam& p) {
  switch (p.type) {
    case ActionParam::Type::kEntity: return ActionArg::ofEntity(p.entity, ArgRole::kParam, p.name);
    case ActionParam::Type::kNumber: return ActionArg::ofValue(p.number, p.unit, p.name);
    case ActionParam::Type::kPosition:
      return ActionArg::ofPosition(p.position, PlaceIndex::kNone, p.name);
    case ActionParam::Type::kText: return ActionArg::ofMessage(p.text, p.name);
  }
  return {};
}

}  // namespace

bool runsBehaviorTree(const Agent& agent, const ArchetypeSet& archetypes) {
  return agent.behavior_def != Agent::kNoBehaviorDef &&
         !archetypes.at(agent.archetype).behaviors[agent.behavior_def].tree.empty();
}

void BehaviorPhase::run(const BehaviorPhaseContext& ctx) {
  const EntityTable& entities = ctx.world.entities();
  ActionOut request;
  ActionArg args[kMaxActionParams];
  for (size_t row = 0; row < ctx.agents.size(); ++row) {
    // The lines the checks below read, a few rows ahead (base/prefetch.h).
    prefetchAhead(ctx.agents, row, [](const Agent& a) { return &a.entity; });
    prefetchAhead(ctx.agents, row, [](const Agent& a) { return &a.behavior_def; });
    prefetchAhead(ctx.agents, row, [](const Agent& a) { return &a.mbt; });
    prefetchAhead(ctx.agents, row, [](const Agent& a) { return &a.idle_until_s; });
    Agent& agent = ctx.agents[row];
    if (!ctx.runs.empty() && ctx.runs[row] == 0) continue;  // a reduced-rate agent's off tick
    ctx.profile.atAgent(agent.id);
    const Entity* self = entities.get(agent.entity);
    if (!self || ctx.places.state(self->place) == PlaceState::kDraining) continue;  // winding down
    if (runsBehaviorTree(agent, ctx.archetypes)) {
      if (agent.mbt.bound()) agent.mbt.tick(ctx.trees.on(agent));
      continue;
    }
    if (!ctx.behaviors.decide(agent, *self, ctx.world, ctx.now_s, request)) continue;
    for (uint8_t i = 0; i < request.param_count; ++i) args[i] = toArg(request.params[i]);
    DecisionTree tree(agent.intent.queue, agent.id, ctx.intentions);
    const Programmed p = tree.program(ctx.now_s, request.name, {args, request.param_count});
    if (!p.ok()) ctx.error(self->owner, agent.id, toStatus(p.status, agent.id, p.id).message());
  }
}

}  // namespace npc
