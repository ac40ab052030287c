// DomainLoader, part 2: the reusable building blocks — conditions, effects, costs, location
// refs, comparison operators and fact values (see domain_loader.h for their JSON forms).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "base/json_schema.h"
#include "goap/domain_loader.h"

namespace npc::goap {

using nlohmann::json;

void DomainLoader::parseConditions(const json& list, const std::string& path, ConditionSite site,
                                   bool has_object, std::vector<Condition>& out) {
  if (!reader_.isArray(list, path)) return;
  for (size_t i = 0; i < list.size(); ++i)
    parseCondition(list[i], joinPath(path, i), site, has_object, out);
}

void DomainLoader::parseCondition(const json& j, const std::string& path, ConditionSite site,
                                  bool has_object, std::vector<Condition>& out) {
  if (!reader_.isObject(j, path)) return;
  const bool allow_location = site == ConditionSite::kPrecondition;
  const bool allow_blackboard = site != ConditionSite::kDesired;
  if (j.contains("use")) {
    json expanded;
    const Fragment* f = useFragment(j, path, cond_fragments_, "condition", expanded);
    if (!f) return;
    const std::string saved = note_;
    note_ += " (in condition \"" + j["use"].get<std::string>() + "\" used at " + path + ")";
    // The schema saw the fragment's body with its "$param"s; its expansion is checked here.
    if (reader_.validatePart(expanded, SchemaId::kGoapDomain, "conditionList", f->path, note_))
      parseConditions(expanded, f->path, site, has_object, out);
    note_ = saved;
    return;
  }
  Condition c;
  c.declared = static_cast<uint16_t>(out.size());
  if (j.contains("any")) {
    // A goal's relevance is checked by the goal selector, condition by condition, outside
    // the planner's variants; `any` is for what the planner searches.
    if (site == ConditionSite::kRelevant) {
      err(path, "\"any\" is only available in action preconditions and goal \"desired\"");
      return;
    }
    if (!parseAny(j["any"], joinPath(path, "any"), site, has_object, c)) return;
  } else if (j.contains("fact") && j.contains("in")) {
    c.kind = ConditionKind::kFact;
    c.fact = factByName(j, path, "fact");
    if (c.fact == FactId::kNone || !parseIn(j["in"], joinPath(path, "in"), c)) return;
  } else if (j.contains("fact")) {
    c.kind = ConditionKind::kFact;
    c.fact = factByName(j, path, "fact");
    if (!parseOp(j, path, c.op) || c.fact == FactId::kNone) return;
    auto v = j.find("value");
    if (v == j.end()) {
      err(joinPath(path, "value"), "missing required key");
      return;
    }
    const bool ordering = c.op != CompareOp::kEq && c.op != CompareOp::kNe;
    if (!factValue(c.fact, *v, joinPath(path, "value"), ordering, c.value)) return;
    if (ordering && d_->fact(c.fact).type == FactType::kBool) {
      err(joinPath(path, "op"), "a bool fact is compared with = or != only");
      return;
    }
  } else if (j.contains("distance_to") || j.contains("at")) {
    const bool at = j.contains("at");
    if (!allow_location) {
      err(path, "goal conditions may only test facts");
      return;
    }
    c.kind = at ? ConditionKind::kAt : ConditionKind::kDistance;
    c.eval_cost = 4;
    if (!parseRef(j[at ? "at" : "distance_to"], joinPath(path, at ? "at" : "distance_to"),
                  has_object, c.ref))
      return;
    if (!at) {
      if (!parseOp(j, path, c.op)) return;
      auto v = reader_.number(j, path, "value", true);
      if (!v) return;
      if (!(*v >= 0)) err(joinPath(path, "value"), "a distance is ≥ 0 metres");
      c.metres = static_cast<float>(*v);
    } else {
      c.metres = d_->search_.at_tolerance_m;
    }
    uses_location_ = true;
  } else if (j.contains("blackboard")) {
    if (!allow_blackboard) {
      err(path, "goal conditions may only test facts");
      return;
    }
    c.kind = ConditionKind::kBlackboard;
    c.eval_cost = 2;
    auto key = reader_.string(j, path, "blackboard", true);
    if (!key) return;
    c.key = library_.blackboard().find(*key);
    if (c.key == BlackboardKeyId::kNone) {
      err(joinPath(path, "blackboard"), "unknown blackboard key \"" + *key + "\"");
      return;
    }
    const BlackboardType t = library_.blackboard().type(c.key);
    if (t == BlackboardType::kEntity || t == BlackboardType::kVec3) {
      err(joinPath(path, "blackboard"),
          "blackboard key \"" + *key + "\" of type " + toString(t) + " cannot be compared");
      return;
    }
    if (auto s = reader_.string(j, path, "scope", false)) {
      if (*s == "agent") c.scope = BlackboardScope::kAgent;
      else if (*s == "group") c.scope = BlackboardScope::kGroup;
      else err(joinPath(path, "scope"), "expected \"agent\" or \"group\"");
    }
    if (!parseOp(j, path, c.op)) return;
    auto v = j.find("value");
    if (v == j.end() || !(v->is_boolean() || v->is_number())) {
      err(joinPath(path, "value"), "expected a bool or a number");
      return;
    }
    c.number = v->is_boolean() ? (v->get<bool>() ? 1.f : 0.f) : v->get<float>();
  } else {
    err(path, "a condition has one of \"fact\", \"distance_to\", \"at\", \"blackboard\", "
              "\"any\", \"use\"");
    return;
  }
  if (auto v = reader_.integer(j, path, "eval_cost", false)) {
    if (*v < 1 || *v > 10000) err(joinPath(path, "eval_cost"), "must be in [1, 10000]");
    else c.eval_cost = static_cast<uint16_t>(*v);
  }
  out.push_back(std::move(c));
}

// {"any": [cond, ...]}: at least 2 alternatives; each is one condition, or the conjunction a
// "use" fragment expands to; alternatives do not nest.
bool DomainLoader::parseAny(const json& list, const std::string& path, ConditionSite site,
                            bool has_object, Condition& out) {
  if (!list.is_array() || list.size() < 2) {
    err(path, "expected an array of at least 2 alternative conditions");
    return false;
  }
  out.kind = ConditionKind::kAny;
  out.eval_cost = 0;
  bool ok = true;
  for (size_t k = 0; k < list.size(); ++k) {
    const std::string at = joinPath(path, k);
    std::vector<Condition> alternative;
    const size_t errors = reader_.errors().size();
    parseCondition(list[k], at, site, has_object, alternative);
    if (reader_.errors().size() != errors) {
      ok = false;
      continue;
    }
    if (alternative.empty()) {
      err(at, "an alternative needs at least one condition");
      ok = false;
    }
    for (const Condition& part : alternative) {
      if (part.kind == ConditionKind::kAny) {
        err(at, "\"any\" cannot be nested (list the alternatives in one \"any\")");
        ok = false;
        break;
      }
      out.eval_cost = static_cast<uint16_t>(std::min(10000, out.eval_cost + part.eval_cost));
    }
    out.any.push_back(std::move(alternative));
  }
  return ok;
}

// {"fact": f, "in": [value, ...]} on an enum fact: a set of accepted values.
bool DomainLoader::parseIn(const json& list, const std::string& path, Condition& out) {
  const FactDef& f = d_->fact(out.fact);
  if (f.type != FactType::kEnum) {
    err(path, "\"in\" applies to enum facts only (\"" + f.name + "\" is not an enum)");
    return false;
  }
  if (!list.is_array() || list.empty()) {
    err(path, "expected a non-empty array of values of enum fact \"" + f.name + "\"");
    return false;
  }
  for (size_t k = 0; k < list.size(); ++k) {
    int32_t v = 0;
    if (!factValue(out.fact, list[k], joinPath(path, k), false, v)) return false;
    out.accepted |= 1ull << v;  // an enum's raw value is its index
    out.value = v;
  }
  // One value is plain equality (the fast path's mask test).
  out.op = std::popcount(out.accepted) == 1 ? CompareOp::kEq : CompareOp::kIn;
  return true;
}

void DomainLoader::parseEffects(const json& list, const std::string& path, bool has_object,
                                std::vector<Effect>& out) {
  if (!reader_.isArray(list, path)) return;
  for (size_t i = 0; i < list.size(); ++i) parseEffect(list[i], joinPath(path, i), has_object, out);
}

void DomainLoader::parseEffect(const json& j, const std::string& path, bool has_object,
                               std::vector<Effect>& out) {
  if (!reader_.isObject(j, path)) return;
  if (j.contains("use")) {
    json expanded;
    const Fragment* f = useFragment(j, path, effect_fragments_, "effect", expanded);
    if (!f) return;
    const std::string saved = note_;
    note_ += " (in effect \"" + j["use"].get<std::string>() + "\" used at " + path + ")";
    if (reader_.validatePart(expanded, SchemaId::kGoapDomain, "effectList", f->path, note_))
      parseEffects(expanded, f->path, has_object, out);
    note_ = saved;
    return;
  }
  Effect e;
  if (j.contains("fact")) {
    e.fact = factByName(j, path, "fact");
    if (e.fact == FactId::kNone) return;
    const int kinds = j.contains("set") + j.contains("add") + j.contains("sub");
    if (kinds != 1) {
      err(path, "a fact effect has exactly one of \"set\", \"add\", \"sub\"");
      return;
    }
    if (j.contains("set")) {
      e.kind = EffectKind::kSet;
      if (!factValue(e.fact, j["set"], joinPath(path, "set"), false, e.value)) return;
    } else {
      const char* key = j.contains("add") ? "add" : "sub";
      if (d_->fact(e.fact).type != FactType::kInt) {
        err(joinPath(path, key), "add/sub apply to int facts only");
        return;
      }
      auto n = reader_.integer(j, path, key, true);
      if (!n) return;
      if (*n <= 0 || *n > kMaxFactValues) {
        err(joinPath(path, key), "expected a positive amount");
        return;
      }
      e.kind = EffectKind::kAdd;
      e.value = static_cast<int32_t>(key[0] == 'a' ? *n : -*n);
    }
    if (auto clamp = reader_.boolean(j, path, "clamp", false)) {
      if (e.kind != EffectKind::kAdd) {
        err(joinPath(path, "clamp"), "\"clamp\" applies to \"add\" and \"sub\" only");
        return;
      }
      e.clamp = *clamp;
    }
    for (const Effect& other : out)
      if (!other.moves() && other.fact == e.fact) {
        err(joinPath(path, "fact"), "fact \"" + d_->fact(e.fact).name + "\" is changed twice");
        return;
      }
  } else if (j.contains("move_to") || j.contains("move_near")) {
    const bool near = j.contains("move_near");
    e.kind = near ? EffectKind::kMoveNear : EffectKind::kMoveTo;
    if (!parseRef(j[near ? "move_near" : "move_to"], joinPath(path, near ? "move_near" : "move_to"),
                  has_object, e.ref))
      return;
    if (near) {
      auto r = reader_.number(j, path, "range", true);
      if (!r) return;
      if (!(*r > 0)) err(joinPath(path, "range"), "must be > 0 metres");
      e.range_m = static_cast<float>(*r);
    }
    for (const Effect& other : out)
      if (other.moves()) {
        err(path, "an action moves at most once");
        return;
      }
    uses_location_ = true;
  } else {
    err(path, "an effect has one of \"fact\", \"move_to\", \"move_near\", \"use\"");
    return;
  }
  out.push_back(e);
}

void DomainLoader::parseCost(const json& j, const std::string& path, bool has_object,
                             CostSpec& out) {
  if (j.is_number()) {
    if (!(j.get<double>() >= 0)) err(path, "costs must be ≥ 0");
    out.base += j.get<float>();
    return;
  }
  if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) parseCost(j[i], joinPath(path, i), has_object, out);
    return;
  }
  if (!reader_.isObject(j, path)) return;
  if (j.contains("use")) {
    json expanded;
    const Fragment* f = useFragment(j, path, cost_fragments_, "cost", expanded);
    if (!f) return;
    const std::string saved = note_;
    note_ += " (in cost \"" + j["use"].get<std::string>() + "\" used at " + path + ")";
    if (reader_.validatePart(expanded, SchemaId::kGoapDomain, "cost", f->path, note_))
      parseCost(expanded, f->path, has_object, out);
    note_ = saved;
    return;
  }
  auto nonneg = [&](const char* key, float& field) {
    if (auto v = reader_.number(j, path, key, false)) {
      if (!(*v >= 0)) err(joinPath(path, key), "costs must be ≥ 0");
      field += static_cast<float>(*v);
    }
  };
  nonneg("base", out.base);
  nonneg("travel_per_m", out.travel_per_m);
  if (out.travel_per_m > 0) uses_location_ = true;
  if (j.contains("distance_to") || j.contains("distance_per_m")) {
    LocationRef ref;
    if (!j.contains("distance_to") || !j.contains("distance_per_m")) {
      err(path, "\"distance_to\" and \"distance_per_m\" go together");
      return;
    }
    if (!parseRef(j["distance_to"], joinPath(path, "distance_to"), has_object, ref)) return;
    if (out.distance_per_m > 0 && !(out.distance_ref == ref)) {
      err(joinPath(path, "distance_to"), "a cost has at most one distance_to reference");
      return;
    }
    out.distance_ref = ref;
    nonneg("distance_per_m", out.distance_per_m);
    uses_location_ = true;
  }
  const bool travel = j.contains("travel_to");
  if (!travel && (j.contains("per_m") || j.contains("round"))) {
    err(path, "\"per_m\" and \"round\" go with \"travel_to\"");
    return;
  }
  if (j.contains("by_fact") || j.contains("table") || travel) {
    if (travel && (!j.contains("by_fact") || j.contains("table"))) {
      err(path, "\"travel_to\" needs \"by_fact\" and no \"table\"");
      return;
    }
    if (!travel && (!j.contains("by_fact") || !j.contains("table") || !j["table"].is_object())) {
      err(path, "\"by_fact\" needs a \"table\" object of value → cost");
      return;
    }
    if (out.table_fact != FactId::kNone) {
      err(joinPath(path, "by_fact"), "a cost has at most one table");
      return;
    }
    const FactId f = factByName(j, path, "by_fact");
    if (f == FactId::kNone) return;
    const FactDef& fd = d_->fact(f);
    std::vector<float> values(static_cast<size_t>(fd.max - fd.min + 1), -1.f);
    if (travel && !travelCosts(j, path, f, values)) return;
    const json& table = travel ? json::object() : j["table"];
    for (auto t = table.begin(); t != table.end(); ++t) {
      const std::string tp = joinPath(joinPath(path, "table"), t.key());
      int32_t v = 0;
      if (!factValue(f, fd.type == FactType::kInt ? json(std::atoi(t.key().c_str()))
                        : fd.type == FactType::kBool ? json(t.key() == "true")
                                                     : json(t.key()),
                     tp, false, v))
        continue;
      if (!t->is_number() || !(t->get<double>() >= 0)) {
        err(tp, "expected a cost ≥ 0");
        continue;
      }
      values[static_cast<size_t>(v - fd.min)] = t->get<float>();
    }
    for (size_t k = 0; k < values.size(); ++k) {
      if (values[k] >= 0) continue;
      const int32_t v = static_cast<int32_t>(k) + fd.min;
      if (preExcludes(f, v)) {  // never read: the action never runs there
        values[k] = kInfiniteCost;
        continue;
      }
      err(joinPath(path, travel ? "by_fact" : "table"),
          (travel ? "value \"" + d_->formatValue(f, v) + "\" has no position"
                  : "no cost for value \"" + d_->formatValue(f, v) + "\"") +
              " (only values the action's preconditions exclude may be left out)");
      return;
    }
    out.table_fact = f;
    out.table_offset = static_cast<uint32_t>(d_->cost_table_.size());
    out.table_size = static_cast<uint32_t>(values.size());
    d_->cost_table_.insert(d_->cost_table_.end(), values.begin(), values.end());
  }
}

