#include "sim/planning_phase.h"

#include "base/prefetch.h"
#include "sim/sim_planner.h"

namespace npc {

using goap::RunnerCommand;

void PlanningPhase::run(const PlanningPhaseContext& ctx) {
  SimPlanning& P = ctx.planning;
  if (P.agents.size() == 0) return;
  const size_t n = ctx.agents.size();
  if (n == 0) return;
  const size_t start = P.cursor % n;
  bool starved = false;
  for (size_t i = 0; i < n; ++i) {
    prefetchForRead(&ctx.agents[(start + i + kPrefetchRows) % n].planner);
    Agent& agent = ctx.agents[(start + i) % n];
    AgentPlanner* ap = P.plannerOf(agent.planner);
    if (!ap) continue;
    ctx.profile.atAgent(agent.id);
    for (uint8_t k = 0; k < ap->count; ++k) {
      PlannerRun& run = *P.runOf(*ap, k);
      runPlanner(ctx, agent, *ap, k, run);
      // The first agent left waiting for a search goes first next tick.
      if (!starved && P.budget == 0 && run.awaiting_plan) {
        P.cursor = (start + i) % n;
        starved = true;
      }
    }
  }
}

void PlanningPhase::runPlanner(const PlanningPhaseContext& ctx, Agent& agent, AgentPlanner& ap,
                               uint8_t index, PlannerRun& p) {
  if (agent.behavior_def == Agent::kNoBehaviorDef) return;
  const BehaviorDef& def = ctx.archetypes.at(agent.archetype).behaviors[agent.behavior_def];
  if (def.mode != BehaviorMode::kPlan || !def.tree.empty()) return;
  SimPlanning& P = ctx.planning;
  const PlannerBinding& b = P.bindingsOf(agent.archetype)[index];
  const goap::BucketId bucket = b.bucket_of_behavior[agent.behavior_def];
  if (bucket == goap::BucketId::kNone) return;  // another of its planners runs this behavior
  const Entity* self = ctx.world.entities().get(agent.entity);
  if (!self || ctx.places.state(self->place) == PlaceState::kDraining) return;
  const goap::GoapDomain& d = P.domainOf(b);
  GroupPlannerMemory& group = P.groups[raw(agent.perception.group)];
  for (int round = 0; round < 4; ++round) {
    const RunnerCommand command =
        p.awaiting_plan ? RunnerCommand::kRequestPlan
                        : p.runner.update(d, bucket, p.facts, &ap.blackboard, &group.blackboard, ctx.now_s);
    switch (command) {
      case RunnerCommand::kNone: return;
      case RunnerCommand::kRequestPlan:
        p.awaiting_plan = P.budget == 0;
        if (p.awaiting_plan) return;
        --P.budget;
        if (ctx.search(agent, ap, index, p)) p.runner.onPlanReady(P.planner.result(), ctx.now_s);
        continue;
      case RunnerCommand::kStartStep:
        ctx.program_step(agent, index, p, false);
        return;
      case RunnerCommand::kStopStep:
        ctx.stop_step(agent, p);
        continue;
      case RunnerCommand::kRunFallback:
        ctx.program_step(agent, index, p, true);
        return;
    }
  }
}

}  // namespace npc
