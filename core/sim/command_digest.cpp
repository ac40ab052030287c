#include "sim/command_digest.h"

#include <variant>

namespace npc {

namespace {

uint8_t fieldsOf(const EntityState& s) {
  uint8_t fields = 0;
  if (s.position) fields |= CommandDigest::kPosition;
  if (s.forward) fields |= CommandDigest::kForward;
  if (s.velocity) fields |= CommandDigest::kVelocity;
  if (s.eye_height_m) fields |= CommandDigest::kEyeHeight;
  if (s.active) fields |= CommandDigest::kActive;
  if (s.takeable) fields |= CommandDigest::kTakeable;
  return fields;
}

bool isPlain(const EntityState& s) {
  return !s.relayed && !s.lifetime_s && s.species.empty() && s.place.empty() &&
         s.group.empty() && validateState(s).isOk();
}

}  // namespace

CommandDigest CommandDigest::of(const Command& command) {
  CommandDigest d;
  d.origin = command.origin;
  const auto* upsert = std::get_if<UpsertEntity>(&command.body);
  if (upsert == nullptr) return d;
  const EntityState& s = upsert->state;
  d.id = s.id;
  d.entity_kind = s.kind;
  d.kind = isPlain(s) ? Kind::kPlainUpsert : Kind::kUpsert;
  d.fields = fieldsOf(s);
  if (s.position) d.position = *s.position;
  return d;
}

}  // namespace npc
