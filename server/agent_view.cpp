#include "agent_view.h"

#include <nlohmann/json.hpp>

#include "proto_convert.h"
#include "world/entity.h"

namespace npc {

using nlohmann::json;

namespace {

// Readers that tolerate a missing key or a null: the views leave out what does not apply.
const json* find(const json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  const auto it = j.find(key);
  return it == j.end() || it->is_null() ? nullptr : &*it;
}
std::string text(const json& j, const char* key) {
  const json* v = find(j, key);
  return v && v->is_string() ? v->get<std::string>() : std::string();
}
template <class T>
T number(const json& j, const char* key) {
  const json* v = find(j, key);
  return v && v->is_number() ? v->get<T>() : T{};
}
bool flag(const json& j, const char* key) {
  const json* v = find(j, key);
  return v && v->is_boolean() && v->get<bool>();
}
// [x, y, z] into `out`, which stays unset when the key is absent or not three numbers.
template <class Message>
void vec(const json& j, const char* key, Message& owner, v1::Vec3* (Message::*field)()) {
  const json* v = find(j, key);
  if (!v || !v->is_array() || v->size() != 3) return;
  for (const json& c : *v) {
    if (!c.is_number()) return;
  }
  v1::Vec3& out = *(owner.*field)();
  out.set_x((*v)[0].get<float>());
  out.set_y((*v)[1].get<float>());
  out.set_z((*v)[2].get<float>());
}
const json& items(const json& j, const char* key) {
  static const json kEmpty = json::array();
  const json* v = find(j, key);
  return v && v->is_array() ? *v : kEmpty;
}

void toSelection(const json& j, v1::SelectionView& out) {
  out.set_tree(text(j, "tree"));
  out.set_behavior(text(j, "behavior"));
  out.set_leaf(text(j, "leaf"));
  if (const json* vars = find(j, "variables"); vars && vars->is_object()) {
    for (const auto& [name, value] : vars->items()) {
      (*out.mutable_variables())[name] = value.is_boolean() && value.get<bool>();
    }
  }
  for (const json& s : items(j, "path")) {
    v1::SelectionStep& step = *out.add_path();
    step.set_node(text(s, "node"));
    step.set_type(text(s, "type"));
    step.set_at(text(s, "at"));
    step.set_condition(text(s, "condition"));
    step.set_state(text(s, "state"));
  }
}

void toTargets(const json& list, google::protobuf::RepeatedPtrField<v1::PerceivedTarget>& out) {
  for (const json& t : list) {
    v1::PerceivedTarget& target = *out.Add();
    target.set_target(number<uint64_t>(t, "target"));
    target.set_coefficient(number<float>(t, "coefficient"));
    target.set_threat(number<float>(t, "threat"));
    vec(t, "position", target, &v1::PerceivedTarget::mutable_position);
  }
}

void toPerception(const json& j, v1::AgentView& out) {
  if (const json* a = find(j, "attention")) {
    v1::AttentionView& attention = *out.mutable_attention();
    attention.set_target(number<uint64_t>(*a, "target"));
    attention.set_kind(text(*a, "class"));
    attention.set_threat(number<float>(*a, "threat"));
    vec(*a, "position", attention, &v1::AttentionView::mutable_position);
  }
  toTargets(items(j, "visible"), *out.mutable_visible());
  toTargets(items(j, "memory"), *out.mutable_memory());
}

void toIntentions(const json& j, v1::AgentView& out) {
  const json* queue = find(j, "queue");
  if (!queue) return;
  out.set_current_intention(number<uint64_t>(*queue, "current"));
  for (const json& in : items(*queue, "intentions")) {
    v1::IntentionView& view = *out.add_intentions();
    view.set_id(number<uint64_t>(in, "id"));
    view.set_action(text(in, "action"));
    view.set_phase(text(in, "phase"));
    view.set_progress(number<float>(in, "progress"));
    view.set_coercive(flag(in, "coercive"));
    view.set_game(flag(in, "game"));
    view.set_side(text(in, "side"));
    view.set_date_s(number<double>(in, "date_s"));
    view.set_depends_on(number<uint64_t>(in, "depends_on"));
  }
}

void toPlan(const json& j, v1::PlanView& out) {
  out.set_status(text(j, "status"));
  out.set_cost(number<float>(j, "cost"));
  out.set_expansions(number<uint64_t>(j, "expansions"));
  out.set_step(number<uint32_t>(j, "step"));
  out.set_why(text(j, "why"));
  out.set_goal(text(j, "goal"));
  for (const json& s : items(j, "steps")) {
    v1::PlanStepView& step = *out.add_steps();
    step.set_action(text(s, "action"));
    step.set_cost(number<float>(s, "cost"));
    step.set_object(number<uint64_t>(s, "object"));
    vec(s, "destination", step, &v1::PlanStepView::mutable_destination);
  }
}

void toPlanner(const json& j, v1::PlannerView& out) {
  out.set_name(text(j, "name"));
  out.set_domain(text(j, "domain"));
  out.set_phase(text(j, "phase"));
  out.set_goal(text(j, "goal"));
  out.set_facts(text(j, "facts"));
  out.set_searches(number<uint64_t>(j, "searches"));
  out.set_replans(number<uint64_t>(j, "replans"));
  out.set_step_failures(number<uint64_t>(j, "step_failures"));
  out.set_traced(flag(j, "traced"));
  if (const json* plan = find(j, "plan")) toPlan(*plan, *out.mutable_plan());
}

void toRejection(const json& j, v1::PlanRejection& out) {
  out.set_action(text(j, "action"));
  out.set_reason(text(j, "reason"));
  out.set_condition(text(j, "condition"));
  out.set_object(number<uint64_t>(j, "object"));
}

void toExpansion(const json& j, v1::PlanExpansion& out) {
  out.set_node(number<uint32_t>(j, "node"));
  if (find(j, "parent")) out.set_parent(number<uint32_t>(j, "parent"));
  out.set_depth(number<uint32_t>(j, "depth"));
  out.set_g(number<float>(j, "g"));
  out.set_h(number<float>(j, "h"));
  out.set_via(text(j, "via"));
  for (const json& c : items(j, "open_conditions")) {
    if (c.is_string()) out.add_open_conditions(c.get<std::string>());
  }
  for (const json& c : items(j, "children")) {
    v1::PlanChild& child = *out.add_children();
    child.set_action(text(c, "action"));
    child.set_node(number<uint32_t>(c, "node"));
    child.set_cost(number<float>(c, "cost"));
    child.set_g(number<float>(c, "g"));
    child.set_h(number<float>(c, "h"));
    child.set_improved(flag(c, "improved"));
  }
  for (const json& r : items(j, "rejected")) toRejection(r, *out.add_rejected());
}

void toSearch(const json& j, v1::PlanSearchView& out) {
  out.set_domain(text(j, "domain"));
  out.set_bucket(text(j, "bucket"));
  for (const json& g : items(j, "goals")) {
    if (g.is_string()) out.add_goals(g.get<std::string>());
  }
  for (const json& e : items(j, "expansions")) toExpansion(e, *out.add_expansions());
  for (const json& r : items(j, "pruned")) toRejection(r, *out.add_pruned());
  if (const json* result = find(j, "result")) {
    toPlan(*result, *out.mutable_result());
    out.set_generated(number<uint64_t>(*result, "generated"));
  }
}

}  // namespace

void toAgentView(const json& j, v1::AgentView& out) {
  out.set_id(number<uint64_t>(j, "id"));
  out.set_archetype(text(j, "archetype"));
  out.set_group(text(j, "group"));
  out.set_group_number(number<uint32_t>(j, "group_number"));
  out.set_species(text(j, "species"));
  if (const auto kind = parseEntityKind(text(j, "kind"))) out.set_kind(toProto(*kind));
  out.set_asleep(flag(j, "asleep"));
  out.set_asleep_for_s(number<double>(j, "asleep_for_s"));
  out.set_active(flag(j, "active"));
  out.set_place(text(j, "place"));
  out.set_owner(number<uint64_t>(j, "owner"));
  vec(j, "position", out, &v1::AgentView::mutable_position);
  vec(j, "forward", out, &v1::AgentView::mutable_forward);
  vec(j, "home", out, &v1::AgentView::mutable_home);
  if (const json* b = find(j, "behavior")) {
    out.mutable_behavior()->set_name(text(*b, "name"));
    out.mutable_behavior()->set_mode(text(*b, "mode"));
    out.mutable_behavior()->set_tree(text(*b, "tree"));
  }
  if (const json* s = find(j, "selection")) toSelection(*s, *out.mutable_selection());
  if (const json* p = find(j, "perception")) toPerception(*p, out);
  if (const json* i = find(j, "intentions")) toIntentions(*i, out);
  if (const json* inv = find(j, "inventory"); inv && inv->is_object()) {
    for (const auto& [item, count] : inv->items()) {
      (*out.mutable_inventory())[item] = count.is_number() ? count.get<int64_t>() : 0;
    }
  }
  if (const json* p = find(j, "planner")) toPlanner(*p, *out.mutable_planner());
  for (const json& p : items(j, "planners")) toPlanner(p, *out.add_planners());
  if (const json* w = find(j, "work")) out.set_long_action(text(*w, "action"));
  out.set_actions_completed(number<uint64_t>(j, "actions_completed"));
  out.set_actions_failed(number<uint64_t>(j, "actions_failed"));
  out.set_tick(number<uint64_t>(j, "tick"));
}

void addTypedView(const std::string& view, v1::GetAgentResponse& out) {
  const json j = json::parse(view, nullptr, false);
  if (!j.is_discarded()) toAgentView(j, *out.mutable_agent());
}

void addTypedView(const std::string& view, v1::GetPlanTraceResponse& out) {
  const json j = json::parse(view, nullptr, false);
  if (!j.is_discarded()) toPlanTraceResponse(j, out);
}

void toPlanTraceResponse(const json& j, v1::GetPlanTraceResponse& out) {
  out.set_agent(number<uint64_t>(j, "agent"));
  out.set_traced(flag(j, "traced"));
  if (const json* p = find(j, "planner")) toPlanner(*p, *out.mutable_planner());
  if (const json* t = find(j, "trace"); t && t->is_object() && !t->empty()) {
    toSearch(*t, *out.mutable_trace());
  }
}

}  // namespace npc
