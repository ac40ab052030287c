#include "goap/goal_selector.h"

namespace npc::goap {

bool goalRelevant(const GoalDef& goal, const GoapState& facts, const Blackboard* agent,
                  const Blackboard* group) {
  for (const Condition& c : goal.relevant) {
    if (c.kind == ConditionKind::kBlackboard) {
      const Blackboard* bb = c.scope == BlackboardScope::kAgent ? agent : group;
      const std::optional<float> v = bb ? bb->number(c.key) : std::nullopt;
      if (!v || !compare(c.op, *v, c.number)) return false;
    } else if (!holds(c, facts, nullptr)) {
      return false;
    }
  }
  return true;
}

bool goalSatisfied(const GoalDef& goal, const GoapState& facts) {
  for (const Condition& c : goal.desired)
    if (!holds(c, facts, nullptr)) return false;
  return true;
}

namespace {
bool blocked(const GoalSelectorState& s, GoalId g, const GoapState& facts, double now_s) {
  for (size_t i = 0; i < s.blocked.size(); ++i) {
    if (s.blocked[i] != g) continue;
    const GoapState& mask = s.blocked_mask[i];
    bool remembered = false, unchanged = true;
    for (int w = 0; w < kStateWords; ++w) {
      remembered = remembered || mask.w[w] != 0;
      unchanged = unchanged && (facts.w[w] & mask.w[w]) == s.blocked_values[i].w[w];
    }
    if (!remembered) return now_s < s.blocked_until[i];
    // Another goal running counts as "running", not the blocked one itself.
    const bool other_running = s.current != GoalId::kNone && s.current != g;
    return unchanged && (now_s < s.blocked_until[i] || other_running);
  }
  return false;
}
}  // namespace

void blockGoal(GoalSelectorState& s, GoalId goal, double until_s, const GoapState* read_mask,
               const GoapState* facts) {
  size_t at = 0;
  for (size_t i = 0; i < s.blocked.size(); ++i) {
    if (s.blocked[i] == goal) {
      at = i;
      break;
    }
    if (s.blocked_until[i] < s.blocked_until[at]) at = i;
  }
  s.blocked[at] = goal;
  s.blocked_until[at] = until_s;
  s.blocked_mask[at] = read_mask && facts ? *read_mask : GoapState{};
  for (int w = 0; w < kStateWords; ++w)
    s.blocked_values[at].w[w] = facts ? facts->w[w] & s.blocked_mask[at].w[w] : 0;
}

GoalChoice selectGoal(const GoapDomain& d, BucketId bucket, const GoapState& facts,
                      const Blackboard* agent, const Blackboard* group, double now_s,
                      GoalSelectorState& state) {
  GoalChoice out;
  const BucketDef& b = d.bucket(bucket == BucketId::kNone ? BucketId{0} : bucket);
  GoalId best = GoalId::kNone;
  bool current_ok = false;
  for (GoalId g : b.goals) {
    const GoalDef& gd = d.goal(g);
    if (blocked(state, g, facts, now_s) || goalSatisfied(gd, facts) ||
        !goalRelevant(gd, facts, agent, group))
      continue;
    if (g == state.current) current_ok = true;
    if (best == GoalId::kNone || gd.priority > d.goal(best).priority) best = g;
  }
  GoalId chosen = best;
  if (current_ok && best != state.current) {
    const float margin = d.goalSelection().hysteresis;
    if (d.goal(best).priority > d.goal(state.current).priority + margin) {
      out.interrupt = true;
    } else {
      chosen = state.current;
    }
  }
  out.goal = chosen;
  out.changed = chosen != state.current;
  state.current = chosen;
  if (chosen == GoalId::kNone) return out;
  const float p = d.goal(chosen).priority;
  out.alternatives[out.alternative_count++] = chosen;
  for (GoalId g : b.goals) {
    if (g == chosen || out.alternative_count >= kMaxGoalsPerRequest) continue;
    const GoalDef& gd = d.goal(g);
    if (gd.priority == p && !blocked(state, g, facts, now_s) && !goalSatisfied(gd, facts) &&
        goalRelevant(gd, facts, agent, group))
      out.alternatives[out.alternative_count++] = g;
  }
  return out;
}

}  // namespace npc::goap
