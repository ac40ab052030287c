// Reflexes: the built-in reactions every archetype has — notice a player close by and greet
// them, otherwise wander around home with pauses. They choose the agent's next client-side
// action when it has none running. Behavior trees take over from them for archetypes that
// name one; reflexes remain the fallback for archetypes that do not.
#pragma once

#include <vector>

#include "agent/agent.h"
#include "agent/archetype.h"
#include "sim/tick_output.h"
#include "world/world.h"

namespace npc {

// Interned names the reflexes emit, resolved once so the tick never touches strings.
struct ReflexVocabulary {
  uint16_t move_to = 0;
  uint16_t param_target = 0;
  uint16_t param_position = 0;
  uint16_t param_speed = 0;
  uint16_t param_duration = 0;
  uint16_t unit_s = 0;
  uint16_t unit_mps = 0;
  std::vector<uint16_t> greet_action;  // per archetype index

  void intern(NameTable& names, const ArchetypeSet& archetypes);
};

class Reflexes {
 public:
  Reflexes(const ArchetypeSet& archetypes, const ReflexVocabulary& vocabulary)
      : archetypes_(archetypes), vocabulary_(vocabulary) {}

  // If the agent is idle: updates what it notices and, when something is worth doing, fills
  // `out` (agent, name, params; the caller assigns the intention) and returns true.
  bool decide(Agent& agent, const Entity& self, const World& world, double now_s,
              ActionOut& out) const;

  // Bookkeeping when the agent's running action ends.
  void onActionEnded(Agent& agent, double now_s, bool completed) const;

 private:
  EntityId nearestPlayer(const Entity& self, const World& world, float radius_m) const;

  const ArchetypeSet& archetypes_;
  const ReflexVocabulary& vocabulary_;
};

}  // namespace npc
