#include "goap/statistics.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace npc::goap {

using nlohmann::json;

PlannerStatistics::PlannerStatistics(const GoapDomain& domain) : domain_(&domain) {
  actions_.resize(domain.actions().size());
  first_.resize(domain.actions().size());
  uint32_t n = 0;
  for (size_t i = 0; i < domain.actions().size(); ++i) {
    first_[i] = n;
    n += static_cast<uint32_t>(domain.actions()[i].conditions.size());
  }
  conditions_.resize(n);
}

std::vector<ActionId> PlannerStatistics::neverUsed() const {
  std::vector<ActionId> out;
  for (size_t i = 0; i < actions_.size(); ++i)
    if (actions_[i].planned == 0) out.push_back(static_cast<ActionId>(i));
  return out;
}

std::vector<uint16_t> PlannerStatistics::conditionOrder(ActionId a) const {
  const auto& conds = domain_->action(a).conditions;
  std::vector<uint16_t> order(conds.size());
  std::vector<double> key(conds.size());
  for (size_t i = 0; i < conds.size(); ++i) {
    order[i] = static_cast<uint16_t>(i);
    const ConditionStats& s = conditions_[first_[idx(a)] + conds[i].declared];
    const double rate = s.evaluations ? static_cast<double>(s.failures) / s.evaluations : 0.5;
    key[i] = conds[i].eval_cost / std::max(rate, 1e-6);
  }
  std::stable_sort(order.begin(), order.end(), [&](uint16_t x, uint16_t y) {
    if (key[x] != key[y]) return key[x] < key[y];
    return conds[x].declared < conds[y].declared;
  });
  return order;
}

void PlannerStatistics::applyTo(GoapDomain& domain) const {
  if (&domain != domain_) return;
  for (size_t i = 0; i < actions_.size(); ++i) {
    const auto a = static_cast<ActionId>(i);
    domain.reorderConditions(a, conditionOrder(a));
  }
}

void PlannerStatistics::merge(const PlannerStatistics& o) {
  if (o.domain_ != domain_) return;
  for (size_t i = 0; i < actions_.size(); ++i) {
    actions_[i].checks += o.actions_[i].checks;
    actions_[i].applicable += o.actions_[i].applicable;
    actions_[i].planned += o.actions_[i].planned;
    actions_[i].succeeded += o.actions_[i].succeeded;
    actions_[i].failed += o.actions_[i].failed;
  }
  for (size_t i = 0; i < conditions_.size(); ++i) {
    conditions_[i].evaluations += o.conditions_[i].evaluations;
    conditions_[i].failures += o.conditions_[i].failures;
  }
}

void PlannerStatistics::reset() {
  std::fill(actions_.begin(), actions_.end(), ActionStats{});
  std::fill(conditions_.begin(), conditions_.end(), ConditionStats{});
}

json PlannerStatistics::toJson() const {
  json actions = json::object();
  for (size_t i = 0; i < actions_.size(); ++i) {
    const ActionDef& a = domain_->actions()[i];
    const ActionStats& s = actions_[i];
    json conds = json::array();
    // Declared order, so the file is stable whatever the current evaluation order is.
    std::vector<const Condition*> by_declared(a.conditions.size());
    for (const Condition& c : a.conditions) by_declared[c.declared] = &c;
    for (const Condition* c : by_declared) {
      const ConditionStats& cs = conditions_[first_[i] + c->declared];
      conds.push_back({{"condition", c->text}, {"evaluations", cs.evaluations},
                       {"failures", cs.failures}, {"eval_cost", c->eval_cost}});
    }
    actions[a.name] = {{"checks", s.checks},       {"applicable", s.applicable},
                       {"planned", s.planned},     {"succeeded", s.succeeded},
                       {"failed", s.failed},       {"conditions", conds}};
  }
  json never = json::array();
  for (ActionId a : neverUsed()) never.push_back(domain_->action(a).name);
  return {{"domain", domain_->name()}, {"actions", actions}, {"never_used", never}};
}

Status PlannerStatistics::fromJson(const json& j) {
  if (!j.is_object() || !j.contains("actions") || !j["actions"].is_object())
    return {StatusCode::kInvalidArgument, "statistics: expected {\"actions\": {...}}"};
  if (j.contains("domain") && j["domain"] != domain_->name())
    return {StatusCode::kInvalidArgument, "statistics: made for domain " + j["domain"].dump() +
                                              ", not \"" + domain_->name() + "\""};
  auto u64 = [](const json& o, const char* key) -> uint64_t {
    auto it = o.find(key);
    if (it == o.end() || !it->is_number_integer() || it->get<int64_t>() < 0) return uint64_t{0};
    return it->get<uint64_t>();
  };
  const json& actions = j["actions"];
  for (auto it = actions.begin(); it != actions.end(); ++it) {
    const ActionId a = domain_->findAction(it.key());
    if (a == ActionId::kNone || !it->is_object()) continue;
    ActionStats& s = actions_[idx(a)];
    s.checks += u64(*it, "checks");
    s.applicable += u64(*it, "applicable");
    s.planned += u64(*it, "planned");
    s.succeeded += u64(*it, "succeeded");
    s.failed += u64(*it, "failed");
    auto conds = it->find("conditions");
    if (conds == it->end() || !conds->is_array()) continue;
    for (const json& c : *conds) {
      if (!c.is_object() || !c.contains("condition") || !c["condition"].is_string()) continue;
      const std::string text = c["condition"].get<std::string>();
      for (const Condition& dc : domain_->action(a).conditions) {
        if (dc.text != text) continue;
        ConditionStats& cs = conditions_[first_[idx(a)] + dc.declared];
        cs.evaluations += u64(c, "evaluations");
        cs.failures += u64(c, "failures");
        break;
      }
    }
  }
  return Status::ok();
}

Status PlannerStatistics::save(const std::string& path) const {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return {StatusCode::kUnavailable, path + ": cannot write statistics"};
  out << toJson().dump(2) << '\n';
  return out ? Status::ok() : Status{StatusCode::kUnavailable, path + ": write failed"};
}

Status PlannerStatistics::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {StatusCode::kNotFound, path + ": cannot open statistics"};
  std::stringstream buffer;
  buffer << in.rdbuf();
  json j = json::parse(buffer.str(), nullptr, false);
  if (j.is_discarded()) return {StatusCode::kInvalidArgument, path + ": not valid JSON"};
  Status s = fromJson(j);
  if (!s.isOk()) return {s.code(), path + ": " + s.message()};
  return s;
}

}  // namespace npc::goap
