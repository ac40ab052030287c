#include "sim/commands.h"

#include <cmath>

#include "sim/sim_messages.h"

namespace npc {

Status validateState(const EntityState& s) {
  if (s.id == EntityId::kNone) return {StatusCode::kInvalidArgument, "entity id must not be 0"};
  if (s.position && !isFinite(*s.position)) return invalidField(s.id, "position", "must be finite");
  if (s.forward && (!isFinite(*s.forward) || lengthSq(*s.forward) < 1e-12f)) {
    return invalidField(s.id, "forward", "must be a finite, non-zero direction");
  }
  if (s.velocity && !isFinite(*s.velocity)) return invalidField(s.id, "velocity", "must be finite");
  if (s.eye_height_m && !(std::isfinite(*s.eye_height_m) && *s.eye_height_m >= 0.f)) {
    return invalidField(s.id, "eye_height", "must be finite and >= 0");
  }
  return {};
}

}  // namespace npc
