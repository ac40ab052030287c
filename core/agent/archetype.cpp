#include "agent/archetype.h"

#include <cstdint>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "base/definition_file_name.h"
#include "base/did_you_mean.h"
#include "base/json_reader.h"
#include "base/json_schema.h"
#include "perception/sounds.h"
#include "world/limits.h"

namespace npc {

using nlohmann::json;

namespace {

// Bounds from world/limits.h: "must be at most 86400 s (got 1e+30)".
void checkAtMost(JsonReader& r, const std::string& path, std::string_view key, double value,
                 double max, const char* unit) {
  if (std::string problem = aboveMaximum(value, max, unit); !problem.empty()) {
    r.error(joinPath(path, key), problem);
  }
}

void readGreet(const json& j, const std::string& path, JsonReader& r, GreetReflex& out) {
  if (!r.isObject(j, path)) return;
  if (auto v = r.string(j, path, "action", false)) out.action = *v;
  if (auto v = r.number(j, path, "duration_s", false)) out.duration_s = static_cast<float>(*v);
  if (auto v = r.number(j, path, "cooldown_s", false)) out.cooldown_s = static_cast<float>(*v);
  if (out.action.empty()) r.error(joinPath(path, "action"), "must not be empty");
  if (out.duration_s < 0.f) r.error(joinPath(path, "duration_s"), "must be >= 0");
  if (out.cooldown_s < 0.f) r.error(joinPath(path, "cooldown_s"), "must be >= 0");
  checkAtMost(r, path, "duration_s", out.duration_s, kMaxDelayS, "s");
  checkAtMost(r, path, "cooldown_s", out.cooldown_s, kMaxDelayS, "s");
}

void readWander(const json& j, const std::string& path, JsonReader& r, WanderReflex& out) {
  if (!r.isObject(j, path)) return;
  if (auto v = r.number(j, path, "radius_m", false)) out.radius_m = static_cast<float>(*v);
  if (auto v = r.number(j, path, "speed_mps", false)) out.speed_mps = static_cast<float>(*v);
  if (j.contains("pause_s")) {
    const json& p = j["pause_s"];
    if (p.is_array() && p.size() == 2 && p[0].is_number() && p[1].is_number() &&
        p[0].get<double>() >= 0 && p[0].get<double>() <= p[1].get<double>()) {
      out.pause_min_s = p[0].get<float>();
      out.pause_max_s = p[1].get<float>();
    } else {
      r.error(joinPath(path, "pause_s"), "expected [min, max] seconds with 0 <= min <= max");
    }
  }
  if (out.radius_m < 0.f) r.error(joinPath(path, "radius_m"), "must be >= 0");
  if (out.speed_mps <= 0.f) r.error(joinPath(path, "speed_mps"), "must be > 0");
  checkAtMost(r, path, "radius_m", out.radius_m, kMaxSightRangeM, "m");
  checkAtMost(r, path, "speed_mps", out.speed_mps, kMaxAgentSpeedMps, "m/s");
}

std::optional<BehaviorMode> parseMode(std::string_view text) {
  for (auto m : {BehaviorMode::kIdle, BehaviorMode::kWander, BehaviorMode::kGreet,
                 BehaviorMode::kAmbient, BehaviorMode::kInvestigate, BehaviorMode::kAttack,
                 BehaviorMode::kFaceTarget, BehaviorMode::kLongAction, BehaviorMode::kPlan}) {
    if (toString(m) == text) return m;
  }
  return std::nullopt;
}

void readBehaviors(const json& j, const std::string& path, JsonReader& r,
                   std::vector<BehaviorDef>& out) {
  if (!r.isObject(j, path)) return;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string bpath = joinPath(path, it.key());
    const json& b = it.value();
    if (!r.isObject(b, bpath)) continue;
    BehaviorDef def;
    def.name = it.key();
    if (auto v = r.string(b, bpath, "tree", false)) def.tree = *v;
    if (auto v = r.string(b, bpath, "mode", def.tree.empty())) {
      if (auto m = parseMode(*v)) {
        def.mode = *m;
      } else {
        r.error(joinPath(bpath, "mode"),
                "expected idle, wander, greet, ambient, investigate, attack, face_target, "
                "long_action or plan");
      }
    }
    if (auto v = r.string(b, bpath, "action", false)) def.action = *v;
    if (auto v = r.string(b, bpath, "bucket", false)) def.bucket = *v;
    if (auto v = r.number(b, bpath, "duration_s", false)) def.duration_s = static_cast<float>(*v);
    if (auto v = r.number(b, bpath, "cooldown_s", false)) def.cooldown_s = static_cast<float>(*v);
    if (auto v = r.number(b, bpath, "speed_mps", false)) def.speed_mps = static_cast<float>(*v);
    if (b.contains("set_when_done") && r.isObject(b["set_when_done"], joinPath(bpath, "set_when_done"))) {
      for (auto v = b["set_when_done"].begin(); v != b["set_when_done"].end(); ++v) {
        if (v.value().is_boolean()) {
          def.set_when_done.emplace_back(v.key(), v.value().get<bool>());
        } else {
          r.error(joinPath(joinPath(bpath, "set_when_done"), v.key()), "expected true or false");
        }
      }
    }
    if ((def.mode == BehaviorMode::kAttack || def.mode == BehaviorMode::kLongAction) &&
        def.action.empty()) {
      r.error(joinPath(bpath, "action"), std::string("is required for mode ") +
                                             std::string(toString(def.mode)));
    }
    if (def.duration_s < 0.f) r.error(joinPath(bpath, "duration_s"), "must be >= 0");
    if (def.cooldown_s < 0.f) r.error(joinPath(bpath, "cooldown_s"), "must be >= 0");
    if (def.speed_mps < 0.f) r.error(joinPath(bpath, "speed_mps"), "must be >= 0");
    checkAtMost(r, bpath, "duration_s", def.duration_s, kMaxDelayS, "s");
    checkAtMost(r, bpath, "cooldown_s", def.cooldown_s, kMaxDelayS, "s");
    checkAtMost(r, bpath, "speed_mps", def.speed_mps, kMaxAgentSpeedMps, "m/s");
    out.push_back(std::move(def));
  }
}

// One planner; `named`: an entry of "planners", which names it ("planner" is named after
// its domain).
void readPlanner(const json& j, const std::string& path, JsonReader& r, bool named, PlannerDef& out) {
  if (!r.isObject(j, path)) return;
  if (named) {
    if (auto v = r.string(j, path, "name", true)) out.name = *v;
  }
  if (auto v = r.string(j, path, "domain", true)) out.domain = *v;
  if (!named) out.name = out.domain;
  if (auto v = r.boolean(j, path, "trace", false)) out.trace = *v;
  if (j.contains("targets") && r.isObject(j["targets"], joinPath(path, "targets"))) {
    for (auto t = j["targets"].begin(); t != j["targets"].end(); ++t) {
      const bool known = t.value().is_string() &&
                         (t.value() == "home" || t.value() == "attention" || t.value() == "self");
      if (known) {
        out.targets.emplace_back(t.key(), t.value().get<std::string>());
      } else {
        r.error(joinPath(joinPath(path, "targets"), t.key()), "expected home, attention or self");
      }
    }
  }
  if (j.contains("blackboard") && r.isObject(j["blackboard"], joinPath(path, "blackboard"))) {
    for (auto v = j["blackboard"].begin(); v != j["blackboard"].end(); ++v) {
      if (v.value().is_boolean()) {
        out.blackboard.emplace_back(v.key(), v.value().get<bool>() ? 1.0 : 0.0);
      } else if (v.value().is_number()) {
        out.blackboard.emplace_back(v.key(), v.value().get<double>());
      } else {
        r.error(joinPath(joinPath(path, "blackboard"), v.key()), "expected a bool or a number");
      }
    }
  }
  if (j.contains("perform") && r.isObject(j["perform"], joinPath(path, "perform"))) {
    for (auto p = j["perform"].begin(); p != j["perform"].end(); ++p) {
      if (p.value().is_string() && !p.value().get<std::string>().empty()) {
        out.perform.emplace_back(p.key(), p.value().get<std::string>());
      } else {
        r.error(joinPath(joinPath(path, "perform"), p.key()), "expected an action name");
      }
    }
  }
  if (j.contains("transient_facts") && r.isArray(j["transient_facts"], joinPath(path, "transient_facts"))) {
    const json& list = j["transient_facts"];
    for (size_t i = 0; i < list.size(); ++i) {
      if (list[i].is_string()) {
        out.transient_facts.push_back(list[i].get<std::string>());
      } else {
        r.error(joinPath(joinPath(path, "transient_facts"), std::to_string(i)), "expected a fact name");
      }
    }
  }
}

// "planner" (one, named after its domain) or "planners" (a list, in the designer's order:
// the first is the one trees' <Plan /> drives without naming it), not both.
void readPlanners(const json& j, const std::string& path, JsonReader& r, std::vector<PlannerDef>& out) {
  if (j.contains("planner") && j.contains("planners")) {
    r.error(joinPath(path, "planners"), "an archetype has \"planner\" or \"planners\", not both");
    return;
  }
  if (j.contains("planner")) {
    PlannerDef def;
    readPlanner(j["planner"], joinPath(path, "planner"), r, false, def);
    out.push_back(std::move(def));
    return;
  }
  if (!j.contains("planners")) return;
  const std::string list_path = joinPath(path, "planners");
  const json& list = j["planners"];
  if (!r.isArray(list, list_path)) return;
  if (list.empty() || list.size() > kMaxPlannersPerAgent) {
    r.error(list_path, "has " + std::to_string(list.size()) + " planners; expected 1 to " +
                           std::to_string(kMaxPlannersPerAgent));
    return;
  }
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string at = joinPath(list_path, std::to_string(i));
    PlannerDef def;
    readPlanner(list[i], at, r, true, def);
    const bool repeated = !def.name.empty() && std::any_of(out.begin(), out.end(), [&](const PlannerDef& p) {
      return p.name == def.name;
    });
    if (repeated) r.error(joinPath(at, "name"), "planner \"" + def.name + "\" is named twice");
    out.push_back(std::move(def));
  }
}

}  // namespace

