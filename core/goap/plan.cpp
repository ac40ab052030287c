#include "goap/plan.h"

#include <algorithm>

namespace npc::goap {

const char* toString(PlanStatus status) {
  switch (status) {
    case PlanStatus::kIdle: return "idle";
    case PlanStatus::kInProgress: return "in_progress";
    case PlanStatus::kFound: return "found";
    case PlanStatus::kPartial: return "partial";
    case PlanStatus::kNoPlan: return "no_plan";
    case PlanStatus::kInvalidRequest: return "invalid_request";
  }
  return "?";
}

const char* toString(RejectReason reason) {
  switch (reason) {
    case RejectReason::kNone: return "none";
    case RejectReason::kNotInBucket: return "not_in_bucket";
    case RejectReason::kIrrelevant: return "irrelevant";
    case RejectReason::kContextCondition: return "context_condition";
    case RejectReason::kMissingTarget: return "missing_target";
    case RejectReason::kNoCandidate: return "no_candidate";
    case RejectReason::kObjectTooFar: return "object_too_far";
    case RejectReason::kObjectUnreachable: return "object_unreachable";
    case RejectReason::kObjectOverCap: return "object_over_cap";
    case RejectReason::kCondition: return "condition";
    case RejectReason::kEffectOutOfRange: return "effect_out_of_range";
    case RejectReason::kLocationTableFull: return "location_table_full";
    case RejectReason::kDuplicate: return "duplicate";
    case RejectReason::kNodePoolFull: return "node_pool_full";
    case RejectReason::kDepthLimit: return "depth_limit";
  }
  return "?";
}

std::string explain(const PlanResult& r, const GoapDomain& d) {
  std::string out;
  if (r.status != PlanStatus::kNoPlan && r.status != PlanStatus::kPartial) return out;
  if (r.flags & kPlanOutOfNodes) out += "search ran out of nodes; ";
  if (r.flags & kPlanExpansionLimit) out += "expansion limit reached; ";
  if (r.flags & kPlanWorkLimit) out += "work budget spent; ";
  if (r.flags & kPlanWallClockLimit) out += "time budget spent; ";
  if (r.flags & kPlanDepthLimited) out += "plans longer than max_depth were not explored; ";
  if (r.flags & kPlanLocationTableFull) out += "location table full; ";
  for (int i = 0; i < r.why.count; ++i) {
    const UnmetCondition& u = r.why.unmet[i];
    const GoalDef& g = d.goal(u.goal);
    if (!out.empty() && out.back() != ' ') out += "\n";
    out += "no plan for \"" + g.name + "\": \"" + g.desired[u.desired].text + "\" never held";
    if (r.flags & kPlanRelaxedUnreachable) out += " (unreachable even ignoring negative effects)";
    if (u.achievers == 0) {
      out += "; no action in the bucket achieves it";
      continue;
    }
    out += "; achievers: ";
    for (int b = 0; b < u.blocker_count; ++b) {
      const auto& bl = u.blockers[b];
      const ActionDef& a = d.action(bl.action);
      if (b) out += ", ";
      out += a.name;
      if (bl.object != EntityId::kNone) out += "@" + std::to_string(raw(bl.object));
      if (bl.reason == RejectReason::kEffectOutOfRange && bl.effect < a.effects.size()) {
        const Effect& e = a.effects[bl.effect];
        out += " (effect \"" + d.fact(e.fact).name + (e.value < 0 ? " - " : " + ") +
               std::to_string(e.value < 0 ? -e.value : e.value) + "\" always left [" +
               std::to_string(e.min) + ", " + std::to_string(e.max) + "])";
      } else if (bl.reason != RejectReason::kNone && bl.reason != RejectReason::kCondition) {
        out += std::string(" (pruned: ") + toString(bl.reason);
        if (bl.condition != 0xffff)
          for (const Condition& c : a.conditions)
            if (c.declared == bl.condition) out += " \"" + c.text + "\"";
        out += ")";
      } else if (bl.condition != 0xffff) {
        for (const Condition& c : a.conditions)
          if (c.declared == bl.condition) out += " (never \"" + c.text + "\")";
      } else {
        out += " (applicable, but never led there)";
      }
    }
    if (u.achievers > u.blocker_count)
      out += " and " + std::to_string(u.achievers - u.blocker_count) + " more";
  }
  if (out.empty()) out = "no plan";
  return out;
}

namespace {

bool effectsInRange(const ActionDef& a, const GoapState& s) {
  for (const Effect& e : a.effects) {
    if (e.moves() || e.kind == EffectKind::kSet || e.clamp) continue;
    const int32_t v = static_cast<int32_t>(readField(s, e.field)) + e.min + e.value;
    if (v < e.min || v > e.max) return false;
  }
  return true;
}

// A precondition as execution sees it: facts only (positions change while moving; the
// executor reports a failed move), so an `any` holds when one alternative's facts do.
bool factsHold(const Condition& c, const GoapState& s, FactId location) {
  if (c.kind == ConditionKind::kFact) return c.fact == location || holds(c, s, nullptr);
  if (c.kind != ConditionKind::kAny) return true;
  for (const std::vector<Condition>& alternative : c.any)
    if (std::all_of(alternative.begin(), alternative.end(),
                    [&](const Condition& part) { return factsHold(part, s, location); }))
      return true;
  return false;
}

}  // namespace

void applyFactEffects(const ActionDef& a, GoapState& s) {
  for (const Effect& e : a.effects) {
    if (e.moves()) continue;
    int32_t v = e.value;
    if (e.kind != EffectKind::kSet) {
      v += static_cast<int32_t>(readField(s, e.field)) + e.min;
      v = v < e.min ? e.min : v > e.max ? e.max : v;
    }
    writeField(s, e.field, static_cast<uint32_t>(v - e.min));
  }
}

int firstInvalidStep(const GoapDomain& d, const PlanResult& plan, int from,
                     const GoapState& current, bool from_is_running) {
  GoapState s = current;
  const FactId loc = d.locationFact();
  for (int i = from; i < plan.step_count; ++i) {
    const ActionDef& a = d.action(plan.steps[i].action);
    const bool running = from_is_running && i == from;
    for (const Condition& c : a.conditions)
      if (!running && !factsHold(c, s, loc)) return i;
    // A step that would leave an int fact's range cannot run — unless it already is
    // running: then its outcome is the executor's, clamped.
    if (!running && !effectsInRange(a, s)) return i;
    applyFactEffects(a, s);
  }
  if (plan.goal != GoalId::kNone) {
    for (const Condition& c : d.goal(plan.goal).desired)
      if (!holds(c, s, nullptr)) return plan.step_count;
  }
  return -1;
}

}  // namespace npc::goap
