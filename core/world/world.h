// The world model: entities, places and static obstacles, plus the spatial index that
// answers neighbour queries. See core/world/README.md for invariants and costs.
//
// Thread: owned by the simulation's tick thread; nothing here is synchronised.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "world/entity_table.h"
#include "world/limits.h"
#include "world/name_table.h"
#include "world/obstacle.h"
#include "world/place.h"
#include "world/place_locator.h"
#include "world/spatial_grid.h"

namespace npc {

struct WorldOptions {
  float grid_cell_size_m = 8.f;
  uint32_t grid_buckets = 4096;
  WorldBounds bounds;  // where positions may lie; checked where input enters (limits.h)
};

class World {
 public:
  explicit World(const WorldOptions& options = {});

  // --- entities -----------------------------------------------------------------------
  EntityTable& entities() { return entities_; }
  const EntityTable& entities() const { return entities_; }
  // Marks positions changed so the next refreshSpatialIndex() rebuilds.
  void markMoved() { index_dirty_ = true; }
  // Rebuilds the neighbour index if anything moved, was added or removed since the last call.
  void refreshSpatialIndex();
  // Dense rows of entities within radius_m of center as of the last refresh; see
  // SpatialGrid::queryRadius for ordering and truncation.
  uint32_t queryRadius(Vec3 center, float radius_m, std::span<uint32_t> out_rows,
                       bool* truncated = nullptr) const {
    return grid_.queryRadius(center, radius_m, out_rows, truncated);
  }
  template <class Visit>
  void forEachInRadius(Vec3 center, float radius_m, Visit&& visit) const {
    grid_.forEachInRadius(center, radius_m, visit);
  }

  NameTable<SpeciesId>& species() { return species_; }
  const NameTable<SpeciesId>& species() const { return species_; }

  // --- places -------------------------------------------------------------------------
  // Adds a place; nullopt when the name is taken or the table is full.
  std::optional<PlaceIndex> addPlace(std::string_view name, const Aabb& bounds);
  PlaceIndex findPlace(std::string_view name) const;
  const Place* place(PlaceIndex index) const;
  std::span<const Place> places() const { return places_; }
  // The first place (in definition order) whose bounds contain p, or kNone.
  PlaceIndex placeAt(Vec3 p) const;

  // --- obstacles ----------------------------------------------------------------------
  // Inserts or replaces the obstacle with this id. O(1); removal swaps the last obstacle
  // into the hole, so obstacles() order depends only on the sequence of calls.
  void upsertObstacle(const Obstacle& obstacle);
  bool removeObstacle(ObstacleId id);
  std::span<const Obstacle> obstacles() const { return obstacles_; }
  // Nearest obstacle crossed by segment from->to, or nullopt when the line is clear.
  std::optional<RayHit> raycast(Vec3 from, Vec3 to) const;

 private:
  EntityTable entities_;
  NameTable<SpeciesId> species_;
  SpatialGrid grid_;
  std::vector<Vec3> scratch_positions_;
  bool index_dirty_ = true;
  std::vector<Place> places_;
  PlaceLocator place_locator_;  // placeAt without trying every place
  std::vector<Obstacle> obstacles_;
  std::unordered_map<uint64_t, uint32_t> obstacle_slot_;  // id -> index; lookups only
};

}  // namespace npc
