// PlanRunner: one agent's plan life cycle as a small state machine, independent of how
// steps are executed (the caller turns steps into intentions, issue 06).
//
//   update() ──kRequestPlan──▶ caller plans (PlanRequest with goals(), previous = plan())
//        ▲                       └─▶ onPlanReady(result)
//        │                                  │ plan            │ no plan / empty
//        │                                  ▼                 ▼
//        │       kStartStep ◀── executing   blockGoal(retry_s) → next goal or kRunFallback
//        │           │
//        │   onStepSucceeded → next step … last step: goal reached → idle
//        │   onStepFailed    → cooldown (replan_cooldown_s) → kRequestPlan
//        │   worldChanged    → next update() applies the running step's effects to the
//        │                     facts and re-checks the following steps' fact
//        │                     preconditions and the goal (firstInvalidStep); broken →
//        │                     kStopStep, replan after the cooldown
//        └── a more urgent goal (GoalChoice::interrupt) or the goal no longer wanted →
//            kStopStep, then plan for the new goal (no cooldown for interruptions); a goal
//            reached early still runs the plan's remaining steps (its end_with action)
//
// Replans are rate-limited by goal_selection.replan_cooldown_s; a request whose inputs did
// not change returns the previous result without searching (PlanRequest::previous).
// Partial plans (a limit hit) are executed, then the agent replans from where it got.
//
// Memory: ≈2.9 KB per agent (the PlanResult and the goal blocking memory are inline), no heap.
#pragma once

#include <cstdint>
#include <span>

#include "goap/goal_selector.h"
#include "goap/plan.h"

namespace npc::goap {

class PlannerStatistics;

enum class RunnerPhase : uint8_t {
  kIdle,       // nothing running
  kPlanning,   // waiting for onPlanReady
  kExecuting,  // running plan().steps[stepIndex()]
  kFallback,   // running the bucket's fallback action
  kCooldown,   // a step failed or the plan broke: waiting to replan
};
const char* toString(RunnerPhase phase);

enum class RunnerCommand : uint8_t {
  kNone,         // keep going
  kRequestPlan,  // plan for goals() and call onPlanReady()
  kStartStep,    // start currentStep()
  kStopStep,     // cancel the running step (interrupted or invalid); update() again next tick
  kRunFallback,  // start fallback() (an always-available action of the bucket)
};
const char* toString(RunnerCommand command);

class PlanRunner {
 public:
  // Call once per tick (or when something changed). Cheap when nothing happens.
  RunnerCommand update(const GoapDomain& domain, BucketId bucket, const GoapState& facts,
                       const Blackboard* blackboard, const Blackboard* group, double now_s);

  void onPlanReady(const PlanResult& result, double now_s);
  // The running step (or fallback) succeeded: records pacing, applies "on_success"
  // blackboard writes, counts statistics, advances. Any pointer may be null.
  void onStepSucceeded(double now_s, Blackboard* blackboard, PacingMemory* pacing,
                       PacingMemory* group_pacing, PlannerStatistics* stats = nullptr);
  void onStepFailed(double now_s, PlannerStatistics* stats = nullptr);
  // Tree-driven use (MBT <Plan> / <ExecutePlan>): the tree chose the goal and planned, the
  // runner only executes. adopt() takes a plan (executing when it has steps, else idle);
  // follow() is update() without goal selection or fallback: kStartStep for the next
  // step, kStopStep when facts broke the rest of the plan (phase → cooldown), else kNone.
  void adopt(const PlanResult& result);
  RunnerCommand follow(const GoapDomain& domain, const GoapState& facts);

  // Facts changed while executing: the next update() re-validates the rest of the plan.
  void worldChanged() { dirty_ = true; }
  // Abandons everything (behavior left, agent despawned).
  void reset();

  RunnerPhase phase() const { return phase_; }
  // Snapshots copy runners as bytes: the copy taken forgets its domain (nullptr), the copy
  // restored is pointed at this process's (the same definitions).
  void rebind(const GoapDomain* domain) { domain_ = domain; }
  std::span<const GoalId> goals() const { return {choice_.alternatives.data(), choice_.alternative_count}; }
  GoalId goal() const { return choice_.goal; }
  const PlanResult& plan() const { return plan_; }
  int stepIndex() const { return step_; }
  const PlanStep* currentStep() const {
    return phase_ == RunnerPhase::kExecuting && step_ < plan_.step_count ? &plan_.steps[step_]
                                                                          : nullptr;
  }
  ActionId fallback() const { return fallback_; }
  uint32_t replans() const { return replans_; }
  uint32_t failures() const { return failures_; }

 private:
  const GoapDomain* domain_ = nullptr;
  GoalSelectorState selector_;
  GoalChoice choice_;
  PlanResult plan_;
  RunnerPhase phase_ = RunnerPhase::kIdle;
  uint8_t step_ = 0;
  bool step_started_ = false;
  bool dirty_ = false;
  ActionId fallback_ = ActionId::kNone;
  ActionId running_fallback_ = ActionId::kNone;
  double replan_after_s_ = 0.0;
  uint32_t replans_ = 0;
  uint32_t failures_ = 0;
};

}  // namespace npc::goap
