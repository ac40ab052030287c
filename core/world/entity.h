// One row of the entity table: everything the simulation knows about a thing in the world.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>

#include "world/ids.h"
#include "world/vec3.h"

namespace npc {

enum class EntityKind : uint8_t { kNpc, kPlayer, kObject, kAttribute };

std::string_view toString(EntityKind kind);
std::optional<EntityKind> parseEntityKind(std::string_view text);

// Eye height used when a client gives none: a standing human.
inline constexpr float kDefaultEyeHeightM = 1.7f;

struct Entity {
  EntityId id = EntityId::kNone;
  EntityKind kind = EntityKind::kObject;
  SpeciesId species = SpeciesId::kNone;  // in World::species()
  PlaceIndex place = PlaceIndex::kNone;
  bool active = true;
  bool place_from_client = false;  // place named by the client, not derived from bounds
  ClientId owner = ClientId::kDaemon;  // who created it; owners receive their agents' actions
  Vec3 position;
  Vec3 forward{1.f, 0.f, 0.f};     // unit vector
  Vec3 velocity;                   // m/s
  float eye_height_m = kDefaultEyeHeightM;
  bool takeable = true;            // objects: Take may carry it off (false: an oven, a well)
  // Attributes (footprints, blood), and visitors (players relayed from another cluster
  // node, isVisitor): simulated time at which it vanishes from the world.
  double expires_s = std::numeric_limits<double>::infinity();
};

// A player this daemon does not have from the game but from the node that does, which
// relays it while it is near a place held here (EntityState::relayed). Only relayed
// players have a lifetime.
inline bool isVisitor(const Entity& e) {
  return e.kind == EntityKind::kPlayer && e.expires_s != std::numeric_limits<double>::infinity();
}

}  // namespace npc