std::string_view toString(BehaviorMode mode) {
  switch (mode) {
    case BehaviorMode::kIdle: return "idle";
    case BehaviorMode::kWander: return "wander";
    case BehaviorMode::kGreet: return "greet";
    case BehaviorMode::kAmbient: return "ambient";
    case BehaviorMode::kInvestigate: return "investigate";
    case BehaviorMode::kAttack: return "attack";
    case BehaviorMode::kFaceTarget: return "face_target";
    case BehaviorMode::kLongAction: return "long_action";
    case BehaviorMode::kPlan: return "plan";
  }
  return "?";
}

int Archetype::findBehavior(std::string_view behavior) const {
  for (size_t i = 0; i < behaviors.size(); ++i) {
    if (behaviors[i].name == behavior) return static_cast<int>(i);
  }
  return -1;
}

int Archetype::findPlanner(std::string_view name) const {
  if (name.empty()) return planners.empty() ? -1 : 0;
  for (size_t i = 0; i < planners.size(); ++i) {
    if (planners[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

void ArchetypeSet::loadObject(const json& object, JsonReader& r) {
  if (!r.validate(object, SchemaId::kArchetype)) return;
  for (auto it = object.begin(); it != object.end(); ++it) {
    if (it.key() == "$schema") continue;
    const std::string path = joinPath("", it.key());
    const json& j = it.value();
    if (!r.isObject(j, path)) continue;
    if (find(it.key())) {
      r.error(path, "archetype \"" + it.key() + "\" is defined twice");
      continue;
    }
    Archetype a;
    a.name = it.key();
    a.file = r.file();
    if (auto v = r.string(j, path, "species", true)) a.species = *v;
    if (auto v = r.string(j, path, "selection_tree", false)) a.selection_tree = *v;
    if (auto v = r.string(j, path, "behavior", false)) a.behavior = *v;
    if (auto v = r.string(j, path, "hibernation_action", false)) a.hibernation_action = *v;
    if (j.contains("inventory") && r.isObject(j["inventory"], joinPath(path, "inventory"))) {
      for (auto item = j["inventory"].begin(); item != j["inventory"].end(); ++item) {
        if (item.value().is_number_integer() && item.value().get<int64_t>() >= 0 &&
            item.value().get<int64_t>() <= kMaxItemCount) {
          a.inventory.emplace_back(item.key(), item.value().get<int32_t>());
        } else {
          r.error(joinPath(joinPath(path, "inventory"), item.key()),
                  "expected an integer within 0.." + std::to_string(kMaxItemCount));
        }
      }
    }
    if (auto v = r.number(j, path, "notice_radius_m", false)) {
      a.sensors.sight_range_m = static_cast<float>(*v);
      if (*v < 0) r.error(joinPath(path, "notice_radius_m"), "must be >= 0");
      checkAtMost(r, path, "notice_radius_m", *v, kMaxNoticeRadiusM, "m");
    }
    if (j.contains("perception")) {
      readSensorConfig(j["perception"], joinPath(path, "perception"), r, a.sensors);
    }
    if (j.contains("behaviors")) {
      readBehaviors(j["behaviors"], joinPath(path, "behaviors"), r, a.behaviors);
    }
    if (!a.behavior.empty() && !a.selection_tree.empty()) {
      r.error(joinPath(path, "behavior"), "cannot be combined with selection_tree");
    } else if (!a.behavior.empty() && a.findBehavior(a.behavior) < 0) {
      NameSuggester near(a.behavior);
      for (const BehaviorDef& b : a.behaviors) near.consider(b.name);
      r.error(joinPath(path, "behavior"), "\"" + a.behavior + "\" is not in behaviors" + near.hint());
    }
    if (auto v = r.number(j, path, "action_timeout_s", false)) {
      a.action_timeout_s = static_cast<float>(*v);
      if (*v <= 0) r.error(joinPath(path, "action_timeout_s"), "must be > 0");
      checkAtMost(r, path, "action_timeout_s", *v, kMaxTimeoutS, "s");
    }
    if (j.contains("greet")) readGreet(j["greet"], joinPath(path, "greet"), r, a.greet);
    if (j.contains("wander")) readWander(j["wander"], joinPath(path, "wander"), r, a.wander);
    if (j.contains("actions")) readActionDefs(j["actions"], joinPath(path, "actions"), r, a.actions);
    readPlanners(j, path, r, a.planners);
    for (const BehaviorDef& b : a.behaviors) {
      if ((b.mode == BehaviorMode::kPlan || !b.bucket.empty()) && a.planners.empty()) {
        r.error(joinPath(joinPath(path, "behaviors"), b.name), "plans, but the archetype has no \"planner\"");
      }
    }
    archetypes_.push_back(std::move(a));
  }
}

bool ArchetypeSet::loadDirectory(const std::string& dir, std::vector<std::string>& errors) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    errors.push_back(dir + ": archetype directory not found");
    return false;
  }
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir, ec)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  bool ok = true;
  for (const auto& file : files) {
    const std::string name = definitionFileName(dir, file.string());
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) {
      errors.push_back(name + ": cannot open file");
      ok = false;
      continue;
    }
    JsonReader reader(name);
    json j;
    if (reader.parse(text.str(), j)) loadObject(j, reader);
    if (!reader.ok()) {
      ok = false;
      errors.insert(errors.end(), reader.errors().begin(), reader.errors().end());
    }
  }
  return ok;
}

