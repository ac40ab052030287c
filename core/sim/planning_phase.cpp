#include "sim/planning_phase.h"

#include <atomic>

#include "base/prefetch.h"
#include "base/worker_pool.h"
#include "sim/sim_planner.h"

namespace npc {

using goap::RunnerCommand;

SearchCount SearchCount::of(const goap::PlanResult& result, uint64_t elapsed_ns) {
  return {result.hasPlan(), result.status == goap::PlanStatus::kFound,
          result.status == goap::PlanStatus::kPartial, elapsed_ns};
}

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
    ctx.profile.atAgent(ctx.agents[s.row].id);
    count(ctx, s);
    runPlanner(ctx, s.row, *s.planner, s.index, *s.run, s.round + 1, false);
    if (!starved && P.budget == 0 && s.run->awaiting_plan) {
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
        s.planner = &ap;
        s.run = &p;
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
  uint64_t elapsed_ns = 0;
  const goap::PlanResult* result =
      ctx.search(worker, ctx.agents[s.row], *s.planner, s.index, *s.run, elapsed_ns);
  if (!result) return;
  s.returned = true;
  s.counted = SearchCount::of(*result, elapsed_ns);
  s.run->runner.onPlanReady(*result, ctx.now_s);
}

void PlanningPhase::searchAll(const PlanningPhaseContext& ctx) {
  SimPlanning& P = ctx.planning;
  const size_t n = searches_.size();
  if (workerCount(ctx.pool) == 1 || n < 2 || P.counting()) {
    for (Search& s : searches_) search(ctx, s, 0);
    return;
  }
  // A traced planner's search fills its trace, which the tick thread keeps.
  auto traced = [](const Search& s) { return s.run->traced; };
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
  if (s.returned) ctx.searched(*s.run, s.counted);
}

}  // namespace npc
