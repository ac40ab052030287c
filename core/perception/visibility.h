// Who can be a potential target, and the cheap visibility arithmetic (range, field of view,
// the perception-coefficient increment). The ray test is obstacle_index.h; the bookkeeping
// is perception_system.cpp.
//
// Potential targets of an observer (seed "Identifying Targets"):
//   - only active entities, never the observer itself;
//   - players always, even of the observer's species;
//   - NPCs of another species (an NPC of the observer's species is never tracked);
//   - objects whose type (their entity species name) is registered here;
//   - attributes whose type is registered AND that have a principal (setPrincipal) which is
//     itself a potential target of the observer and not an attribute. Seeing an attribute puts
//     its principal in the visibility list, at the principal's position.
// Registered type → assessment multiplier (the target's threat index and a factor of the
// coefficient increment) and whether it is perceived through the coefficient. Players always
// use the coefficient (multiplier 1 unless their species is registered); other targets use
// "switch" vision unless their type says otherwise. A neutral type (never players) is
// tracked and remembered but announced as OnObjectSeen and never the attention target.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "base/status.h"
#include "perception/perception_config.h"
#include "world/entity.h"
#include "world/vec3.h"

namespace npc {

class World;

struct VisibilityType {
  float multiplier = 1.f;
  bool use_coefficient = false;
  bool neutral = false;  // seen and remembered, never an enemy (VisibilityTypeConfig)
};

class VisibilityRegistry {
 public:
  // A type is a species (World::species()). Re-registering replaces. [Limit: multiplier > 0]
  void registerType(SpeciesId type, VisibilityType settings);
  bool unregisterType(SpeciesId type);
  const VisibilityType* find(SpeciesId type) const;
  // Calls fn(SpeciesId type, const VisibilityType&) for each registered type, by index.
  template <class Fn>
  void forEachType(Fn&& fn) const {
    for (size_t i = 0; i < types_.size(); ++i) {
      if (types_[i]) fn(SpeciesId{static_cast<uint16_t>(i)}, *types_[i]);
    }
  }
  // Unregisters every type (a snapshot restore registers them again).
  void clearTypes() { types_.clear(); }

  // Gives `attribute` its principal; principal kNone clears it. kNotFound when either entity
  // is unknown to `world`; kInvalidArgument when `attribute` is not of kind attribute, when
  // the principal is an attribute, or when they are the same entity. The rule is checked
  // again at use time (kinds may change).
  Status setPrincipal(const World& world, EntityId attribute, EntityId principal);
  EntityId principalOf(EntityId attribute) const;
  // Every (attribute, principal) link, sorted by attribute id.
  std::span<const std::pair<EntityId, EntityId>> principals() const { return principals_; }
  // Snapshot restore: the links as they were captured, unchecked (a principal may be an
  // agent asleep, outside the world's table); sorted here.
  void restorePrincipals(std::vector<std::pair<EntityId, EntityId>> links);
  // Removes `entity` as an attribute and every mapping to it as a principal.
  void forgetEntity(EntityId entity);
  size_t attributeCount() const { return principals_.size(); }

 private:
  std::vector<std::optional<VisibilityType>> types_;        // indexed by species index
  std::vector<std::pair<EntityId, EntityId>> principals_;  // sorted by attribute id
};

// cos(fov/2) for a full cone angle in degrees; -1 for 360° (sees everything).
float cosHalfFov(float fov_deg);

// True when `to_target` lies inside the cone of half-angle acos(cos_half_fov) around
// `forward` (any length); the edge counts as inside (a 180° cone sees ±90°). A zero-length
// `to_target` is inside.
bool insideFov(Vec3 forward, Vec3 to_target, float cos_half_fov);

// One full update's increase of the coefficient for a target that passed every test:
//   ((1 − d/R)² + 0.1) × som_speed × multiplier
//   × (target eye < low_eye_height_m ? low_factor : 1) × (still ? still_factor : 1)
//   + (d < near_range_m ? near_boost : 0)
// The caller then subtracts decay_per_update (applied every full update).
float coefficientIncrement(const PerceptionConfig& config, float distance_m,
                           float sight_range_m, float multiplier, float target_eye_height_m,
                           bool target_moving);

// The target is moving when its horizontal-or-vertical speed reaches still_speed_mps.
bool isMoving(const PerceptionConfig& config, const Entity& target);

// Memory duration for a target of threat index `threat` that was visible for visible_s.
float memoryDuration(const MemoryConfig& config, float threat, double visible_s);

}  // namespace npc