// "positions" of an enum fact: where each value is, in metres, for travel formulas.
void DomainLoader::parsePositions(const json& j, const std::string& path, FactId f) {
  const FactDef& fd = d_->fact(f);
  if (fd.type != FactType::kEnum) {
    err(path, "only enum facts have positions");
    return;
  }
  if (!reader_.isObject(j, path)) return;
  positions_[idx(f)].assign(fd.values.size(), std::nullopt);
  for (auto p = j.begin(); p != j.end(); ++p) {
    const std::string pp = joinPath(path, p.key());
    int32_t v = 0;
    if (!factValue(f, json(p.key()), pp, false, v)) continue;
    const json& xyz = *p;
    auto number = [](const json& c) { return c.is_number(); };
    const bool ok = xyz.is_array() && (xyz.size() == 2 || xyz.size() == 3) &&
                    std::all_of(xyz.begin(), xyz.end(), number);
    if (!ok) {
      err(pp, "expected [x, y] or [x, y, z] in metres");
      continue;
    }
    positions_[idx(f)][static_cast<size_t>(v)] =
        Vec3{xyz[0].get<float>(), xyz[1].get<float>(), xyz.size() == 3 ? xyz[2].get<float>() : 0.f};
  }
}

// A travel formula's table: per_m × the straight distance from each value's position to
// travel_to's, rounded to a multiple of "round" (0: not rounded). A value without a
// position stays out (the sparse-table rule then decides). False after an error.
bool DomainLoader::travelCosts(const json& j, const std::string& path, FactId f,
                               std::vector<float>& values) {
  const std::vector<std::optional<Vec3>>& pos = positions_[idx(f)];
  if (pos.empty()) {
    err(joinPath(path, "by_fact"), "fact \"" + d_->fact(f).name + "\" has no \"positions\"");
    return false;
  }
  int32_t to = 0;
  if (!factValue(f, j["travel_to"], joinPath(path, "travel_to"), false, to)) return false;
  if (!pos[static_cast<size_t>(to)]) {
    err(joinPath(path, "travel_to"), "value \"" + d_->formatValue(f, to) + "\" has no position");
    return false;
  }
  const std::optional<double> per_m = reader_.number(j, path, "per_m", true);
  const double step = reader_.number(j, path, "round", false).value_or(0.0);
  if (!per_m) return false;
  if (!(*per_m >= 0)) err(joinPath(path, "per_m"), "costs must be ≥ 0");
  if (!(step >= 0)) err(joinPath(path, "round"), "must be ≥ 0 (0: not rounded)");
  if (!(*per_m >= 0) || !(step >= 0)) return false;
  for (size_t v = 0; v < values.size(); ++v) {
    if (!pos[v]) continue;
    double c = *per_m * length(*pos[v] - *pos[static_cast<size_t>(to)]);
    if (step > 0) c = std::round(c / step) * step;
    values[v] = static_cast<float>(c);
  }
  return true;
}

