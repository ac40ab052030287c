// Per-agent runtime state: small, flat, and owned by the simulation's agent table.
// Definitions (the archetype) are shared and immutable; only what differs per agent is here.
#pragma once

#include <cstdint>

#include "base/rng.h"
#include "world/ids.h"
#include "world/name_table.h"
#include "world/vec3.h"

namespace npc {

struct Agent {
  EntityId id = EntityId::kNone;
  EntityHandle entity;          // the agent's body in the world's entity table
  uint16_t archetype = 0;       // index in the ArchetypeSet
  Vec3 home;                    // where it was spawned; wandering stays near it
  Rng rng;                      // seeded from (world seed, id): order-independent

  // The client-side action the agent is waiting on (one at a time until intentions land).
  IntentionId intention = IntentionId::kNone;
  uint16_t action = NameTable::kNone;
  double action_started_s = 0.0;
  double action_deadline_s = 0.0;
  float action_progress = 0.f;

  double idle_until_s = 0.0;    // no new wander before this
  double greet_ready_s = 0.0;   // no new greeting before this
  EntityId noticed = EntityId::kNone;  // nearest player in notice radius at the last decision

  uint32_t actions_completed = 0;
  uint32_t actions_failed = 0;

  bool busy() const { return intention != IntentionId::kNone; }
};

}  // namespace npc
