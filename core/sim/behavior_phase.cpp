#include "sim/behavior_phase.h"

#include <atomic>
#include <cassert>

#include "base/prefetch.h"
#include "base/worker_pool.h"
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

constexpr uint32_t kRecordBits = 24;  // marks_: the record index below the worker

}  // namespace

bool runsBehaviorTree(const Agent& agent, const ArchetypeSet& archetypes) {
  return agent.behavior_def != Agent::kNoBehaviorDef &&
         !archetypes.at(agent.archetype).behaviors[agent.behavior_def].tree.empty();
}

void BehaviorPhase::reserveWorkers(unsigned workers, const ActionRegistry& registry,
                                   size_t event_capacity) {
  while (outboxes_.size() < workers) {
    outboxes_.push_back(std::make_unique<BehaviorOutbox>(registry, event_capacity));
  }
}

void BehaviorPhase::run(const BehaviorPhaseContext& ctx) {
  const unsigned workers = workerCount(ctx.pool);
  assert(outboxes_.size() >= workers && ctx.worker_trees.size() >= workers);
  if (ctx.rows_version != lanes_version_) assignLanes(ctx);
  marks_.assign(ctx.agents.size(), 0);
  std::atomic<uint32_t> next_lane{0};
  auto job = [&](unsigned w) {
    outboxes_[w]->clear();
    // Whole lanes, whichever worker is free: a lane's outcome depends on its agents alone.
    for (uint32_t lane; (lane = next_lane.fetch_add(1, std::memory_order_relaxed)) < kMbtLanes;) {
      if (!lanes_[lane].empty()) runLane(ctx, lane, w);
    }
    ctx.profile.workerDone(w);
  };
  if (workers == 1) {
    job(0);
  } else {
    ctx.pool->run([&](unsigned w) { job(w); });
  }
  merge(ctx);
}

void BehaviorPhase::assignLanes(const BehaviorPhaseContext& ctx) {
  for (std::vector<uint32_t>& lane : lanes_) lane.clear();
  for (size_t row = 0; row < ctx.agents.size(); ++row) {
    prefetchAhead(ctx.agents, row, [](const Agent& a) { return &a.perception.group; });
    // MbtAgentView::group is the perception group: the lane of the tree's group scopes.
    // It is set when the agent spawns, so a lane changes only when rows move.
    lanes_[mbtLaneOf(raw(ctx.agents[row].perception.group))].push_back(
        static_cast<uint32_t>(row));
  }
  lanes_version_ = ctx.rows_version;
}

void BehaviorPhase::runLane(const BehaviorPhaseContext& ctx, uint32_t lane, unsigned worker) {
  BehaviorOutbox& out = *outboxes_[worker];
  SimMbtHost& host = *ctx.worker_trees[worker];
  out.beginLane(ctx.tick, lane, ctx.now_s);
  const EntityTable& entities = ctx.world.entities();
  const std::vector<uint32_t>& rows = lanes_[lane];
  ActionOut request;
  ActionArg args[kMaxActionParams];
  for (size_t i = 0; i < rows.size(); ++i) {
    // The lines the checks below read, a few agents ahead (base/prefetch.h).
    if (i + kPrefetchRows < rows.size()) {
      const Agent& ahead = ctx.agents[rows[i + kPrefetchRows]];
      prefetchForRead(&ahead.entity);
      prefetchForRead(&ahead.behavior_def);
      prefetchForRead(&ahead.mbt);
      prefetchForRead(&ahead.idle_until_s);
    }
    const uint32_t row = rows[i];
    if (!ctx.runs.empty() && ctx.runs[row] == 0) continue;  // a reduced-rate agent's off tick
    Agent& agent = ctx.agents[row];
    const Entity* self = entities.get(agent.entity);
    if (!self || ctx.places.state(self->place) == PlaceState::kDraining) continue;  // winding down
    const bool tree = runsBehaviorTree(agent, ctx.archetypes);
    if (tree && !agent.mbt.bound()) continue;
    if (tree && agent.mbt.needsTickThread()) {
      marks_[row] = kTickThread;  // ticks in the merge, at its row
      continue;
    }
    ctx.profile.atAgent(agent.id, worker);
    out.beginAgent();
    if (tree) {
      agent.mbt.tick(host.on(agent), worker);
    } else if (ctx.behaviors.decide(agent, *self, ctx.world, ctx.now_s, request)) {
      for (uint8_t a = 0; a < request.param_count; ++a) args[a] = toArg(request.params[a]);
      DecisionTree decision(agent.intent.queue, agent.id, out.intentions());
      const Programmed p = decision.program(ctx.now_s, request.name, {args, request.param_count});
      if (!p.ok()) {
        out.error(self->owner, agent.id, toStatus(p.status, agent.id, p.id).message());
      }
    }
    const int64_t record = out.endAgent();
    if (record >= 0) {
      assert(record + 1 < (int64_t{1} << kRecordBits));
      marks_[row] = worker << kRecordBits | static_cast<uint32_t>(record + 1);
    }
  }
}

void BehaviorPhase::merge(const BehaviorPhaseContext& ctx) {
  for (size_t row = 0; row < marks_.size(); ++row) {
    const uint32_t mark = marks_[row];
    if (mark == 0) continue;
    Agent& agent = ctx.agents[row];
    if (mark == kTickThread) {
      ctx.profile.atAgent(agent.id);
      agent.mbt.tick(ctx.trees.on(agent));
      continue;
    }
    BehaviorOutbox& out = *outboxes_[mark >> kRecordBits];
    passOn(ctx, agent, out, out.agent((mark & ((1u << kRecordBits) - 1)) - 1));
  }
}

void BehaviorPhase::passOn(const BehaviorPhaseContext& ctx, Agent& agent, BehaviorOutbox& out,
                           const AgentEffects& effects) {
  // Its intentions are numbered now, in the order it made them: as a serial tick would.
  uint64_t base = 0;
  if (effects.new_intentions != 0) {
    base = raw(ctx.intentions.ids->reserve(effects.new_intentions));
    agent.intent.queue.renumber(effects.first_id, effects.new_intentions, base);
  }
  for (IntentionEvent event : out.events(effects)) {
    const uint64_t offset = raw(event.intention) - raw(effects.first_id);
    if (offset < effects.new_intentions) event.intention = static_cast<IntentionId>(base + offset);
    ctx.intentions.events->push(event);
  }
  for (const SignalRequest& signal : out.signals(effects)) ctx.signal(signal);
  for (uint32_t i = 0; i < effects.logs_end - effects.logs_begin; ++i) {
    ctx.log(out.logMessage(effects, i));
  }
  for (BehaviorError& e : out.errors(effects)) ctx.error(e.owner, e.agent, std::move(e.text));
}

}  // namespace npc
