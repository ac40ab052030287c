#include "goap/trace.h"

#include <nlohmann/json.hpp>

namespace npc::goap {

using nlohmann::json;

void PlanTrace::clear() {
  domain = nullptr;
  bucket = BucketId::kNone;
  goals.clear();
  start = {};
  desired.clear();
  locations.clear();
  instances.clear();
  landmarks.clear();
  landmark_members.clear();
  expansions.clear();
  children.clear();
  rejections.clear();
  dropped = 0;
  result.status = PlanStatus::kIdle;
  result.step_count = 0;
}

size_t PlanTrace::count(RejectReason reason) const {
  size_t n = 0;
  for (const auto& r : rejections) n += r.reason == reason;
  return n;
}

namespace {

json vec(Vec3 v) { return json::array({v.x, v.y, v.z}); }

json stateJson(const GoapDomain& d, const GoapState& s) {
  json out = json::object();
  for (size_t i = 0; i < d.facts().size(); ++i) {
    const auto f = static_cast<FactId>(i);
    const int32_t v = d.get(s, f);
    switch (d.fact(f).type) {
      case FactType::kBool: out[d.fact(f).name] = v != 0; break;
      case FactType::kEnum: out[d.fact(f).name] = d.formatValue(f, v); break;
      default: out[d.fact(f).name] = v; break;
    }
  }
  return out;
}

}  // namespace

json PlanTrace::toJson() const {
  json out = json::object();
  if (!domain) return out;
  const GoapDomain& d = *domain;
  auto instanceName = [&](int32_t i) -> std::string {
    if (i < 0 || i >= static_cast<int32_t>(instances.size())) return "";
    const TraceInstance& in = instances[i];
    std::string s = d.action(in.action).name;
    if (in.object != EntityId::kNone) s += "@" + std::to_string(raw(in.object));
    return s;
  };
  out["domain"] = d.name();
  out["bucket"] = bucket != BucketId::kNone ? d.bucket(bucket).name : "";
  json goals_json = json::array();
  for (GoalId g : goals) goals_json.push_back(d.goal(g).name);
  out["goals"] = goals_json;
  out["start"] = stateJson(d, start);
  json desired_json = json::array();
  for (const auto& x : desired)
    desired_json.push_back({{"goal", d.goal(x.goal).name},
                            {"condition", d.goal(x.goal).desired[x.desired].text}});
  out["desired"] = desired_json;
  static const char* kKinds[] = {"self", "target", "object", "planned"};
  json locs = json::array();
  for (size_t i = 0; i < locations.size(); ++i) {
    const auto& l = locations[i];
    json lj = {{"slot", i}, {"kind", kKinds[l.kind & 3]}, {"position", vec(l.position)}};
    if (l.entity != EntityId::kNone) lj["entity"] = raw(l.entity);
    if (l.kind == 1) lj["target"] = d.targets()[l.index];
    locs.push_back(lj);
  }
  out["locations"] = locs;
  json inst = json::array();
  for (size_t i = 0; i < instances.size(); ++i) {
    json ij = {{"index", i}, {"action", d.action(instances[i].action).name},
               {"pacing_cost", instances[i].pacing}};
    if (instances[i].object != EntityId::kNone) ij["object"] = raw(instances[i].object);
    inst.push_back(ij);
  }
  out["instances"] = inst;
  json lms = json::array();
  for (const auto& lm : landmarks) {
    json members = json::array();
    for (uint32_t k = 0; k < lm.member_count; ++k)
      members.push_back(instanceName(landmark_members[lm.first_member + k]));
    lms.push_back({{"cost", lm.cost}, {"actions", members}});
  }
  out["landmarks"] = lms;

  auto rejectionJson = [&](const TraceRejection& r) {
    json rj = {{"action", r.action == ActionId::kNone ? json(nullptr) : json(d.action(r.action).name)},
               {"reason", toString(r.reason)}};
    if (r.node != kTraceNoNode) rj["node"] = r.node;
    if (r.instance >= 0) rj["instance"] = r.instance;
    if (r.object != EntityId::kNone) rj["object"] = raw(r.object);
    if (r.condition != 0xffff && r.action != ActionId::kNone) {
      const auto& conds = d.action(r.action).conditions;
      for (const auto& c : conds)
        if (c.declared == r.condition) rj["condition"] = c.text;
    }
    if (r.reason == RejectReason::kObjectTooFar) rj["distance_m"] = r.value;
    if (r.reason == RejectReason::kObjectOverCap) rj["rank"] = r.value;
    if (r.reason == RejectReason::kDuplicate) rj["known_g"] = r.value;
    return rj;
  };
  json pre = json::array();
  for (const auto& r : rejections)
    if (r.node == kTraceNoNode) pre.push_back(rejectionJson(r));
  out["pruned"] = pre;
  json depth = json::array();
  for (const auto& r : rejections)
    if (r.reason == RejectReason::kDepthLimit) depth.push_back(r.node);
  out["depth_limited_nodes"] = depth;

  json exps = json::array();
  for (const auto& e : expansions) {
    json ej = {{"node", e.node}, {"depth", e.depth}, {"g", e.g}, {"h", e.h}, {"f", e.g + e.h},
               {"state", stateJson(d, e.state)}};
    if (e.parent != kTraceNoNode) ej["parent"] = e.parent;
    if (e.via >= 0) ej["via"] = instanceName(e.via);
    json open = json::array();
    for (size_t i = 0; i < desired.size() && i < 32; ++i)
      if (e.open_conditions >> i & 1u) open.push_back(d.goal(desired[i].goal).desired[desired[i].desired].text);
    ej["open_conditions"] = open;
    json kids = json::array();
    for (uint32_t k = 0; k < e.child_count; ++k) {
      const TraceChild& c = children[e.first_child + k];
      kids.push_back({{"action", instanceName(c.instance)}, {"node", c.node}, {"cost", c.cost},
                      {"g", c.g}, {"h", c.h}, {"improved", c.improved}});
    }
    ej["children"] = kids;
    json rej = json::array();
    for (uint32_t k = 0; k < e.rejection_count; ++k)
      rej.push_back(rejectionJson(rejections[e.first_rejection + k]));
    ej["rejected"] = rej;
    exps.push_back(ej);
  }
  out["expansions"] = exps;
  out["dropped_events"] = dropped;

  json res = {{"status", toString(result.status)}, {"cost", result.cost},
              {"h0", result.h0}, {"expansions", result.expansions},
              {"generated", result.generated}, {"work", result.work}, {"flags", result.flags}};
  if (result.goal != GoalId::kNone) res["goal"] = d.goal(result.goal).name;
  res["heuristic"] = result.flags & kPlanExactHeuristic     ? "table"
                     : result.flags & kPlanPatternHeuristic ? "patterns"
                     : d.search().heuristic == HeuristicKind::kBlind ? "blind"
                                                                     : "lmcut";
  if (result.status == PlanStatus::kPartial)
    res["partial_accepted"] = (result.flags & kPlanPartialAccepted) != 0;
  json steps = json::array();
  for (int i = 0; i < result.step_count; ++i) {
    const PlanStep& s = result.steps[i];
    json sj = {{"action", d.action(s.action).name}, {"cost", s.cost}};
    if (s.object != EntityId::kNone) sj["object"] = raw(s.object);
    if (s.moves) sj["destination"] = vec(s.destination);
    steps.push_back(sj);
  }
  res["steps"] = steps;
  const std::string why = explain(result, d);
  if (!why.empty()) res["why"] = why;
  out["result"] = res;
  return out;
}

}  // namespace npc::goap