namespace {

void readStimulus(const json& j, const std::string& path, JsonReader& r, ActionStimulus& out) {
  if (!r.isObject(j, path)) return;
  if (auto v = r.number(j, path, "sound_m", false)) {
    out.sound_radius_m = static_cast<float>(*v);
    if (!(*v > 0)) r.error(joinPath(path, "sound_m"), "must be > 0");
    checkAtMost(r, path, "sound_m", *v, kMaxSoundRadiusM, "m");
  }
  if (auto v = r.string(j, path, "sound", false)) {
    out.sound_kind = *v;
    if (!parseSoundKind(*v)) r.error(joinPath(path, "sound"), "\"" + *v + "\" is not a sound kind");
  }
  if (auto v = r.string(j, path, "signal", false)) {
    out.signal = *v;
    if (v->empty()) r.error(joinPath(path, "signal"), "must not be empty");
  }
  if (auto v = r.number(j, path, "signal_m", false)) {
    out.signal_radius_m = static_cast<float>(*v);
    if (!(*v > 0)) r.error(joinPath(path, "signal_m"), "must be > 0");
    checkAtMost(r, path, "signal_m", *v, kMaxSignalRadiusM, "m");
  }
  if (!out.any()) r.error(path, "emits nothing: give sound_m or signal");
}

}  // namespace

