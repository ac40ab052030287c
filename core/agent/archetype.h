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
// behavior does with a built-in mode (see builtin_behaviors.h):
//   idle, wander, greet, ambient (greet, else wander), investigate, attack, face_target,
//   long_action (a daemon-side long action such as ContinuousBaking, see
//   core/hibernation/long_action.h).
// "hibernation_action" names the long action an agent starts when its place goes to sleep
// (none needed when its current behavior already is a long action); "inventory" gives its
// starting items, e.g. { "flour": 100 }.
// "No Behavior" (no tree, no fixed behavior, or a behavior with no entry here) only faces
// its attention target.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "perception/perception_config.h"

namespace npc {

class JsonReader;

struct GreetReflex {
  std::string action = "Greet";
  float duration_s = 2.f;
  float cooldown_s = 20.f;
};

struct WanderReflex {
  float radius_m = 8.f;     // around the agent's home position; 0 = stand still
  float speed_mps = 1.4f;
  float pause_min_s = 2.f;
  float pause_max_s = 6.f;
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
};

struct Archetype {
  std::string name;
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

  // Index of the behavior named `name`, or -1.
  int findBehavior(std::string_view name) const;
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

}  // namespace npc
