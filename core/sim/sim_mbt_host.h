// SimMbtHost: the simulation as one agent's behavior tree sees it (the MbtHost contract in
// core/mbt/host.h). Internal to core/sim.
#pragma once

#include <algorithm>

#include "intent/decision_tree.h"
#include "mbt/host.h"
#include "sim/sim_navigation.h"
#include "sim/simulation.h"

namespace npc {

// The simulation as one agent's behavior tree sees it. Re-targeted with on() before each
// call into an instance; allocation-free.
class SimMbtHost final : public MbtHost {
 public:
  explicit SimMbtHost(Simulation& sim) : sim_(sim) {}

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
    const TreeContext ctx = sim_.treeContext();
    DecisionTree tree(agent_->intent.queue, agent_->id, ctx);
    const Programmed p = tree.program(sim_.timeS(), request.name, {args, n});
    return p.ok() ? static_cast<MbtActionHandle>(raw(p.id)) : MbtActionHandle::kNone;
  }

  MbtActionState pollAction(MbtActionHandle handle) override {
    const auto id = static_cast<IntentionId>(raw(handle));
    if (agent_->intent.queue.find(id)) return MbtActionState::kRunning;
    for (const Agent::Outcome& o : agent_->recent_outcomes) {
      if (o.intention == id) return o.succeeded ? MbtActionState::kSucceeded : MbtActionState::kFailed;
    }
    return MbtActionState::kFailed;
  }

  void cancelAction(MbtActionHandle handle) override {
    const auto id = static_cast<IntentionId>(raw(handle));
    const TreeContext ctx = sim_.treeContext();
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
    sim_.perception_.postSignal(request);
  }

  MbtPlanState requestPlan(std::string_view planner, std::string_view goal) override {
    return sim_.treeRequestPlan(*agent_, planner, goal);
  }
  MbtPlanState executePlan(std::string_view planner) override {
    return sim_.treeExecutePlan(*agent_, planner);
  }
  void stopPlan(std::string_view planner) override { sim_.treeStopPlan(*agent_, planner); }

  bool setSelectionVariable(std::string_view name, bool value) override {
    const SelectionVariableId variable = sim_.trees_.findVariable(name);
    return variable != SelectionVariableId::kNone &&
           sim_.trees_.setVariable(agent_->bst, variable, value);
  }

  std::span<const Obstacle> obstacles() const override { return sim_.world_.obstacles(); }

  // Without a navmesh the ground is open (MbtHost's defaults).
  MbtWalk walkTo(Vec3 to) override {
    if (!sim_.navigation_) return MbtHost::walkTo(to);
    return sim_.navigation_->trees.walk(view_.position, to);
  }
  bool placeOnGround(Vec3& point) override {
    return !sim_.navigation_ || sim_.navigation_->trees.placeOnGround(view_.position, point);
  }

  void log(const MbtLogMessage& message) override {
    if (sim_.tree_log_) sim_.tree_log_(message);
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

  Simulation& sim_;
  Agent* agent_ = nullptr;
  MbtAgentView view_;
};

}  // namespace npc
