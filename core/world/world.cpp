#include "world/world.h"

namespace npc {

World::World(const WorldOptions& options) : grid_(options.grid_cell_size_m, options.grid_buckets) {}

void World::refreshSpatialIndex() {
  if (!index_dirty_) return;
  auto rows = entities_.rows();
  scratch_positions_.resize(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) scratch_positions_[i] = rows[i].position;
  grid_.rebuild(scratch_positions_);
  index_dirty_ = false;
}

std::optional<PlaceIndex> World::addPlace(std::string_view name, const Aabb& bounds) {
  if (findPlace(name) != PlaceIndex::kNone || places_.size() >= raw(PlaceIndex::kNone)) {
    return std::nullopt;
  }
  places_.push_back({std::string(name), bounds});
  place_locator_.update(places_);
  return static_cast<PlaceIndex>(places_.size() - 1);
}

PlaceIndex World::findPlace(std::string_view name) const {
  for (size_t i = 0; i < places_.size(); ++i) {
    if (places_[i].name == name) return static_cast<PlaceIndex>(i);
  }
  return PlaceIndex::kNone;
}

const Place* World::place(PlaceIndex index) const {
  return raw(index) < places_.size() ? &places_[raw(index)] : nullptr;
}

PlaceIndex World::placeAt(Vec3 p) const { return place_locator_.find(places_, p); }

void World::upsertObstacle(const Obstacle& obstacle) {
  auto [it, inserted] =
      obstacle_slot_.try_emplace(raw(obstacle.id), static_cast<uint32_t>(obstacles_.size()));
  if (inserted) {
    obstacles_.push_back(obstacle);
  } else {
    obstacles_[it->second] = obstacle;
  }
}

bool World::removeObstacle(ObstacleId id) {
  auto it = obstacle_slot_.find(raw(id));
  if (it == obstacle_slot_.end()) return false;
  const uint32_t index = it->second;
  obstacle_slot_.erase(it);
  if (index + 1 != obstacles_.size()) {
    obstacles_[index] = obstacles_.back();
    obstacle_slot_[raw(obstacles_[index].id)] = index;
  }
  obstacles_.pop_back();
  return true;
}

std::optional<RayHit> World::raycast(Vec3 from, Vec3 to) const {
  // Linear over obstacles: village-sized worlds hold tens of boxes. Perception (issue 02)
  // brings a broad-phase structure when worlds grow.
  std::optional<RayHit> best;
  for (const Obstacle& o : obstacles_) {
    auto t = segmentEntersBox(from, to, o.box);
    if (t && (!best || *t < best->fraction)) best = RayHit{o.id, o.cover, *t};
  }
  return best;
}

}  // namespace npc
