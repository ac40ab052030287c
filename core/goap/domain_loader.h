// Loads one GOAP domain from JSON (config/goap/*.json) into an immutable GoapDomain.
// The file is first checked against config/schema/goap_domain.schema.json (keys, types,
// enums; a file that fails stops there, one error per root cause). Then every problem is
// collected as "file:line:col: /json/path: message" (core/base/json_reader.h) before the
// whole file is refused; errors inside templates and named fragments give the
// fragment's path and where it was used: "... (in template \"goto\" used at /actions/3)".
//
// Format (every key not marked "required" is optional; unknown keys are errors; the
// machine-readable form is the schema file above, and an action expanded from a template
// is checked against its "action" definition):
//
// {
//   "domain": "guard",                                        required, unique per library
//   "search": { "weight": 1, "heuristic": "auto" | "lmcut" | "blind", "max_nodes": 4096,
//               "max_expansions": 20000, "max_depth": 32, "max_work": 0,
//               "max_candidates": 3, "object_radius_m": 30, "at_tolerance_m": 0.5,
//               "prune": true, "accept_partial": false,
//               "node_lmcut_after": n,        expansions; absent: never (domain.h)
//               "pattern_states": 0 },        > 0: a pattern database per goal, built at load,
//                                             ≤ this many states; no positions (domain.h)
//   "goal_selection": { "hysteresis": 0, "retry_s": 2, "replan_cooldown_s": 0.5 },
//   "facts": [                                                required
//     { "name": "has_torch", "type": "bool", "initial": false },
//     { "name": "stance", "type": "enum", "values": ["standing", "crouched"], "initial": "standing" },
//     { "name": "at", "type": "enum", "values": ["home", "well"],
//       "positions": { "home": [0, 0], "well": [30, 40, 0] } },     metres, for travel costs
//     { "name": "wood", "type": "int", "min": 0, "max": 2, "initial": 0 } ],   [Limit: ≤ 64 values]
//   "targets": ["enemy"],                   positions given per request   [Limit: ≤ 8]
//   "blackboard": { "in_position": "bool" },  bool | int | float | entity | vec3 (shared schema)
//   "conditions": { "<name>": [cond...] | { "params": ["r"], "all": [cond...] } },
//   "effects":    { "<name>": [effect...] | { "params": [...], "all": [effect...] } },
//   "costs":      { "<name>": cost | { "params": [...], "cost": cost } },
//   "templates":  { "<name>": { "params": ["to", "c"], "action": action } },
//   "actions": [ action
//              | { "template": "goto", "args": { "to": "hall", "c": 4 } }
//              | { "template": "goto", "for_each": [ { "to": "hall", "c": 4 }, ... ] } ],
//   "smart_objects": [ { "species": "torch", "actions": ["PickUpTorch"] } ],
//   "goals": [ { "name": "burn", "priority": 5, "desired": [fact or any cond...], required: name, desired
//                "relevant": [fact or blackboard cond...], "end_with": "Gloat" } ],
//   "buckets": [ { "name": "Fight", "actions": ["Shoot", "goto_*"], "goals": ["kill"],
//                  "fallback": "Taunt" } ]              none given: one bucket "default"
// }
// action: { "name": required, "object": true | { "max_distance_m": 20, "max_candidates": 3 },
//           "pre": [cond...], "effects": [effect...], "cost": cost (default 1),
//           "pacing": { "tag": "swing" (default: the action name), "agent_penalty": 3,
//                       "group_penalty": 1, "half_life_s": 10 },
//           "records": ["tag"], "on_success": [ { "blackboard": "k", "set": v } ],
//           "params": { "animation": "swing", "reach": 2.5 } }
// cond:   { "fact": f, "op": "=", "value": v }   op: = == != < <= > >= (default =)
//         { "fact": f, "in": [v, ...] }          an enum fact has one of the values
//         { "distance_to": ref, "op": "<", "value": metres }     { "at": ref }
//         { "blackboard": key, "scope": "agent" | "group", "op": "=", "value": v }
//         { "use": "<named condition>", "args": {...} }       any cond: "eval_cost": n
//         { "any": [cond, cond, ...] }   action "pre" and goal "desired" (not "relevant"):
//             one of ≥ 2 alternatives holds; an alternative is one cond (a "use" may
//             expand to several: all of them), never another "any" (in a goal, fact conds
//             only). The planner searches one variant per combination of alternatives
//             [Limit: ≤ 16 per action or goal]; plans, traces and statistics still name
//             the action or goal, and count the "any" as one condition.
// effect: { "fact": f, "set": v } | { "fact": f, "add": n } | { "fact": f, "sub": n }
//         add/sub: int facts; leaving [min, max] makes the action inapplicable, unless
//         "clamp": true (then the fact saturates at max / min)
//         { "move_to": ref } | { "move_near": ref, "range": metres } | { "use": ..., "args": ... }
// cost:   number (= base) | [cost...] (summed) | { "use": ..., "args": ... }
//         | { "base": b, "travel_per_m": k, "distance_to": ref, "distance_per_m": k,
//             "by_fact": f, "table": { "<value>": number, ... } }
//         table: every value of f, except values one of the action's own fact conditions
//         rejects (the action never runs there; such entries are never read)
//         | { "by_fact": f, "travel_to": value, "per_m": k, "round": step }
//         travel formula: k × the distance between f's positions, rounded to a multiple of
//         step (default 0: not rounded); f is an enum with "positions"
// ref:    "$object" (the bound smart object; needs "object") or a target name.
// Template / fragment arguments replace "$param" strings: a whole "$p" string takes the
// argument's JSON value, "goto_$to" splices its text. "$object" is never a parameter.
// Wildcards: bucket action lists accept "prefix*".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "base/json_reader.h"
#include "goap/domain.h"
#include "world/vec3.h"

