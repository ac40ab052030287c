// Archetypes: the AI types designers define in data (villager, guard, baker). Every agent
// names one; many agents share one immutable definition.
//
// File format (config/archetypes/*.json): an object mapping archetype names to
//   { "species": "human",
//     "selection_tree": "Grunt",               // behavior selection tree, or instead
//     "behavior": "Ambient",                   // one fixed behavior; neither: "No Behavior"
//     "perception": { "sight_range_m": 30, "fov_deg": 120, ... },  // SensorConfig
//     "behaviors": { "GruntIdle": { "mode": "wander" },
//                    "GruntAttack": { "mode": "attack", "action": "Attack",
//                                     "duration_s": 1, "cooldown_s": 2 },
//                    "GruntInvestigate": { "mode": "investigate",
//                                          "set_when_done": { "AwareOfSound": false } } },
//     "action_timeout_s": 30,                  // a client action not reported by then fails
//     "greet":  { "action": "Greet", "duration_s": 2, "cooldown_s": 20 },
//     "wander": { "radius_m": 8, "speed_mps": 1.4, "pause_s": [2, 6] } }
// Every key but "species" is optional; defaults are the values above. "notice_radius_m"
// is accepted as the sight range for files written before perception existed.
//
// Behaviors: a selection tree chooses a behavior by name; the archetype says what that
// behavior does: a modular behavior tree ("tree": "GuardCombat", core/mbt) or a built-in
// mode (see builtin_behaviors.h):
//   idle, wander, greet, ambient (greet, else wander), investigate, attack, face_target,
//   long_action (a daemon-side long action such as ContinuousBaking, see
//   core/hibernation/long_action.h), plan (the archetype's "planner", see PlannerDef).
// "hibernation_action" names the long action the daemon starts when the agent's place goes
// to sleep, for controllers that do not hand over themselves (a selection tree that picks a
// long_action behavior on OnPlaceHibernating needs none; nor does an agent whose current
// behavior already is a long action); "inventory" gives its
// starting items, e.g. { "flour": 100 }.
// "No Behavior" (no tree, no fixed behavior, or a behavior with no entry here) only faces
// its attention target.
// "actions" adds actions to the archetype's own action list (see ActionDef below), e.g.
// { "Go": { "side": "client", "timeout_s": 60 }, "Wait": { "side": "daemon", "kind": "wait" },
//   "Die": { "side": "client", "game_only": true, "coercive": true } }.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "intent/intent_types.h"
#include "perception/perception_config.h"