void readActionDefs(const json& j, const std::string& path, JsonReader& r,
                    std::vector<ActionDef>& out) {
  if (!r.isObject(j, path)) return;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string apath = joinPath(path, it.key());
    const json& a = it.value();
    if (it.key().empty()) r.error(apath, "an action name must not be empty");
    if (!r.isObject(a, apath)) continue;
    ActionDef def;
    def.name = it.key();
    if (auto v = r.string(a, apath, "side", false)) {
      if (*v == "daemon") {
        def.side = ActionSide::kDaemon;
      } else if (*v != "client") {
        r.error(joinPath(apath, "side"), "expected client or daemon");
      }
    }
    if (auto v = r.string(a, apath, "kind", false)) {
      if (*v == "wait") {
        def.kind = DaemonActionKind::kWait;
      } else if (*v == "signal") {
        def.kind = DaemonActionKind::kSignal;
      } else {
        r.error(joinPath(apath, "kind"), "expected wait or signal");
      }
      if (def.side != ActionSide::kDaemon) {
        r.error(joinPath(apath, "kind"), "only daemon-side actions have a kind");
      }
    } else if (def.side == ActionSide::kDaemon) {
      r.error(joinPath(apath, "kind"), "is required for a daemon-side action (wait or signal)");
    }
    if (auto v = r.number(a, apath, "timeout_s", false)) {
      def.timeout_s = static_cast<float>(*v);
      if (!(*v > 0)) r.error(joinPath(apath, "timeout_s"), "must be > 0");
      checkAtMost(r, apath, "timeout_s", *v, kMaxTimeoutS, "s");
      if (def.side != ActionSide::kClient) {
        r.error(joinPath(apath, "timeout_s"), "only client-side actions time out");
      }
    }
    if (auto v = r.boolean(a, apath, "game_only", false)) def.game_only = *v;
    if (auto v = r.boolean(a, apath, "coercive", false)) def.coercive = *v;
    if (def.side == ActionSide::kDaemon && (def.game_only || def.coercive)) {
      r.error(apath, "game_only and coercive apply to client-side actions only");
    }
    if (auto v = r.string(a, apath, "signal", false)) {
      def.signal = *v;
      if (def.kind != DaemonActionKind::kSignal) {
        r.error(joinPath(apath, "signal"), "only actions of kind signal name a signal");
      } else if (v->empty()) {
        r.error(joinPath(apath, "signal"), "must not be empty");
      }
    }
    if (a.contains("emits")) readStimulus(a["emits"], joinPath(apath, "emits"), r, def.emits);
    out.push_back(std::move(def));
  }
}