namespace npc::goap {

// Where a condition list stands: what its conditions may test.
//   kPrecondition  facts, locations, blackboard, any     (action "pre")
//   kDesired       facts, any of facts                   (goal "desired")
//   kRelevant      facts, blackboard                     (goal "relevant")
enum class ConditionSite : uint8_t { kPrecondition, kDesired, kRelevant };

class DomainLoader {
 public:
  DomainLoader(GoapLibrary& library, std::string file);
  // Parses, validates and compiles `text` into `out`; false when anything was wrong.
  bool load(std::string_view text, GoapDomain& out);
  const std::vector<std::string>& errors() const { return reader_.errors(); }

 private:
  struct Fragment {
    const nlohmann::json* body = nullptr;
    std::vector<std::string> params;
    std::string path;
  };

  void err(std::string_view path, std::string_view message);
  void parseSearch(const nlohmann::json& root);
  void parseFacts(const nlohmann::json& root);
  void parseTargets(const nlohmann::json& root);
  void parseBlackboard(const nlohmann::json& root);
  void collectFragments(const nlohmann::json& root, const char* key, const char* body_key,
                        std::vector<std::pair<std::string, Fragment>>& out);
  void parseActions(const nlohmann::json& root);
  void parseAction(const nlohmann::json& j, const std::string& path);
  void parseConditions(const nlohmann::json& list, const std::string& path, ConditionSite site,
                       bool has_object, std::vector<Condition>& out);
  void parseCondition(const nlohmann::json& j, const std::string& path, ConditionSite site,
                      bool has_object, std::vector<Condition>& out);
  bool parseAny(const nlohmann::json& list, const std::string& path, ConditionSite site,
                bool has_object, Condition& out);
  bool parseIn(const nlohmann::json& list, const std::string& path, Condition& out);
  void parseEffects(const nlohmann::json& list, const std::string& path, bool has_object,
                    std::vector<Effect>& out);
  void parseEffect(const nlohmann::json& j, const std::string& path, bool has_object,
                   std::vector<Effect>& out);
  void parseCost(const nlohmann::json& j, const std::string& path, bool has_object,
                 CostSpec& out);
  bool preExcludes(FactId fact, int32_t value) const;
  void parsePositions(const nlohmann::json& j, const std::string& path, FactId f);
  bool travelCosts(const nlohmann::json& j, const std::string& path, FactId f,
                   std::vector<float>& values);
  bool parseRef(const nlohmann::json& j, const std::string& path, bool has_object,
                LocationRef& out);
  bool parseOp(const nlohmann::json& obj, const std::string& path, CompareOp& out);
  bool factValue(FactId fact, const nlohmann::json& v, const std::string& path, bool ordering,
                 int32_t& out);
  FactId factByName(const nlohmann::json& obj, const std::string& path, const char* key);
  const Fragment* useFragment(const nlohmann::json& j, const std::string& path,
                              const std::vector<std::pair<std::string, Fragment>>& table,
                              const char* what, nlohmann::json& expanded);
  void parseSmartObjects(const nlohmann::json& root);
  void parseGoals(const nlohmann::json& root);
  void parseBuckets(const nlohmann::json& root);
  void finish();
  void resolveCondition(Condition& c);
  void compileVariants(ActionDef& a, const std::string& path);
  void compileGoal(GoalDef& g, const std::string& path);
  void buildPatternDatabases();
  std::string conditionText(const Condition& c) const;

  GoapLibrary& library_;
  JsonReader reader_;
  GoapDomain* d_ = nullptr;
  std::string note_;  // appended to errors while inside a template or fragment
  // By FactId: an enum fact's "positions" (one per value, unset when not given).
  std::vector<std::vector<std::optional<Vec3>>> positions_;
  const std::vector<Condition>* cost_pre_ = nullptr;  // the preconditions of the action whose
                                                      // cost is being parsed
  std::vector<std::pair<std::string, Fragment>> cond_fragments_, effect_fragments_,
      cost_fragments_, templates_;
  std::vector<std::string> action_paths_;  // where each action was defined
  std::vector<std::string> goal_paths_;    // where each goal was defined
  bool uses_location_ = false;
  std::string_view source_;  // the text being loaded
};

}  // namespace npc::goap