namespace npc {

class JsonReader;

struct GreetReflex {
  std::string action = "Greet";
  float duration_s = 2.f;
  float cooldown_s = 20.f;
  bool operator==(const GreetReflex&) const = default;
};

struct WanderReflex {
  float radius_m = 8.f;     // around the agent's home position; 0 = stand still
  float speed_mps = 1.4f;
  float pause_min_s = 2.f;
  float pause_max_s = 6.f;
  bool operator==(const WanderReflex&) const = default;
};

enum class BehaviorMode : uint8_t {
  kIdle,
  kWander,
  kGreet,
  kAmbient,
  kInvestigate,
  kAttack,
  kFaceTarget,
  kLongAction,  // runs the daemon-side long action `action` (e.g. ContinuousBaking)
  kPlan,        // the archetype's GOAP planner chooses goals and plans (core/goap)
};

std::string_view toString(BehaviorMode mode);

// What a named behavior does until it is given a behavior tree.
struct BehaviorDef {
  std::string name;              // as the selection tree names it (after translation)
  BehaviorMode mode = BehaviorMode::kIdle;
  std::string action;            // greet / attack: the action to perform ("" = greet's)
  float duration_s = 1.f;        // greet / attack: action duration; investigate: look around
  float cooldown_s = 2.f;        // greet / attack: pause between two actions
  float speed_mps = 0.f;         // wander / investigate / attack approach; 0 = wander speed
  // SetBehaviorVariable calls made when the behavior has done its job (greet: the greeting
  // completed; investigate: the look-around completed), e.g. {"AwareOfSound": false}.
  std::vector<std::pair<std::string, bool>> set_when_done;
  std::string tree;              // a modular behavior tree runs the behavior (mode unused)
  std::string bucket;            // plan mode and trees' <Plan>: planner bucket ("" = name)
  bool operator==(const BehaviorDef&) const = default;
};

// The GOAP planner an archetype's agents use (config "goap_dir", core/goap), e.g.
//   "planner": { "domain": "guard",
//                "targets": { "post": "home", "enemy": "attention" },
//                "blackboard": { "bored": true },
//                "transient_facts": ["something_burning"],
//                "perform": { "PickUpLamp": "Take" },
//                "trace": false }
// targets: where each of the domain's targets is — "home" (spawn position), "attention"
// (the attention target, absent when there is none) or "self". blackboard: the agent's
// starting blackboard values (bool or number). transient_facts: facts that go back to their
// initial value when a goal is reached (an achievement, not a lasting state: "enemy_hit").
// perform: the action an agent performs for a domain action, when not the one of that name
// (a domain's PickUpLamp done by the daemon-side Take, which moves the lamp into the
// agent's inventory).
// trace: keep a planner trace of every search of these agents (GetPlanTrace can turn it
// on per agent too). Behaviors of mode "plan" run the planner in the bucket named after the
// behavior ("bucket" overrides); behavior trees use <Plan> / <ExecutePlan>.
//
// Several planners (seed 003's ships: one planner for movement patterns, one for attacks,
// planning independently and talking through the shared blackboard):
//   "planners": [ { "name": "helm",    "domain": "ship_helm", ... },
//                 { "name": "gunnery", "domain": "ship_gunnery", ... } ]
// Each is a PlannerDef as above, named, with its own domain, facts and plan; the agent's
// blackboard and pacing memory are one, shared by all. A behavior of mode "plan" runs
// every planner whose domain has the behavior's bucket (at least one must), each in that
// bucket; their steps go to the agent's one intention queue in the order they are
// programmed. Trees name the planner: <Plan planner="gunnery" /> (without a name: the
// first of the list). "planner" is the one-planner form (named after its domain); an
// archetype has one form or the other. [Limit: at most kMaxPlannersPerAgent planners]
inline constexpr size_t kMaxPlannersPerAgent = 4;

struct PlannerDef {
  std::string name;                                         // "planners": its name; else the domain
  std::string domain;
  std::vector<std::pair<std::string, std::string>> targets;
  std::vector<std::pair<std::string, double>> blackboard;   // bools as 0 / 1
  std::vector<std::string> transient_facts;
  std::vector<std::pair<std::string, std::string>> perform;  // domain action -> action performed
  bool trace = false;
  bool operator==(const PlannerDef&) const = default;
};

// Daemon-side implementations an action defined in data can have.
enum class DaemonActionKind : uint8_t {
  kNone,    // client-side actions
  kWait,    // core/intent WaitAction: waits its first value parameter ("10" "min")
  kSignal,  // posts a signal to its first entity argument (Talk): named `signal`, else by its
            // first message parameter ("breads_ready"); fails if that entity is not awake
};

// An action an archetype's own list or an influence offers, defined in data:
//   "Go":   { "side": "client", "timeout_s": 60 }   performed by the game client
//   "Wait": { "side": "daemon", "kind": "wait" }     performed inside the daemon
//   "Talk": { "side": "daemon", "kind": "signal" }
//   "Die":  { "side": "client", "game_only": true, "coercive": true }
// side: "client" (default) or "daemon" (then "kind" is required: wait, signal).
// timeout_s: client side only; a result not reported by then fails the intention (0: the
// archetype's action_timeout_s). game_only: only the game may program it (GameAction).
// coercive: performed on another agent (ExternalAction), it interrupts that agent's action.
// game_only and coercive apply to client-side actions only.
// emits: what others perceive when the action completes (seed 004, "resolution emits
// stimuli"): a sound heard like any other, and a signal to the agents within a radius
// (sender: the actor; subject: what the action concerned; signal.action: its name), e.g.
//   "Open": { "emits": { "sound_m": 12, "sound": "generic", "signal": "OnDoorOpened",
//                         "signal_m": 10 } }
struct ActionStimulus {
  float sound_radius_m = 0.f;       // 0: silent [Limit: <= kMaxSoundRadiusM]
  std::string sound_kind;           // "" = generic (core/perception/sounds.h kinds)
  std::string signal;               // "" = none
  float signal_radius_m = 10.f;     // [Limit: > 0, <= kMaxSignalRadiusM]
  bool any() const { return sound_radius_m > 0.f || !signal.empty(); }
  bool operator==(const ActionStimulus&) const = default;
};

struct ActionDef {
  std::string name;
  ActionSide side = ActionSide::kClient;
  DaemonActionKind kind = DaemonActionKind::kNone;
  float timeout_s = 0.f;
  bool game_only = false;
  bool coercive = false;
  std::string signal;  // kSignal: fixed signal name ("" = the message parameter)
  ActionStimulus emits;
  bool operator==(const ActionDef&) const = default;
};

// Reads an "actions" object at `path` into `out`; problems go to `reader`.
void readActionDefs(const nlohmann::json& actions, const std::string& path, JsonReader& reader,
                    std::vector<ActionDef>& out);

struct Archetype {
  std::string name;
  std::string file;              // where it is defined, as messages name it ("" = in code)
  std::string species;
  std::string selection_tree;    // "" = none
  std::string behavior;          // with no tree: the one behavior it always runs ("" = none)
  SensorConfig sensors;
  std::vector<BehaviorDef> behaviors;
  std::string hibernation_action;  // long action started when its place goes to sleep
  std::vector<std::pair<std::string, int32_t>> inventory;  // at spawn, e.g. {"flour", 100}
  float action_timeout_s = 30.f;
  GreetReflex greet;
  WanderReflex wander;
  std::vector<ActionDef> actions;  // added to its own action list (with the behaviors' own)
  std::vector<PlannerDef> planners;  // "planner" or "planners"; empty = it does not plan