// Whether one of the action's own fact conditions (not an `any` alternative) rejects
// `fact` = `value`: a sparse cost table needs no entry there.
bool DomainLoader::preExcludes(FactId fact, int32_t value) const {
  if (!cost_pre_) return false;
  const int32_t raw = value - d_->fact(fact).min;
  for (const Condition& c : *cost_pre_) {
    if (c.kind != ConditionKind::kFact || c.fact != fact) continue;
    const bool accepts =
        c.op == CompareOp::kIn ? (c.accepted >> raw) & 1 : compare(c.op, value, c.value);
    if (!accepts) return true;
  }
  return false;
}

bool DomainLoader::parseRef(const json& j, const std::string& path, bool has_object,
                            LocationRef& out) {
  if (!j.is_string()) {
    err(path, "expected \"$object\" or a target name");
    return false;
  }
  const std::string s = j.get<std::string>();
  if (s == "$object") {
    if (!has_object) {
      err(path, "\"$object\" is only available to actions with \"object\"");
      return false;
    }
    out = {RefKind::kObject, TargetIndex::kNone};
    return true;
  }
  const TargetIndex t = d_->findTarget(s);
  if (t == TargetIndex::kNone) {
    err(path, "unknown target \"" + s + "\" (declare it in \"targets\")");
    return false;
  }
  out = {RefKind::kTarget, t};
  return true;
}

