// Message helpers shared by the Simulation's source files (internal to core/sim).
#pragma once

#include <string>

#include "base/status.h"
#include "world/ids.h"

namespace npc {

inline std::string entityLabel(EntityId id) { return "entity " + std::to_string(raw(id)); }

// The error for a command about an agent that is not awake.
inline Status noAwakeAgent(EntityId id, bool hibernating) {
  if (hibernating) {
    return {StatusCode::kFailedPrecondition, entityLabel(id) + " is hibernating (its place is asleep)"};
  }
  return {StatusCode::kNotFound, entityLabel(id) + ": no such agent"};
}

}  // namespace npc
