// Line-of-sight acceleration structure over the world's box obstacles: a dense uniform grid
// over x/y (Z up) whose cells list the obstacles overlapping them, walked cell by cell along
// a ray (Amanatides–Woo DDA) with an exact 3-D slab test per obstacle and a mailbox stamp so
// an obstacle spanning several cells is tested once per ray. A ray touches only the cells
// under it, never every obstacle. Measured here: ≈ 0.1–0.2 µs per ≤ 50 m ray among 5 k–50 k
// boxes (README.md; ../shared/PERCEPTION-REFERENCE.md §7 picked this over rtree/Embree).
//
// The grid covers the union of the obstacles' x/y bounds; rays are clipped to it. When the
// bounds would need more than max_cells cells, the cell size grows until they fit.
// rebuild() copies what it needs, so the World may change its obstacle vector afterwards;
// the index is stale until the next rebuild() (PerceptionSystem rebuilds it when told
// obstacles changed, or when their count differs).
//
// Thread: tick thread only. Queries are const but update the mailbox stamps, so two threads
// must not query one index at once.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "world/obstacle.h"

namespace npc {

enum class SightBlock : uint8_t {
  kClear,      // nothing between the points
  kSoftCover,  // only soft cover crossed
  kHardCover,  // at least one hard obstacle crossed
};

struct SightLine {
  SightBlock block = SightBlock::kClear;
  ObstacleId obstacle = ObstacleId::kNone;  // the hard obstacle hit, or a soft one crossed
};

class ObstacleIndex {
 public:
  // [Limit: cell_size_m > 0 (else 8 m); max_cells >= 1]
  explicit ObstacleIndex(float cell_size_m = 8.f, uint32_t max_cells = 1u << 22);

  // Re-indexes `obstacles` (invalid boxes are skipped). O(boxes × cells each box spans);
  // allocates only when the world grew.
  void rebuild(std::span<const Obstacle> obstacles);

  // Hard cover anywhere on the segment wins and ends the walk early; otherwise soft cover if
  // any soft obstacle is crossed; otherwise clear. A segment starting or ending inside a box
  // crosses it.
  SightLine lineOfSight(Vec3 from, Vec3 to) const;
  // Which boxes one ray already tested (a box spans several cells). The plain queries use
  // the index's own, so they are for one thread at a time; a thread of its own passes its
  // own RayStamps (sized on first use and after the obstacles changed) and may then query
  // concurrently with others. The answer never depends on the stamps.
  struct RayStamps {
    std::vector<uint32_t> stamps;  // per box: the last ray that tested it
    uint32_t ray = 0;
  };
  SightLine lineOfSight(Vec3 from, Vec3 to, RayStamps& scratch) const;

  // Nearest obstacle the segment enters, as World::raycast but through the grid.
  std::optional<RayHit> raycast(Vec3 from, Vec3 to) const;

  size_t obstacleCount() const { return boxes_.size(); }
  float cellSize() const { return cell_; }
  uint32_t cellsX() const { return nx_; }
  uint32_t cellsY() const { return ny_; }
  size_t cellEntries() const { return items_.size(); }  // obstacle references over all cells

 private:
  struct Box {
    Aabb box;
    ObstacleId id;
    Cover cover;
  };
  // Calls visit(cell, t_exit) for each cell the segment crosses, in order, with the segment
  // parameter at which it leaves that cell; stops when visit returns false.
  template <class Visit>
  void walk(Vec3 from, Vec3 to, Visit&& visit) const;
  uint32_t nextStamp(RayStamps& scratch) const;

  float base_cell_;
  uint32_t max_cells_;
  float cell_ = 8.f;
  float inv_cell_ = 1.f / 8.f;
  float origin_x_ = 0.f, origin_y_ = 0.f;
  uint32_t nx_ = 0, ny_ = 0;
  std::vector<Box> boxes_;
  std::vector<uint32_t> cell_start_;  // cell c holds items_[start[c], start[c + 1])
  std::vector<uint32_t> items_;       // indices into boxes_
  mutable RayStamps own_stamps_;
};

}  // namespace npc
