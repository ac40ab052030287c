// DomainLoader, part 1: the file's sections (search settings, facts, targets, blackboard,
// fragments and templates, actions, smart objects, goals, buckets). Conditions, effects and
// costs are parsed in domain_loader_terms.cpp; layout and compilation in domain_compile.cpp.
#include "goap/domain_loader.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "base/json_schema.h"
#include "goap/pattern_database_builder.h"

namespace npc::goap {

using nlohmann::json;

namespace {

// Replaces "$param" strings by the arguments (see the header). `args` is an object.
json substitute(const json& body, const json& args) {
  if (body.is_string()) {
    const std::string& s = body.get_ref<const std::string&>();
    if (s.size() > 1 && s[0] == '$') {
      auto it = args.find(s.substr(1));
      if (it != args.end()) return *it;
    }
    if (s.find('$') == std::string::npos) return body;
    // Splice: longest names first so "$to2" is not read as "$to" + "2".
    std::vector<std::string> names;
    for (auto it = args.begin(); it != args.end(); ++it) names.push_back(it.key());
    std::sort(names.begin(), names.end(),
              [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
    std::string out = s;
    for (const auto& n : names) {
      const std::string key = "$" + n;
      const json& v = args[n];
      const std::string text = v.is_string() ? v.get<std::string>() : v.dump();
      for (size_t pos = out.find(key); pos != std::string::npos; pos = out.find(key, pos)) {
        out.replace(pos, key.size(), text);
        pos += text.size();
      }
    }
    return out;
  }
  if (body.is_array()) {
    json out = json::array();
    for (const auto& e : body) out.push_back(substitute(e, args));
    return out;
  }
  if (body.is_object()) {
    json out = json::object();
    for (auto it = body.begin(); it != body.end(); ++it) out[it.key()] = substitute(*it, args);
    return out;
  }
  return body;
}

}  // namespace

DomainLoader::DomainLoader(GoapLibrary& library, std::string file)
    : library_(library), reader_(std::move(file)) {}

void DomainLoader::err(std::string_view path, std::string_view message) {
  std::string m(message);
  m += note_;
  reader_.error(path, m);
}

bool DomainLoader::load(std::string_view text, GoapDomain& out) {
  json root;
  if (!reader_.parse(text, root)) return false;
  // The schema fixes the document's shape; what follows checks names and ranges, and
  // would only cascade from a shape error (a renamed action key: every use "unknown").
  if (!reader_.validate(root, SchemaId::kGoapDomain)) return false;
  d_ = &out;
  d_->file_ = reader_.file();
  source_ = text;
  d_->library_ = &library_;
  if (auto name = reader_.string(root, "", "domain", true)) {
    if (name->empty()) err("/domain", "must not be empty");
    d_->name_ = *name;
  }
  parseSearch(root);
  parseFacts(root);
  parseTargets(root);
  parseBlackboard(root);
  collectFragments(root, "conditions", "all", cond_fragments_);
  collectFragments(root, "effects", "all", effect_fragments_);
  collectFragments(root, "costs", "cost", cost_fragments_);
  collectFragments(root, "templates", "action", templates_);
  parseActions(root);
  parseSmartObjects(root);
  parseGoals(root);
  parseBuckets(root);
  if (reader_.ok()) finish();
  return reader_.ok();
}

void DomainLoader::parseSearch(const json& root) {
  if (auto it = root.find("search"); it != root.end() && reader_.isObject(*it, "/search")) {
    const json& s = *it;
    SearchSettings& o = d_->search_;
    if (auto v = reader_.number(s, "/search", "weight", false)) {
      if (*v < 1.0) err("/search/weight", "must be ≥ 1 (1 = optimal)");
      o.weight = static_cast<float>(*v);
    }
    if (auto v = reader_.string(s, "/search", "heuristic", false)) {
      if (*v == "auto") o.heuristic = HeuristicKind::kAuto;
      else if (*v == "lmcut") o.heuristic = HeuristicKind::kLandmarkCut;
      else if (*v == "blind") o.heuristic = HeuristicKind::kBlind;
      else err("/search/heuristic", "expected \"auto\", \"lmcut\" or \"blind\"");
    }
    auto positive = [&](const char* key, int64_t lo, int64_t hi, auto& field) {
      if (auto v = reader_.integer(s, "/search", key, false)) {
        if (*v < lo || *v > hi)
          err(joinPath("/search", key),
              "must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
        else
          field = static_cast<std::remove_reference_t<decltype(field)>>(*v);
      }
    };
    positive("max_nodes", 16, 1 << 22, o.max_nodes);
    positive("max_expansions", 1, 1ll << 30, o.max_expansions);
    positive("max_depth", 1, kMaxPlanSteps, o.max_depth);
    positive("max_work", 0, 1ll << 40, o.max_work);
    positive("max_candidates", 1, 16, o.max_candidates);
    positive("node_lmcut_after", 0, 1ll << 30, o.node_lmcut_after);
    positive("pattern_states", 0, PatternDatabaseBuilder::kMaxStates, o.pattern_states);
    if (auto v = reader_.number(s, "/search", "object_radius_m", false)) {
      if (!(*v > 0)) err("/search/object_radius_m", "must be > 0");
      o.object_radius_m = static_cast<float>(*v);
    }
    if (auto v = reader_.number(s, "/search", "at_tolerance_m", false)) {
      if (!(*v >= 0)) err("/search/at_tolerance_m", "must be ≥ 0");
      o.at_tolerance_m = static_cast<float>(*v);
    }
    if (auto v = reader_.boolean(s, "/search", "prune", false)) o.prune_irrelevant = *v;
    if (auto v = reader_.boolean(s, "/search", "accept_partial", false)) o.accept_partial = *v;
  }
  if (auto it = root.find("goal_selection");
      it != root.end() && reader_.isObject(*it, "/goal_selection")) {
    GoalSelectionSettings& g = d_->goal_selection_;
    auto nonneg = [&](const char* key, float& field) {
      if (auto v = reader_.number(*it, "/goal_selection", key, false)) {
        if (!(*v >= 0)) err(joinPath("/goal_selection", key), "must be ≥ 0");
        field = static_cast<float>(*v);
      }
    };
    nonneg("hysteresis", g.hysteresis);
    nonneg("retry_s", g.retry_s);
    nonneg("replan_cooldown_s", g.replan_cooldown_s);
  }
}

void DomainLoader::parseFacts(const json& root) {
  auto it = root.find("facts");
  if (it == root.end()) {
    err("/facts", "missing required key");
    return;
  }
  if (!reader_.isArray(*it, "/facts")) return;
  for (size_t i = 0; i < it->size(); ++i) {
    const json& j = (*it)[i];
    const std::string path = joinPath("/facts", i);
    if (!reader_.isObject(j, path)) continue;
    FactDef f;
    auto name = reader_.string(j, path, "name", true);
    auto type = reader_.string(j, path, "type", true);
    if (!name || !type) continue;
    f.name = *name;
    if (f.name.empty() || f.name[0] == '@') err(joinPath(path, "name"), "invalid fact name");
    if (d_->findFact(f.name) != FactId::kNone)
      err(joinPath(path, "name"), "fact \"" + f.name + "\" is declared twice");
    if (*type == "bool") {
      f.type = FactType::kBool;
      f.min = 0;
      f.max = 1;
    } else if (*type == "enum") {
      f.type = FactType::kEnum;
      auto v = j.find("values");
      if (v == j.end() || !v->is_array() || v->empty()) {
        err(joinPath(path, "values"), "an enum needs a non-empty array of value names");
        continue;
      }
      for (size_t k = 0; k < v->size(); ++k) {
        if (!(*v)[k].is_string()) {
          err(joinPath(joinPath(path, "values"), k), "expected a string");
          continue;
        }
        const std::string s = (*v)[k].get<std::string>();
        if (std::find(f.values.begin(), f.values.end(), s) != f.values.end())
          err(joinPath(joinPath(path, "values"), k), "value \"" + s + "\" is listed twice");
        f.values.push_back(s);
      }
      if (f.values.size() > kMaxFactValues)
        err(joinPath(path, "values"), "an enum has at most 64 values");
      f.min = 0;
      f.max = static_cast<int32_t>(f.values.size()) - 1;
    } else if (*type == "int") {
      f.type = FactType::kInt;
      auto lo = reader_.integer(j, path, "min", true);
      auto hi = reader_.integer(j, path, "max", true);
      if (!lo || !hi) continue;
      if (*hi < *lo || *hi - *lo + 1 > kMaxFactValues) {
        err(joinPath(path, "max"), "an int fact needs min ≤ max and at most 64 values");
        continue;
      }
      f.min = static_cast<int32_t>(*lo);
      f.max = static_cast<int32_t>(*hi);
    } else {
      err(joinPath(path, "type"), "expected \"bool\", \"enum\" or \"int\"");
      continue;
    }
    f.initial = f.min;
    d_->facts_.push_back(std::move(f));
    if (auto init = j.find("initial"); init != j.end()) {
      int32_t v = 0;
      if (factValue(static_cast<FactId>(d_->facts_.size() - 1), *init, joinPath(path, "initial"),
                    false, v))
        d_->facts_.back().initial = v;
    }
    positions_.emplace_back();
    if (auto p = j.find("positions"); p != j.end())
      parsePositions(*p, joinPath(path, "positions"), static_cast<FactId>(d_->facts_.size() - 1));
  }
  if (d_->facts_.size() > 255) err("/facts", "a domain has at most 255 facts");
}

void DomainLoader::parseTargets(const json& root) {
  auto it = root.find("targets");
  if (it == root.end() || !reader_.isArray(*it, "/targets")) return;
  for (size_t i = 0; i < it->size(); ++i) {
    const std::string path = joinPath("/targets", i);
    if (!(*it)[i].is_string()) {
      err(path, "expected a target name");
      continue;
    }
    const std::string name = (*it)[i].get<std::string>();
    if (name.empty() || name[0] == '$') err(path, "invalid target name");
    if (d_->findTarget(name) != TargetIndex::kNone) err(path, "target \"" + name + "\" twice");
    d_->targets_.push_back(name);
  }
  if (d_->targets_.size() > kMaxTargets) err("/targets", "a domain has at most 8 targets");
}

void DomainLoader::parseBlackboard(const json& root) {
  auto it = root.find("blackboard");
  if (it == root.end() || !reader_.isObject(*it, "/blackboard")) return;
  for (auto k = it->begin(); k != it->end(); ++k) {
    const std::string path = joinPath("/blackboard", k.key());
    auto type = k->is_string() ? parseBlackboardType(k->get<std::string>()) : std::nullopt;
    if (!type) {
      err(path, "expected \"bool\", \"int\", \"float\", \"entity\" or \"vec3\"");
      continue;
    }
    if (library_.blackboard().declare(k.key(), *type) == BlackboardKeyId::kNone) {
      const BlackboardKeyId other = library_.blackboard().find(k.key());
      err(path, other != BlackboardKeyId::kNone
                    ? "blackboard key \"" + k.key() + "\" is already declared as " +
                          toString(library_.blackboard().type(other))
                    : std::string("too many blackboard keys (at most 32 per library)"));
    }
  }
}

void DomainLoader::collectFragments(const json& root, const char* key, const char* body_key,
                                    std::vector<std::pair<std::string, Fragment>>& out) {
  auto it = root.find(key);
  if (it == root.end() || !reader_.isObject(*it, joinPath("", key))) return;
  for (auto k = it->begin(); k != it->end(); ++k) {
    const std::string path = joinPath(joinPath("", key), k.key());
    Fragment f;
    f.path = path;
    const bool wrapped = k->is_object() && k->contains("params");
    const bool is_template = std::string_view(key) == "templates";
    if (wrapped || is_template) {
      if (!reader_.isObject(*k, path)) continue;
      auto body = k->find(body_key);
      if (body == k->end()) {
        err(joinPath(path, body_key), "missing required key");
        continue;
      }
      f.body = &*body;
      f.path = joinPath(path, body_key);
      if (auto p = k->find("params"); p != k->end()) {
        if (!p->is_array()) {
          err(joinPath(path, "params"), "expected an array of parameter names");
          continue;
        }
        for (const auto& name : *p) {
          if (!name.is_string() || name.get<std::string>() == "object") {
            err(joinPath(path, "params"), "parameter names are strings other than \"object\"");
            continue;
          }
          f.params.push_back(name.get<std::string>());
        }
      }
    } else {
      f.body = &*k;
    }
    out.emplace_back(k.key(), std::move(f));
  }
}

// Resolves {"use" | "template": name, "args": {...}} to the fragment and its expansion.
const DomainLoader::Fragment* DomainLoader::useFragment(
    const json& j, const std::string& path,
    const std::vector<std::pair<std::string, Fragment>>& table, const char* what,
    json& expanded) {
  const char* key = std::string_view(what) == "template" ? "template" : "use";
  const std::string name = j[key].is_string() ? j[key].get<std::string>() : std::string();
  const Fragment* f = nullptr;
  for (const auto& [n, frag] : table)
    if (n == name) f = &frag;
  if (!f) {
    err(joinPath(path, key), std::string("unknown ") + what + " \"" + name + "\"");
    return nullptr;
  }
  json args = json::object();
  if (auto a = j.find("args"); a != j.end()) {
    if (!a->is_object()) {
      err(joinPath(path, "args"), "expected an object of arguments");
      return nullptr;
    }
    args = *a;
  }
  bool ok = true;
  for (const auto& p : f->params)
    if (!args.contains(p)) {
      err(joinPath(path, "args"), "missing argument \"" + p + "\" for " + what + " \"" + name + "\"");
      ok = false;
    }
  for (auto a = args.begin(); a != args.end(); ++a)
    if (std::find(f->params.begin(), f->params.end(), a.key()) == f->params.end()) {
      err(joinPath(joinPath(path, "args"), a.key()),
          std::string("\"") + name + "\" has no parameter \"" + a.key() + "\"");
      ok = false;
    }
  if (!ok) return nullptr;
  expanded = substitute(*f->body, args);
  return f;
}

void DomainLoader::parseActions(const json& root) {
  auto it = root.find("actions");
  if (it == root.end()) {
    err("/actions", "missing required key");
    return;
  }
  if (!reader_.isArray(*it, "/actions")) return;
  for (size_t i = 0; i < it->size(); ++i) {
    const json& j = (*it)[i];
    const std::string path = joinPath("/actions", i);
    if (!reader_.isObject(j, path)) continue;
    if (!j.contains("template")) {
      parseAction(j, path);
      continue;
    }
    auto instantiate = [&](const json& use, const std::string& at) {
      json expanded;
      const Fragment* f = useFragment(use, at, templates_, "template", expanded);
      if (!f) return;
      const std::string saved = note_;
      note_ += " (in template \"" + use["template"].get<std::string>() + "\" used at " + at + ")";
      // The template's body has "$param" strings in it; its expansion is the action.
      if (reader_.validatePart(expanded, SchemaId::kGoapDomain, "action", f->path, note_))
        parseAction(expanded, f->path);
      note_ = saved;
    };
    if (auto each = j.find("for_each"); each != j.end()) {
      if (!each->is_array()) {
        err(joinPath(path, "for_each"), "expected an array of argument objects");
        continue;
      }
      for (size_t k = 0; k < each->size(); ++k) {
        json use = {{"template", j["template"]}, {"args", (*each)[k]}};
        instantiate(use, joinPath(joinPath(path, "for_each"), k));
      }
    } else {
      instantiate(j, path);
    }
  }
  if (d_->actions_.size() >= 0xfffe) err("/actions", "too many actions");
}

void DomainLoader::parseAction(const json& j, const std::string& path) {
  ActionDef a;
  auto name = reader_.string(j, path, "name", true);
  if (!name) return;
  a.name = *name;
  if (a.name.empty()) err(joinPath(path, "name"), "must not be empty");
  if (d_->findAction(a.name) != ActionId::kNone)
    err(joinPath(path, "name"), "action \"" + a.name + "\" is defined twice");
  if (auto o = j.find("object"); o != j.end()) {
    if (o->is_boolean()) {
      a.needs_object = o->get<bool>();
    } else if (reader_.isObject(*o, joinPath(path, "object"))) {
      const std::string op = joinPath(path, "object");
      a.needs_object = true;
      if (auto v = reader_.number(*o, op, "max_distance_m", false)) {
        if (!(*v > 0)) err(joinPath(op, "max_distance_m"), "must be > 0");
        a.object_max_distance_m = static_cast<float>(*v);
      }
      if (auto v = reader_.integer(*o, op, "max_candidates", false)) {
        if (*v < 1 || *v > 16) err(joinPath(op, "max_candidates"), "must be in [1, 16]");
        else a.max_candidates = static_cast<uint8_t>(*v);
      }
    }
  }
  if (auto p = j.find("pre"); p != j.end())
    parseConditions(*p, joinPath(path, "pre"), ConditionSite::kPrecondition, a.needs_object,
                    a.conditions);
  if (a.conditions.size() > kMaxConditionsPerAction)
    err(joinPath(path, "pre"), "an action has at most 32 conditions");
  if (auto e = j.find("effects"); e != j.end())
    parseEffects(*e, joinPath(path, "effects"), a.needs_object, a.effects);
  if (auto c = j.find("cost"); c != j.end()) {
    a.cost.base = 0.f;
    cost_pre_ = &a.conditions;  // a table may leave out the values these exclude
    parseCost(*c, joinPath(path, "cost"), a.needs_object, a.cost);
    cost_pre_ = nullptr;
  }
  if (auto p = j.find("pacing"); p != j.end() && reader_.isObject(*p, joinPath(path, "pacing"))) {
    const std::string pp = joinPath(path, "pacing");
    std::string tag = a.name;
    if (auto t = reader_.string(*p, pp, "tag", false)) tag = *t;
    a.pacing.tag = library_.internPacingTag(tag);
    if (auto v = reader_.number(*p, pp, "agent_penalty", false)) a.pacing.agent_penalty = float(*v);
    if (auto v = reader_.number(*p, pp, "group_penalty", false)) a.pacing.group_penalty = float(*v);
    if (auto v = reader_.number(*p, pp, "half_life_s", false)) a.pacing.half_life_s = float(*v);
    if (a.pacing.agent_penalty < 0 || a.pacing.group_penalty < 0)
      err(pp, "penalties must be ≥ 0");
    if (!(a.pacing.half_life_s > 0)) err(joinPath(pp, "half_life_s"), "must be > 0");
  }
  if (auto r = j.find("records"); r != j.end() && reader_.isArray(*r, joinPath(path, "records"))) {
    for (size_t k = 0; k < r->size(); ++k) {
      if (!(*r)[k].is_string()) {
        err(joinPath(joinPath(path, "records"), k), "expected a pacing tag name");
        continue;
      }
      a.records.push_back(library_.internPacingTag((*r)[k].get<std::string>()));
    }
  }
  if (auto w = j.find("on_success");
      w != j.end() && reader_.isArray(*w, joinPath(path, "on_success"))) {
    for (size_t k = 0; k < w->size(); ++k) {
      const std::string wp = joinPath(joinPath(path, "on_success"), k);
      const json& e = (*w)[k];
      if (!reader_.isObject(e, wp)) continue;
      auto key = reader_.string(e, wp, "blackboard", true);
      auto v = e.find("set");
      if (!key) continue;
      BlackboardWrite bw;
      bw.key = library_.blackboard().find(*key);
      if (bw.key == BlackboardKeyId::kNone) {
        err(joinPath(wp, "blackboard"), "unknown blackboard key \"" + *key + "\"");
        continue;
      }
      bw.type = library_.blackboard().type(bw.key);
      if (v == e.end() || !(v->is_boolean() || v->is_number()) ||
          bw.type == BlackboardType::kEntity || bw.type == BlackboardType::kVec3) {
        err(joinPath(wp, "set"), "expected a bool or number for a bool/int/float key");
        continue;
      }
      bw.value = v->is_boolean() ? (v->get<bool>() ? 1.f : 0.f) : v->get<float>();
      a.on_success.push_back(bw);
    }
  }
  if (auto p = j.find("params"); p != j.end() && reader_.isObject(*p, joinPath(path, "params"))) {
    for (auto k = p->begin(); k != p->end(); ++k) {
      ActionParam param;
      param.name = k.key();
      if (k->is_string()) {
        param.text = k->get<std::string>();
      } else if (k->is_number() || k->is_boolean()) {
        param.is_number = true;
        param.number = k->is_boolean() ? (k->get<bool>() ? 1.f : 0.f) : k->get<float>();
        param.text = k->dump();
      } else {
        err(joinPath(joinPath(path, "params"), k.key()), "expected a string, number or bool");
        continue;
      }
      a.params.push_back(std::move(param));
    }
  }
  action_paths_.push_back(path + note_);
  d_->actions_.push_back(std::move(a));
}

void DomainLoader::parseSmartObjects(const json& root) {
  auto it = root.find("smart_objects");
  if (it != root.end() && reader_.isArray(*it, "/smart_objects")) {
    for (size_t i = 0; i < it->size(); ++i) {
      const std::string path = joinPath("/smart_objects", i);
      const json& j = (*it)[i];
      if (!reader_.isObject(j, path)) continue;
      SmartObjectTypeDef t;
      auto species = reader_.string(j, path, "species", true);
      if (!species) continue;
      t.species = *species;
      if (d_->findSmartObjectType(t.species) != SmartObjectTypeId::kNone)
        err(joinPath(path, "species"), "smart-object species \"" + t.species + "\" twice");
      auto acts = j.find("actions");
      if (acts == j.end() || !reader_.isArray(*acts, joinPath(path, "actions"))) {
        if (acts == j.end()) err(joinPath(path, "actions"), "missing required key");
        continue;
      }
      const auto type_id = static_cast<SmartObjectTypeId>(d_->object_types_.size());
      for (size_t k = 0; k < acts->size(); ++k) {
        const std::string ap = joinPath(joinPath(path, "actions"), k);
        const std::string name = (*acts)[k].is_string() ? (*acts)[k].get<std::string>() : "";
        const ActionId a = d_->findAction(name);
        if (a == ActionId::kNone) {
          err(ap, "unknown action \"" + name + "\"");
          continue;
        }
        if (!d_->actions_[idx(a)].needs_object) {
          err(ap, "action \"" + name + "\" has no \"object\" and cannot be advertised");
          continue;
        }
        t.actions.push_back(a);
        d_->actions_[idx(a)].advertised_by.push_back(type_id);
      }
      d_->object_types_.push_back(std::move(t));
    }
  }
  for (size_t i = 0; i < d_->actions_.size(); ++i)
    if (d_->actions_[i].needs_object && d_->actions_[i].advertised_by.empty())
      err(action_paths_[i],
          "action \"" + d_->actions_[i].name + "\" needs an object but no smart object advertises it");
}

void DomainLoader::parseGoals(const json& root) {
  auto it = root.find("goals");
  if (it == root.end() || !reader_.isArray(*it, "/goals")) return;
  for (size_t i = 0; i < it->size(); ++i) {
    const std::string path = joinPath("/goals", i);
    const json& j = (*it)[i];
    if (!reader_.isObject(j, path)) continue;
    GoalDef g;
    auto name = reader_.string(j, path, "name", true);
    if (!name) continue;
    g.name = *name;
    if (d_->findGoal(g.name) != GoalId::kNone)
      err(joinPath(path, "name"), "goal \"" + g.name + "\" is defined twice");
    if (auto p = reader_.number(j, path, "priority", false)) g.priority = static_cast<float>(*p);
    if (auto d = j.find("desired"); d != j.end())
      parseConditions(*d, joinPath(path, "desired"), ConditionSite::kDesired, false, g.desired);
    else
      err(joinPath(path, "desired"), "missing required key");
    if (g.desired.empty() && j.contains("desired"))
      err(joinPath(path, "desired"), "a goal desires at least one fact");
    if (auto r = j.find("relevant"); r != j.end())
      parseConditions(*r, joinPath(path, "relevant"), ConditionSite::kRelevant, false, g.relevant);
    if (auto e = reader_.string(j, path, "end_with", false)) {
      g.end_with = d_->findAction(*e);
      if (g.end_with == ActionId::kNone) err(joinPath(path, "end_with"), "unknown action \"" + *e + "\"");
      else if (d_->actions_[idx(g.end_with)].needs_object)
        err(joinPath(path, "end_with"), "an end_with action cannot need an object");
    }
    d_->goals_.push_back(std::move(g));
    goal_paths_.push_back(path);
  }
}

void DomainLoader::parseBuckets(const json& root) {
  auto it = root.find("buckets");
  if (it == root.end()) {
    BucketDef all;
    all.name = "default";
    for (size_t i = 0; i < d_->actions_.size(); ++i) all.actions.push_back(static_cast<ActionId>(i));
    for (size_t i = 0; i < d_->goals_.size(); ++i) all.goals.push_back(static_cast<GoalId>(i));
    d_->buckets_.push_back(std::move(all));
    return;
  }
  if (!reader_.isArray(*it, "/buckets")) return;
  for (size_t i = 0; i < it->size(); ++i) {
    const std::string path = joinPath("/buckets", i);
    const json& j = (*it)[i];
    if (!reader_.isObject(j, path)) continue;
    BucketDef b;
    auto name = reader_.string(j, path, "name", true);
    if (!name) continue;
    b.name = *name;
    if (d_->findBucket(b.name) != BucketId::kNone)
      err(joinPath(path, "name"), "bucket \"" + b.name + "\" is defined twice");
    if (auto a = j.find("actions"); a != j.end() && reader_.isArray(*a, joinPath(path, "actions"))) {
      for (size_t k = 0; k < a->size(); ++k) {
        const std::string ap = joinPath(joinPath(path, "actions"), k);
        const std::string pat = (*a)[k].is_string() ? (*a)[k].get<std::string>() : "";
        const bool wild = !pat.empty() && pat.back() == '*';
        const std::string_view prefix(pat.data(), wild ? pat.size() - 1 : pat.size());
        size_t matched = 0;
        for (size_t x = 0; x < d_->actions_.size(); ++x) {
          const std::string& an = d_->actions_[x].name;
          if (wild ? std::string_view(an).substr(0, prefix.size()) == prefix : an == pat) {
            const auto id = static_cast<ActionId>(x);
            if (std::find(b.actions.begin(), b.actions.end(), id) == b.actions.end())
              b.actions.push_back(id);
            ++matched;
          }
        }
        if (matched == 0) err(ap, "no action matches \"" + pat + "\"");
      }
    }
    if (auto g = j.find("goals"); g != j.end() && reader_.isArray(*g, joinPath(path, "goals"))) {
      for (size_t k = 0; k < g->size(); ++k) {
        const std::string gname = (*g)[k].is_string() ? (*g)[k].get<std::string>() : "";
        const GoalId id = d_->findGoal(gname);
        if (id == GoalId::kNone) err(joinPath(joinPath(path, "goals"), k), "unknown goal \"" + gname + "\"");
        else b.goals.push_back(id);
      }
    }
    if (auto f = reader_.string(j, path, "fallback", false)) {
      b.fallback = d_->findAction(*f);
      if (b.fallback == ActionId::kNone) {
        err(joinPath(path, "fallback"), "unknown action \"" + *f + "\"");
      } else {
        const ActionDef& fa = d_->actions_[idx(b.fallback)];
        if (!fa.conditions.empty() || fa.needs_object)
          err(joinPath(path, "fallback"),
              "fallback action \"" + *f + "\" must be always available (no conditions, no object)");
      }
    }
    d_->buckets_.push_back(std::move(b));
  }
  if (d_->buckets_.size() >= 0xff) err("/buckets", "too many buckets");
}

}  // namespace npc::goap
