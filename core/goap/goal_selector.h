// Goal selection: which goal an agent plans for, given its bucket, facts and blackboards.
//
// A goal is a candidate when it belongs to the bucket, all its "relevant" conditions hold
// (facts, agent or group blackboard), its desired facts do not already hold, and it is not
// blocked (a goal that failed to plan is skipped for goal_selection.retry_s). The candidate
// with the highest priority wins (ties: bucket order).
//
// Hysteresis and interruption: while a goal runs, it is kept as long as it stays a
// candidate unless another candidate's priority exceeds it by more than
// goal_selection.hysteresis; then `interrupt` is set and the running plan must stop. A
// running goal that stops being a candidate (reached, irrelevant) is replaced without
// `interrupt` (changed only).
//
// Several goals in one search: `alternatives` lists every candidate at the chosen
// priority (≤ kMaxGoalsPerRequest), ready to be passed as one multi-goal PlanRequest.
// Nothing relevant: goal = kNone; the caller runs the bucket's fallback so the agent never
// stalls silently.
//
// Blocking remembers why: a goal blocked with the facts its "no plan" read (the search's
// read mask and their values) is retried as soon as one of those facts changes, even before
// retry_s; and while they are unchanged it stays blocked past retry_s as long as another
// goal is running, so a blocked higher goal does not interrupt feasible work every retry_s.
// (Smart objects and targets are not facts: with nothing running, retry_s still retries.)
//
// State: GoalSelectorState, ≈ 310 bytes per agent, no heap.
#pragma once

#include <array>
#include <cstdint>

#include "goap/domain.h"

namespace npc::goap {

struct GoalSelectorState {
  GoalId current = GoalId::kNone;
  std::array<GoalId, 4> blocked{GoalId::kNone, GoalId::kNone, GoalId::kNone, GoalId::kNone};
  std::array<double, 4> blocked_until{};
  std::array<GoapState, 4> blocked_mask{};    // facts the failed search read (empty: none)
  std::array<GoapState, 4> blocked_values{};  // their values then
};

struct GoalChoice {
  GoalId goal = GoalId::kNone;
  bool changed = false;    // differs from the goal that was running
  bool interrupt = false;  // the running goal is still valid but a more urgent one wins
  std::array<GoalId, kMaxGoalsPerRequest> alternatives{};
  uint8_t alternative_count = 0;
};

// Does the goal's relevance hold (empty = always)? Blackboards may be null (unset keys fail).
bool goalRelevant(const GoalDef& goal, const GoapState& facts, const Blackboard* agent,
                  const Blackboard* group);
bool goalSatisfied(const GoalDef& goal, const GoapState& facts);

// Chooses and records the goal in `state` (see above).
GoalChoice selectGoal(const GoapDomain& domain, BucketId bucket, const GoapState& facts,
                      const Blackboard* agent, const Blackboard* group, double now_s,
                      GoalSelectorState& state);

// The goal failed to plan: skip it until now_s + retry_s (the oldest block is replaced when
// four are already blocked). With `read_mask`/`facts`: the fields the failed search read and
// the facts it started from (see above).
void blockGoal(GoalSelectorState& state, GoalId goal, double until_s,
               const GoapState* read_mask = nullptr, const GoapState* facts = nullptr);
// The running goal ended (reached or abandoned): the next selection starts fresh.
inline void endGoal(GoalSelectorState& state) { state.current = GoalId::kNone; }

}  // namespace npc::goap
