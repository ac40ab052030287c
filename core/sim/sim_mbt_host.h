// SimMbtHost: the simulation as one agent's behavior tree sees it (the MbtHost contract in
// core/mbt/host.h). Internal to core/sim.
#pragma once

#include <algorithm>
#include <cassert>

#include "intent/decision_tree.h"
#include "mbt/host.h"
#include "sim/behavior_outbox.h"
#include "sim/sim_navigation.h"
#include "sim/simulation.h"

namespace npc {

// The simulation as one agent's behavior tree sees it. Re-targeted with on() before each
// call into an instance; allocation-free.
//
// Without an outbox it acts on the simulation at once (the tick thread's host). With one
// (a worker's host in the behavior phase), what reaches beyond the agent goes to the
// outbox: intentions are programmed there under provisional ids, signals and log messages
// wait there; the phase merges them in agent order. Its navmesh questions go to the
// worker's own query. Trees that plan never tick on a worker (MbtNode::needsTickThread).
class SimMbtHost final : public MbtHost {
 public:
  explicit SimMbtHost(Simulation& sim, BehaviorOutbox* outbox = nullptr, unsigned worker = 0)
      : sim_(sim), outbox_(outbox), worker_(worker) {}

  SimMbtHost& on(Agent& agent) {
    agent_ = &agent;
    const Entity* body = sim_.world_.entities().get(agent.entity);
    view_ = MbtAgentView{};
    view_.id = agent.id;
    view_.home = agent.home;
    view_.group = raw(agent.perception.group);
    if (body) {
      view_.position = body->position;
      view_.forward = body->forward;
    }
    const AttentionTarget& a = agent.perception.attention;
    view_.target_class = static_cast<MbtTargetClass>(a.cls);  // same order by design
    view_.target = a.target;
    view_.target_position = a.position;
    return *this;
  }

  double nowS() const override { return sim_.timeS(); }
  const MbtAgentView& agent() const override { return view_; }

  MbtActionHandle startAction(const MbtActionRequest& request) override {
    ActionArg args[kMaxActionArgs];
    const size_t n = std::min<size_t>(request.param_count, kMaxActionArgs);
    for (size_t i = 0; i < n; ++i) args[i] = toArg(request.params[i]);
    const TreeContext ctx = intentions();
    DecisionTree tree(agent_->intent.queue, agent_->id, ctx);
    const Programmed p = tree.program(sim_.timeS(), request.name, {args, n});
    // The handle is the id it was programmed under (provisional on a worker), which the
    // intention keeps as Intention::handle when the tick numbers it.
    return p.ok() ? static_cast<MbtActionHandle>(raw(p.id)) : MbtActionHandle::kNone;
  }

  MbtActionState pollAction(MbtActionHandle handle) override {
    const auto id = static_cast<IntentionId>(raw(handle));
    if (agent_->intent.queue.findHandle(id)) return MbtActionState::kRunning;
    for (const Agent::Outcome& o : agent_->recent_outcomes) {
      if (o.handle == id) return o.succeeded ? MbtActionState::kSucceeded : MbtActionState::kFailed;
    }
    return MbtActionState::kFailed;
  }

  void cancelAction(MbtActionHandle handle) override {
    const Intention* in = agent_->intent.queue.findHandle(static_cast<IntentionId>(raw(handle)));
    if (!in) return;
    const IntentionId id = in->id;
    const TreeContext ctx = intentions();
    DecisionTree tree(agent_->intent.queue, agent_->id, ctx);
    if (tree.cancel(id) != IntentStatus::kOk) tree.deprogram(id);
  }

  void sendSignal(SignalId signal, MbtSignalScope scope) override {
    SignalRequest request;
    request.id = signal;
    request.sender = agent_->id;
    if (scope == MbtSignalScope::kSelf) {
      request.scope = SignalScope::kAgent;
      request.target = agent_->id;
      request.include_sender = true;
    } else {
      request.scope = SignalScope::kGroup;
      request.group = agent_->perception.group;
      request.include_sender = scope == MbtSignalScope::kGroup;
    }
    if (outbox_) {
      outbox_->post(request);
    } else {
      sim_.perception_.postSignal(request);
    }
  }

  MbtPlanState requestPlan(std::string_view planner, std::string_view goal) override {
    assert(!outbox_ && "a tree that plans ticks on the tick thread");
    return sim_.treeRequestPlan(*agent_, planner, goal);
  }
  MbtPlanState executePlan(std::string_view planner) override {
    assert(!outbox_ && "a tree that plans ticks on the tick thread");
    return sim_.treeExecutePlan(*agent_, planner);
  }
  void stopPlan(std::string_view planner) override {
    assert(!outbox_ && "a tree that plans ticks on the tick thread");
    sim_.treeStopPlan(*agent_, planner);
  }

  bool setSelectionVariable(std::string_view name, bool value) override {
    const SelectionVariableId variable = sim_.trees_.findVariable(name);
    return variable != SelectionVariableId::kNone &&
           sim_.trees_.setVariable(agent_->bst, variable, value);
  }

  std::span<const Obstacle> obstacles() const override { return sim_.world_.obstacles(); }

  // Without a navmesh the ground is open (MbtHost's defaults).
  MbtWalk walkTo(Vec3 to) override {
    if (!sim_.navigation_) return MbtHost::walkTo(to);
    return sim_.navigation_->treesFor(worker_).walk(view_.position, to);
  }
  bool placeOnGround(Vec3& point) override {
    return !sim_.navigation_ ||
           sim_.navigation_->treesFor(worker_).placeOnGround(view_.position, point);
  }

  void log(const MbtLogMessage& message) override {
    if (!sim_.tree_log_) return;
    if (outbox_) {
      outbox_->log(message);
    } else {
      sim_.tree_log_(message);
    }
  }

 private:
  static ActionArg toArg(const MbtActionParam& p) {
    switch (p.type) {
      case MbtActionParam::Type::kEntity: return ActionArg::ofEntity(p.entity, ArgRole::kParam, p.name);
      case MbtActionParam::Type::kNumber: return ActionArg::ofValue(p.number, p.unit, p.name);
      case MbtActionParam::Type::kPosition:
        return ActionArg::ofPosition(p.position, PlaceIndex::kNone, p.name);
      case MbtActionParam::Type::kText: return ActionArg::ofMessage(p.text, p.name);
    }
    return {};
  }

  TreeContext intentions() const { return outbox_ ? outbox_->intentions() : sim_.treeContext(); }

  Simulation& sim_;
  BehaviorOutbox* outbox_;
  unsigned worker_;
  Agent* agent_ = nullptr;
  MbtAgentView view_;
};

}  // namespace npc