bool DomainLoader::parseOp(const json& obj, const std::string& path, CompareOp& out) {
  auto it = obj.find("op");
  if (it == obj.end()) {
    out = CompareOp::kEq;
    return true;
  }
  const std::string s = it->is_string() ? it->get<std::string>() : std::string();
  if (s == "=" || s == "==") out = CompareOp::kEq;
  else if (s == "!=" || s == "≠") out = CompareOp::kNe;
  else if (s == "<") out = CompareOp::kLt;
  else if (s == "<=" || s == "≤") out = CompareOp::kLe;
  else if (s == ">") out = CompareOp::kGt;
  else if (s == ">=" || s == "≥") out = CompareOp::kGe;
  else {
    err(joinPath(path, "op"), "expected one of = != < <= > >=");
    return false;
  }
  return true;
}

FactId DomainLoader::factByName(const json& obj, const std::string& path, const char* key) {
  auto name = reader_.string(obj, path, key, true);
  if (!name) return FactId::kNone;
  const FactId f = d_->findFact(*name);
  if (f == FactId::kNone) err(joinPath(path, key), "unknown fact \"" + *name + "\"");
  return f;
}

bool DomainLoader::factValue(FactId fact, const json& v, const std::string& path, bool ordering,
                             int32_t& out) {
  const FactDef& f = d_->fact(fact);
  switch (f.type) {
    case FactType::kBool:
      if (!v.is_boolean()) {
        err(path, "expected true or false for bool fact \"" + f.name + "\"");
        return false;
      }
      out = v.get<bool>() ? 1 : 0;
      return true;
    case FactType::kEnum: {
      const std::string s = v.is_string() ? v.get<std::string>() : v.dump();
      for (size_t i = 0; i < f.values.size(); ++i)
        if (f.values[i] == s) {
          out = static_cast<int32_t>(i);
          return true;
        }
      std::string list;
      for (const auto& name : f.values) list += (list.empty() ? "" : ", ") + name;
      err(path, "\"" + s + "\" is not a value of enum fact \"" + f.name + "\" (" + list + ")");
      return false;
    }
    case FactType::kInt:
    case FactType::kLocation:
      if (!v.is_number_integer()) {
        err(path, "expected an integer for int fact \"" + f.name + "\"");
        return false;
      }
      out = v.get<int32_t>();
      if (!ordering && (out < f.min || out > f.max)) {
        err(path, "value " + std::to_string(out) + " is outside [" + std::to_string(f.min) + ", " +
                      std::to_string(f.max) + "] of fact \"" + f.name + "\"");
        return false;
      }
      return true;
  }
  return false;
}

}  // namespace npc::goap
