#include "goap/plan_runner.h"

#include "goap/statistics.h"

namespace npc::goap {

const char* toString(RunnerPhase phase) {
  switch (phase) {
    case RunnerPhase::kIdle: return "idle";
    case RunnerPhase::kPlanning: return "planning";
    case RunnerPhase::kExecuting: return "executing";
    case RunnerPhase::kFallback: return "fallback";
    case RunnerPhase::kCooldown: return "cooldown";
  }
  return "?";
}

const char* toString(RunnerCommand command) {
  switch (command) {
    case RunnerCommand::kNone: return "none";
    case RunnerCommand::kRequestPlan: return "request_plan";
    case RunnerCommand::kStartStep: return "start_step";
    case RunnerCommand::kStopStep: return "stop_step";
    case RunnerCommand::kRunFallback: return "run_fallback";
  }
  return "?";
}

void PlanRunner::reset() {
  selector_ = {};
  choice_ = {};
  phase_ = RunnerPhase::kIdle;
  step_ = 0;
  step_started_ = false;
  dirty_ = false;
  running_fallback_ = ActionId::kNone;
  plan_.status = PlanStatus::kIdle;
  plan_.step_count = 0;
}

RunnerCommand PlanRunner::update(const GoapDomain& d, BucketId bucket, const GoapState& facts,
                                 const Blackboard* bb, const Blackboard* group, double now_s) {
  domain_ = &d;
  fallback_ = d.bucket(bucket == BucketId::kNone ? BucketId{0} : bucket).fallback;
  const GoalId before = selector_.current;
  const GoalChoice choice = selectGoal(d, bucket, facts, bb, group, now_s, selector_);
  choice_ = choice;

  switch (phase_) {
    case RunnerPhase::kPlanning:
      return RunnerCommand::kNone;
    case RunnerPhase::kExecuting: {
      // A goal reached before the plan's end still runs its remaining steps (the pacing
      // action a goal ends with: Gloat after the fire) unless something more urgent came.
      const bool reached = plan_.goal != GoalId::kNone && goalSatisfied(d.goal(plan_.goal), facts);
      if (choice.interrupt || (choice.goal != before && !reached)) {
        phase_ = RunnerPhase::kIdle;  // interrupted: plan for the new goal right away
        replan_after_s_ = now_s;
        return step_started_ ? RunnerCommand::kStopStep : RunnerCommand::kNone;
      }
      return follow(d, facts);
    }
    case RunnerPhase::kFallback:
      // A goal became available: stop idling and plan for it.
      if (choice.goal != GoalId::kNone && now_s >= replan_after_s_) {
        phase_ = RunnerPhase::kIdle;
        running_fallback_ = ActionId::kNone;
        return RunnerCommand::kStopStep;
      }
      return RunnerCommand::kNone;
    case RunnerPhase::kIdle:
    case RunnerPhase::kCooldown:
      break;
  }
  if (choice.goal == GoalId::kNone || now_s < replan_after_s_) {
    if (fallback_ == ActionId::kNone) return RunnerCommand::kNone;
    phase_ = RunnerPhase::kFallback;
    running_fallback_ = fallback_;
    return RunnerCommand::kRunFallback;
  }
  phase_ = RunnerPhase::kPlanning;
  replan_after_s_ = now_s + d.goalSelection().replan_cooldown_s;
  ++replans_;
  return RunnerCommand::kRequestPlan;
}

void PlanRunner::onPlanReady(const PlanResult& result, double now_s) {
  if (phase_ != RunnerPhase::kPlanning) return;
  plan_ = result;
  step_ = 0;
  step_started_ = false;
  dirty_ = false;
  if (result.hasPlan() && result.step_count > 0) {
    phase_ = RunnerPhase::kExecuting;
    if (result.goal != GoalId::kNone) selector_.current = result.goal;
    return;
  }
  phase_ = RunnerPhase::kIdle;
  if (result.status == PlanStatus::kFound) {  // already satisfied
    endGoal(selector_);
    return;
  }
  // No plan for these goals now: try the others (or the fallback) and come back later.
  const double retry = domain_ ? domain_->goalSelection().retry_s : 2.0;
  // Remembering the facts the search read: retried when one changes, and not while another
  // goal's plan runs with them unchanged (goal_selector.h).
  const PlanSignature& why = result.signature;
  for (GoalId g : goals())
    blockGoal(selector_, g, now_s + retry, why.valid ? &why.read_mask : nullptr,
              why.valid ? &why.read_values : nullptr);
  endGoal(selector_);
}

void PlanRunner::adopt(const PlanResult& result) {
  plan_ = result;
  step_ = 0;
  step_started_ = false;
  dirty_ = false;
  running_fallback_ = ActionId::kNone;
  phase_ = result.hasPlan() && result.step_count > 0 ? RunnerPhase::kExecuting : RunnerPhase::kIdle;
  if (result.goal != GoalId::kNone) selector_.current = result.goal;
}

RunnerCommand PlanRunner::follow(const GoapDomain& d, const GoapState& facts) {
  domain_ = &d;
  if (phase_ != RunnerPhase::kExecuting) return RunnerCommand::kNone;
  if (dirty_) {
    dirty_ = false;
    if (firstInvalidStep(d, plan_, step_, facts, step_started_) >= 0) {
      phase_ = RunnerPhase::kCooldown;
      return step_started_ ? RunnerCommand::kStopStep : RunnerCommand::kNone;
    }
  }
  if (step_started_) return RunnerCommand::kNone;
  step_started_ = true;
  return RunnerCommand::kStartStep;
}

void PlanRunner::onStepSucceeded(double now_s, Blackboard* bb, PacingMemory* pacing,
                                 PacingMemory* group_pacing, PlannerStatistics* stats) {
  ActionId done = ActionId::kNone;
  if (phase_ == RunnerPhase::kExecuting && step_ < plan_.step_count) done = plan_.steps[step_].action;
  else if (phase_ == RunnerPhase::kFallback) done = running_fallback_;
  if (done == ActionId::kNone || !domain_) return;
  const ActionDef& a = domain_->action(done);
  for (PacingMemory* m : {pacing, group_pacing}) {
    if (!m) continue;
    m->record(a.pacing.tag, now_s);
    for (PacingTagId t : a.records) m->record(t, now_s);
  }
  if (bb)
    for (const BlackboardWrite& w : a.on_success) bb->setNumber(w.key, w.type, w.value);
  if (stats) stats->countExecuted(done, true);
  if (phase_ == RunnerPhase::kFallback) {
    phase_ = RunnerPhase::kIdle;
    running_fallback_ = ActionId::kNone;
    return;
  }
  ++step_;
  step_started_ = false;
  if (step_ >= plan_.step_count) {
    phase_ = RunnerPhase::kIdle;
    if (plan_.status == PlanStatus::kFound) endGoal(selector_);
  }
}

void PlanRunner::onStepFailed(double now_s, PlannerStatistics* stats) {
  ++failures_;
  if (phase_ == RunnerPhase::kFallback) {
    phase_ = RunnerPhase::kIdle;
    running_fallback_ = ActionId::kNone;
    return;
  }
  if (phase_ != RunnerPhase::kExecuting) return;
  if (stats && step_ < plan_.step_count) stats->countExecuted(plan_.steps[step_].action, false);
  step_started_ = false;
  phase_ = RunnerPhase::kCooldown;
  const double cooldown = domain_ ? domain_->goalSelection().replan_cooldown_s : 0.5;
  if (replan_after_s_ < now_s + cooldown) replan_after_s_ = now_s + cooldown;
}

}  // namespace npc::goap
