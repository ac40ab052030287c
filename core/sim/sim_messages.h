// Message helpers shared by the Simulation's source files (internal to core/sim).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"
#include "world/ids.h"

namespace npc {

inline std::string entityLabel(EntityId id) { return "entity " + std::to_string(raw(id)); }

// A field of an entity's update that cannot be applied: "entity 17: position must be finite".
inline Status invalidField(EntityId id, std::string_view field, std::string_view problem) {
  return {StatusCode::kInvalidArgument,
          entityLabel(id) + ": " + std::string(field) + " " + std::string(problem)};
}

// The error for a command about an agent that is not awake.
inline Status noAwakeAgent(EntityId id, bool hibernating) {
  if (hibernating) {
    return {StatusCode::kFailedPrecondition, entityLabel(id) + " is hibernating (its place is asleep)"};
  }
  return {StatusCode::kNotFound, entityLabel(id) + ": no such agent"};
}

// An argument error ("params[0].number: ...") of a stream item, located like the server's
// conversion errors: "game_actions[2] (agent 40).params[0].number: ...". Other errors pass
// unchanged: they name their entity already.
inline Status locateArgumentError(Status s, const char* list, uint32_t item, EntityId agent) {
  if (s.isOk() || s.message().rfind("params", 0) != 0) return s;
  return {s.code(), std::string(list) + "[" + std::to_string(item) + "] (agent " +
                        std::to_string(raw(agent)) + ")." + s.message()};
}

}  // namespace npc
