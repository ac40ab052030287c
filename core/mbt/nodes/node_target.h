// A node's target attribute (an action's to= / at=, <CanReach to=>): which point or entity
// it names, parsed once at load and resolved when the node starts, since the attention
// target and the QueryTPS registers change while the tree runs.
//   Target                 the attention target (an entity, or a sound's position)
//   RefPoint / LastOp      the RefPoint register (QueryTPS)
//   Cover                  the Cover register (QueryTPS register="Cover")
//   InitialPosition / Home the agent's home
//   entity:<id>            an entity by id (its position is the host's to know)
//   x,y,z                  a position
#pragma once

#include <cstdint>
#include <string_view>

#include "mbt/host.h"
#include "world/ids.h"
#include "world/vec3.h"

namespace npc {

struct MbtContext;

// The forms above, for load errors ("to \"x\" is not a target (...)").
inline constexpr std::string_view kMbtNodeTargetForms =
    "Target, RefPoint, LastOp, Cover, InitialPosition, entity:<id> or x,y,z";

struct MbtNodeTarget {
  enum class Source : uint8_t { kAttention, kRefPoint, kCover, kHome, kEntity, kPosition };
  Source source = Source::kAttention;
  EntityId entity = EntityId::kNone;  // kEntity
  Vec3 position;                      // kPosition
};

// "x,y,z" (spaces allowed around the numbers); false when malformed.
bool parseMbtPosition(std::string_view text, Vec3& out);
// One of the forms above (names case-insensitive); false when it is none of them.
bool parseMbtNodeTarget(std::string_view text, MbtNodeTarget& out);
// Fills `param` (type, entity, position) with what the target names now; false with `why`
// ("has no attention target") when it names nothing yet. An entity:<id> target leaves the
// position unset (the host resolves it).
bool resolveMbtNodeTarget(const MbtNodeTarget& target, MbtContext& ctx, MbtActionParam& param,
                          const char*& why);

}  // namespace npc