  // Index of the behavior named `name`, or -1.
  int findBehavior(std::string_view name) const;
  // Index of the planner named `name` ("" = the first), or -1.
  int findPlanner(std::string_view name) const;
};

class ArchetypeSet {
 public:
  // Adds every archetype of a JSON object; problems go to `reader` (file and JSON path).
  void loadObject(const nlohmann::json& object, JsonReader& reader);
  // Loads every *.json file of `dir` (sorted by name, so load order is stable).
  // Returns false and fills `errors` if any file is malformed or a name repeats.
  bool loadDirectory(const std::string& dir, std::vector<std::string>& errors);

  void add(Archetype archetype) { archetypes_.push_back(std::move(archetype)); }
  // Index of `name`, or nullopt.
  std::optional<uint16_t> find(std::string_view name) const;
  const Archetype& at(uint16_t index) const { return archetypes_[index]; }
  size_t size() const { return archetypes_.size(); }

 private:
  std::vector<Archetype> archetypes_;
};

// An influence (seed 004: a spell, a profession, a vehicle): an action list agents are put
// under at run time (AddInfluence / RemoveInfluence). Lookup goes through the agent's own
// actions first, then its influences, highest priority first (equal priorities: file order).
// File format (daemon config "influences"): an object mapping influence names to
//   { "priority": 10, "actions": { "Fly": { "side": "client" } } }
// "priority" is an integer in -32768..32767 (default 0); "actions" as ActionDef.
struct InfluenceDef {
  std::string name;
  int16_t priority = 0;
  std::vector<ActionDef> actions;

  bool operator==(const InfluenceDef&) const = default;
};

class InfluenceSet {
 public:
  // Adds every influence of a JSON object; problems go to `reader` (file and JSON path).
  void loadObject(const nlohmann::json& object, JsonReader& reader);
  // Loads one file; false with "file: /path: message" lines in `errors` when it is bad.
  bool loadFile(const std::string& file, std::vector<std::string>& errors);

  void add(InfluenceDef influence) { influences_.push_back(std::move(influence)); }
  const std::vector<InfluenceDef>& all() const { return influences_; }
  size_t size() const { return influences_.size(); }

 private:
  std::vector<InfluenceDef> influences_;
};

}  // namespace npc
