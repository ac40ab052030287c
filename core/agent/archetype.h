// Archetypes: the AI types designers define in data (villager, guard, baker). Every agent
// names one; many agents share one immutable definition.
//
// File format (config/archetypes/*.json): an object mapping archetype names to
//   { "species": "human",
//     "notice_radius_m": 6,                    // players closer than this are noticed
//     "action_timeout_s": 30,                  // a client action not reported by then fails
//     "greet":  { "action": "Greet", "duration_s": 2, "cooldown_s": 20 },
//     "wander": { "radius_m": 8, "speed_mps": 1.4, "pause_s": [2, 6] } }
// Every key but "species" is optional; defaults are the values above.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

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

struct Archetype {
  std::string name;
  std::string species;
  float notice_radius_m = 6.f;
  float action_timeout_s = 30.f;
  GreetReflex greet;
  WanderReflex wander;
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