void InfluenceSet::loadObject(const json& object, JsonReader& r) {
  if (!r.validate(object, SchemaId::kInfluences)) return;
  for (auto it = object.begin(); it != object.end(); ++it) {
    if (it.key() == "$schema") continue;
    const std::string path = joinPath("", it.key());
    const json& j = it.value();
    if (it.key().empty()) r.error(path, "an influence name must not be empty");
    if (!r.isObject(j, path)) continue;
    InfluenceDef def;
    def.name = it.key();
    if (auto v = r.integer(j, path, "priority", false)) {
      if (*v < INT16_MIN || *v > INT16_MAX) {
        r.error(joinPath(path, "priority"), "must be within -32768..32767");
      } else {
        def.priority = static_cast<int16_t>(*v);
      }
    }
    if (j.contains("actions")) readActionDefs(j["actions"], joinPath(path, "actions"), r, def.actions);
    influences_.push_back(std::move(def));
  }
}

bool InfluenceSet::loadFile(const std::string& file, std::vector<std::string>& errors) {
  JsonReader reader(file);
  json j;
  if (reader.parseFile(j)) loadObject(j, reader);
  errors.insert(errors.end(), reader.errors().begin(), reader.errors().end());
  return reader.ok();
}

std::optional<uint16_t> ArchetypeSet::find(std::string_view name) const {
  for (size_t i = 0; i < archetypes_.size(); ++i) {
    if (archetypes_[i].name == name) return static_cast<uint16_t>(i);
  }
  return std::nullopt;
}

}  // namespace npc
