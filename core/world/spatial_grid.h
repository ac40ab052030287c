// Uniform hashed grid over the ground plane (x, y) answering "which items lie within r of p".
//
// The grid is rebuilt from a dense position array with a counting sort into flat arrays,
// so a rebuild is O(n) and, once the arrays have grown to the world's size, allocates
// nothing. A query visits only the cells overlapping the query circle, then filters by
// true 3-D distance. Items are identified by their index in the array given to rebuild()
// (the entity table's dense row), or by the id given beside it. Each item keeps its
// position beside it, so a cell walk reads one run of memory instead of looking positions
// up by index in a second array (the rows of a cell are scattered over the table when
// entities arrive in no spatial order).
//
// Cost: cell_size_m should be about the most common query radius; a query touches the
// cells its square overlaps, clipped to the occupied extent (the bounding rectangle of the
// cells holding items, recorded at rebuild). When that is still more cells than there are
// items, the query scans the items instead, so a query costs O(min(cells, items)) plus its
// results whatever its radius: a radius of 1e30 m costs one pass over the items, never a
// walk proportional to its area. Hash collisions only cost time: each item remembers its
// cell so a bucket shared by two cells never yields duplicates. To keep them rare, the
// bucket count grows with the items (at least one bucket per item, up to max_bucket_count):
// a world of 100,000 entities on 8 m cells spreads over tens of thousands of cells, and
// 4,096 buckets would make every cell's query test the items of ten others.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "world/vec3.h"

namespace npc {

class SpatialGrid {
 public:
  // [Limit: cell_size_m > 0; bucket counts rounded up to powers of two, >= 64;
  //  max_bucket_count >= bucket_count]
  explicit SpatialGrid(float cell_size_m = 8.f, uint32_t bucket_count = 4096,
                       uint32_t max_bucket_count = 1u << 22);

  // Re-indexes every item; item i is positions[i], reported as ids[i] when ids are given
  // (else as i). Non-finite positions are not indexed. [Limit: ids empty or as many as
  // positions]
  void rebuild(std::span<const Vec3> positions, std::span<const uint32_t> ids = {});

  // Writes the indices of items within `radius_m` of `center` (3-D distance, inclusive)
  // into `out` in ascending index order and returns how many were written. When more
  // items match than `out` holds, the nearest are not preferred: `truncated` is set and
  // the first out.size() in index order are kept.
  uint32_t queryRadius(Vec3 center, float radius_m, std::span<uint32_t> out,
                       bool* truncated = nullptr) const;

  // What one query examined: the work it did, whatever it found. A scan visits no cells and
  // tests every position; a cell walk tests only the items of the cells it visits.
  struct QueryWork {
    uint64_t cells_visited = 0;
    uint64_t items_tested = 0;
    uint64_t entries_walked = 0;  // bucket entries looked at, other cells' included
  };

  // Calls visit(index) for every item within radius_m of center (unordered) and returns the
  // work done. A negative, NaN or non-finite-centre query visits nothing.
  template <class Visit>
  QueryWork forEachInRadius(Vec3 center, float radius_m, Visit&& visit) const;

  float cellSize() const { return cell_size_; }
  size_t itemCount() const { return items_.size(); }
  size_t bucketCount() const { return size_t{bucket_mask_} + 1; }

 private:
  struct Item {
    Vec3 position;
    uint32_t index;
    int32_t cx;
    int32_t cy;
  };
  // The occupied cells a query square overlaps [inclusive]; empty when x0 > x1 or y0 > y1.
  struct CellRange {
    int32_t x0, x1, y0, y1;
    uint64_t cells() const {
      if (x0 > x1 || y0 > y1) return 0;
      return static_cast<uint64_t>(int64_t{x1} - x0 + 1) * static_cast<uint64_t>(int64_t{y1} - y0 + 1);
    }
  };
  int32_t cellCoord(float v) const;
  uint32_t bucketOf(int32_t cx, int32_t cy) const;
  CellRange clippedRange(Vec3 center, float radius_m) const;

  float cell_size_;
  float inv_cell_size_;
  uint32_t bucket_mask_;
  uint32_t max_bucket_mask_;
  std::vector<uint32_t> bucket_start_;  // bucket b holds items_[start[b], start[b+1])
  std::vector<Item> items_;             // finite positions only, grouped by bucket
  // Bounding rectangle of the occupied cells (meaningless while items_ is empty).
  int32_t min_cx_ = 0, max_cx_ = -1, min_cy_ = 0, max_cy_ = -1;
};

template <class Visit>
SpatialGrid::QueryWork SpatialGrid::forEachInRadius(Vec3 center, float radius_m,
                                                    Visit&& visit) const {
  QueryWork work;
  if (!isFinite(center) || !(radius_m >= 0.f) || items_.empty()) return work;
  // An infinite radius squares to inf: every finite position is within it.
  const float r2 = radius_m * radius_m;
  const CellRange range = clippedRange(center, radius_m);
  if (range.cells() > items_.size()) {
    // Wider than the items are many: one pass over all of them.
    for (const Item& item : items_) {
      ++work.items_tested;
      if (distanceSq(item.position, center) <= r2) visit(item.index);
    }
    return work;
  }
  for (int32_t cy = range.y0; cy <= range.y1; ++cy) {
    for (int32_t cx = range.x0; cx <= range.x1; ++cx) {
      ++work.cells_visited;
      const uint32_t b = bucketOf(cx, cy);
      for (uint32_t i = bucket_start_[b]; i < bucket_start_[b + 1]; ++i) {
        const Item& item = items_[i];
        ++work.entries_walked;
        if (item.cx != cx || item.cy != cy) continue;
        ++work.items_tested;
        if (distanceSq(item.position, center) <= r2) visit(item.index);
      }
    }
  }
  return work;
}

}  // namespace npc
