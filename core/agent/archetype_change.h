// What a new definition of an archetype changes for the agents already running it, and
// whether that can take effect while they run.
//
// Live: values read while agents run or set when one starts — sensors (agents running it
// take the new values, except a value the game switched with SetSensors), the spawn
// inventory, the greet and wander reflexes' timings and distances, and the durations,
// cooldowns and speeds of its behaviors. Everything else (species, trees, behaviors and
// their order, actions, planners, the hibernation action, action timeouts, the greet
// action) is wired into the running simulation at start: changing it takes a restart.
#pragma once

#include <string>
#include <vector>

#include "agent/archetype.h"

namespace npc {

struct ArchetypeChange {
  std::vector<std::string> live;     // parts that changed and take effect now ("sensors")
  std::vector<std::string> restart;  // parts that changed and need a restart ("behaviors")
  bool any() const { return !live.empty() || !restart.empty(); }
};

ArchetypeChange compareArchetypes(const Archetype& was, const Archetype& now);

// An agent's sensors after its archetype's changed from `was` to `now`: each value that
// changed takes the new one, unless the agent's differs from `was` (the game switched it).
SensorConfig retunedSensors(const SensorConfig& agent, const SensorConfig& was,
                            const SensorConfig& now);

}  // namespace npc
