// Uniform hashed grid over the ground plane (x, y) answering "which items lie within r of p".
//
// The grid is rebuilt from a dense position array with a counting sort into flat arrays,
// so a rebuild is O(n) and, once the arrays have grown to the world's size, allocates
// nothing. A query visits only the cells overlapping the query circle, then filters by
// true 3-D distance. Items are identified by their index in the array given to rebuild()
// (the entity table's dense row).
//
// Cost: cell_size_m should be about the most common query radius; a query touches
// ceil(2r / cell)^2 cells. Hash collisions only cost time: each item remembers its cell so
// a bucket shared by two cells never yields duplicates.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "world/vec3.h"

namespace npc {

class SpatialGrid {
 public:
  // [Limit: cell_size_m > 0; bucket_count rounded up to a power of two, >= 64]
  explicit SpatialGrid(float cell_size_m = 8.f, uint32_t bucket_count = 4096);

  // Re-indexes every item; item i is positions[i]. Non-finite positions are not indexed.
  void rebuild(std::span<const Vec3> positions);

  // Writes the indices of items within `radius_m` of `center` (3-D distance, inclusive)
  // into `out` in ascending index order and returns how many were written. When more
  // items match than `out` holds, the nearest are not preferred: `truncated` is set and
  // the first out.size() in index order are kept.
  uint32_t queryRadius(Vec3 center, float radius_m, std::span<uint32_t> out,
                       bool* truncated = nullptr) const;

  // Calls visit(index) for every item within radius_m of center (unordered).
  template <class Visit>
  void forEachInRadius(Vec3 center, float radius_m, Visit&& visit) const;

  float cellSize() const { return cell_size_; }
  size_t itemCount() const { return items_.size(); }

 private:
  struct Item {
    uint32_t index;
    int32_t cx;
    int32_t cy;
  };
  int32_t cellCoord(float v) const;
  uint32_t bucketOf(int32_t cx, int32_t cy) const;

  float cell_size_;
  float inv_cell_size_;
  uint32_t bucket_mask_;
  std::vector<uint32_t> bucket_start_;  // bucket b holds items_[start[b], start[b+1])
  std::vector<Item> items_;
  std::vector<Vec3> positions_;         // copy taken at rebuild, indexed by item index
};

template <class Visit>
void SpatialGrid::forEachInRadius(Vec3 center, float radius_m, Visit&& visit) const {
  if (!isFinite(center) || !(radius_m >= 0.f) || items_.empty()) return;
  const float r2 = radius_m * radius_m;
  const int32_t x0 = cellCoord(center.x - radius_m), x1 = cellCoord(center.x + radius_m);
  const int32_t y0 = cellCoord(center.y - radius_m), y1 = cellCoord(center.y + radius_m);
  for (int32_t cy = y0; cy <= y1; ++cy) {
    for (int32_t cx = x0; cx <= x1; ++cx) {
      const uint32_t b = bucketOf(cx, cy);
      for (uint32_t i = bucket_start_[b]; i < bucket_start_[b + 1]; ++i) {
        const Item& item = items_[i];
        if (item.cx != cx || item.cy != cy) continue;
        if (distanceSq(positions_[item.index], center) <= r2) visit(item.index);
      }
    }
  }
}

}  // namespace npc
