#include "sim/planning_phase.h"

#include <atomic>

#include "base/prefetch.h"
#include "base/worker_pool.h"
#include "sim/sim_planner.h"

namespace npc {

using goap::RunnerCommand;

void PlanningPhase::run(const PlanningPhaseContext& ctx) {
  SimPlanning& P = ctx.planning;
  if (P.agents.size() == 0) return;
  const size_t n = ctx.agents.size();
  if (n == 0) return;
  searches_.clear();
  // 1. Every runner moves on; the searches it asks for are set aside.
  const size_t start = P.cursor % n;
  bool starved = false;
  for (size_t i = 0; i < n; ++i) {
    prefetchForRead(&ctx.agents[(start + i + kPrefetchRows) % n].planner);
    const auto row = static_cast<uint32_t>((start + i) % n);
    AgentPlanner* ap = P.plannerOf(ctx.agents[row].planner);
    if (!ap) continue;
    ctx.profile.atAgent(ctx.agents[row].id);
    for (uint8_t k = 0; k < ap->count; ++k) {
      PlannerRun& run = *P.runOf(*ap, k);
      runPlanner(ctx, row, *ap, k, run, 0, true);
      // The first agent left waiting for a search goes first next tick.
      if (!starved && P.budget == 0 && run.awaiting_plan) {
        P.cursor = row;
        starved = true;
      }
    }
  }
  // 2. The searches, on every worker.
  searchAll(ctx);
  // 3. Each runner that searched goes on from there, in walk order.
  for (const Search& s : searches_) {
    Agent& agent = ctx.agents[s.row];
    ctx.profile.atAgent(agent.id);
    AgentPlanner& ap = *P.plannerOf(agent.planner);
    PlannerRun& run = *P.runOf(ap, s.index);
    count(ctx, s);
    runPlanner(ctx, s.row, ap, s.index, run, s.round + 1, false);
    if (!starved && P.budget == 0 && run.awaiting_plan) {
      P.cursor = s.row;
      starved = true;
    }
  }
}

void PlanningPhase::runPlanner(const PlanningPhaseContext& ctx, uint32_t row, AgentPlanner& ap,
                               uint8_t index, PlannerRun& p, int first, bool defer) {
  Agent& agent = ctx.agents[row];
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
  for (int round = first; round < kRounds; ++round) {
    const RunnerCommand command =
        p.awaiting_plan ? RunnerCommand::kRequestPlan
                        : p.runner.update(d, bucket, p.facts, &ap.blackboard, &group.blackboard, ctx.now_s);
    switch (command) {
      case RunnerCommand::kNone: return;
      case RunnerCommand::kRequestPlan: {
        p.awaiting_plan = P.budget == 0;
        if (p.awaiting_plan) return;
        --P.budget;
        Search s;
        s.row = row;
        s.index = index;
        s.round = static_cast<uint8_t>(round);
        if (defer) {
          searches_.push_back(s);
          return;
        }
        search(ctx, s, 0);
        count(ctx, s);
        continue;
      }
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

void PlanningPhase::search(const PlanningPhaseContext& ctx, Search& s, unsigned worker) {
  SimPlanning& P = ctx.planning;
  const Agent& agent = ctx.agents[s.row];
  AgentPlanner& ap = *P.plannerOf(agent.planner);
  PlannerRun& run = *P.runOf(ap, s.index);
  const goap::PlanResult* result = ctx.search(worker, agent, ap, s.index, run, s.elapsed_ns);
  if (!result) return;
  s.returned = true;
  s.has_plan = result->hasPlan();
  s.found = result->status == goap::PlanStatus::kFound;
  s.partial = result->status == goap::PlanStatus::kPartial;
  run.runner.onPlanReady(*result, ctx.now_s);
}

void PlanningPhase::searchAll(const PlanningPhaseContext& ctx) {
  SimPlanning& P = ctx.planning;
  const size_t n = searches_.size();
  if (workerCount(ctx.pool) == 1 || n < 2 || P.counting()) {
    for (Search& s : searches_) search(ctx, s, 0);
    return;
  }
  // A traced planner's search fills its trace, which the tick thread keeps.
  auto traced = [&](const Search& s) {
    return P.runOf(*P.plannerOf(ctx.agents[s.row].planner), s.index)->traced;
  };
  // Searches differ in cost, so each worker takes the next one left rather than a fixed slice.
  std::atomic<size_t> next{0};
  ctx.pool->run([&](unsigned worker) {
    for (size_t i = next.fetch_add(1, std::memory_order_relaxed); i < n;
         i = next.fetch_add(1, std::memory_order_relaxed)) {
      if (!traced(searches_[i])) search(ctx, searches_[i], worker);
    }
  });
  for (Search& s : searches_) {
    if (traced(s)) search(ctx, s, 0);
  }
}

void PlanningPhase::count(const PlanningPhaseContext& ctx, const Search& s) {
  if (!s.returned) return;
  const Agent& agent = ctx.agents[s.row];
  PlannerRun& run = *ctx.planning.runOf(*ctx.planning.plannerOf(agent.planner), s.index);
  ctx.searched(run, s.has_plan, s.found, s.partial, s.elapsed_ns);
}

}  // namespace npc
