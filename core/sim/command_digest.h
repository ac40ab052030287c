// CommandDigest: the few bytes of a queued command that the tick reads to coalesce upserts
// (upsert_coalescer.h) without fetching the command itself.
//
// A command is 288 bytes written on a stream's core; the tick reading each one is what
// applying a stream's upserts costs (cache misses, core/sim/README.md "Ingest"). The
// submitting thread writes a 32-byte digest of each command as it queues a batch
// (CommandInbox), while the batch is still in its cache, into one dense array: the tick reads
// those, and never touches an upsert it skips.
#pragma once

#include <cstdint>

#include "sim/commands.h"
#include "world/entity.h"
#include "world/ids.h"
#include "world/vec3.h"

namespace npc {

struct CommandDigest {
  // The fields a plain upsert may set: EntityState's optional values but lifetime_s.
  enum Field : uint8_t {
    kPosition = 1 << 0,
    kForward = 1 << 1,
    kVelocity = 1 << 2,
    kEyeHeight = 1 << 3,
    kActive = 1 << 4,
    kTakeable = 1 << 5,
  };
  enum class Kind : uint8_t {
    kOther,   // not an upsert
    kUpsert,  // an upsert that is not plain
    // An upsert that sets nothing but Fields: valid (validateState), not relayed, no
    // lifetime, no species, place or group. Its archetype is not looked at: an existing
    // entity ignores it.
    kPlainUpsert,
  };

  EntityId id = EntityId::kNone;  // upserts
  Vec3 position;                  // when fields has kPosition
  ClientId origin = ClientId::kDaemon;
  Kind kind = Kind::kOther;
  EntityKind entity_kind = EntityKind::kObject;
  uint8_t fields = 0;

  static CommandDigest of(const Command& command);
};

}  // namespace npc
