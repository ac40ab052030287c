#include "world/spatial_grid.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace npc {

SpatialGrid::SpatialGrid(float cell_size_m, uint32_t bucket_count)
    : cell_size_(cell_size_m > 0.f ? cell_size_m : 8.f),
      inv_cell_size_(1.f / cell_size_),
      bucket_mask_(std::bit_ceil(std::max(bucket_count, 64u)) - 1) {
  bucket_start_.assign(bucket_mask_ + 2, 0);
}

int32_t SpatialGrid::cellCoord(float v) const {
  // Clamp so absurd (but finite) coordinates cannot overflow the cell index.
  const float c = std::floor(v * inv_cell_size_);
  constexpr float kLimit = 1.0e9f;
  return static_cast<int32_t>(std::clamp(c, -kLimit, kLimit));
}

uint32_t SpatialGrid::bucketOf(int32_t cx, int32_t cy) const {
  // Two large primes (Teschner et al. spatial hashing); cheap and well spread.
  const uint32_t h = static_cast<uint32_t>(cx) * 73856093u ^ static_cast<uint32_t>(cy) * 19349663u;
  return h & bucket_mask_;
}

void SpatialGrid::rebuild(std::span<const Vec3> positions) {
  positions_.assign(positions.begin(), positions.end());
  std::fill(bucket_start_.begin(), bucket_start_.end(), 0u);
  // Pass 1: count items per bucket (stored shifted by one for the prefix sum).
  size_t indexed = 0;
  for (const Vec3& p : positions) {
    if (!isFinite(p)) continue;
    ++bucket_start_[bucketOf(cellCoord(p.x), cellCoord(p.y)) + 1];
    ++indexed;
  }
  for (size_t b = 1; b < bucket_start_.size(); ++b) bucket_start_[b] += bucket_start_[b - 1];
  // Pass 2: bucket_start_[b + 1] is bucket b's end; fill each bucket from its end backwards
  // (walking items in reverse keeps ascending order inside a bucket).
  items_.resize(indexed);
  for (uint32_t i = static_cast<uint32_t>(positions.size()); i-- > 0;) {
    const Vec3& p = positions[i];
    if (!isFinite(p)) continue;
    const int32_t cx = cellCoord(p.x), cy = cellCoord(p.y);
    const uint32_t b = bucketOf(cx, cy);
    items_[--bucket_start_[b + 1]] = {i, cx, cy};
  }
  // Each end has now been decremented down to its bucket's start: shift back by one.
  for (size_t b = 0; b + 1 < bucket_start_.size(); ++b) bucket_start_[b] = bucket_start_[b + 1];
  bucket_start_.back() = static_cast<uint32_t>(items_.size());
}

uint32_t SpatialGrid::queryRadius(Vec3 center, float radius_m, std::span<uint32_t> out,
                                  bool* truncated) const {
  uint32_t count = 0;
  bool cut = false;
  forEachInRadius(center, radius_m, [&](uint32_t index) {
    if (count < out.size()) {
      out[count++] = index;
    } else {
      cut = true;
      // Keep the lowest indices so the result does not depend on bucket layout.
      auto max_it = std::max_element(out.begin(), out.end());
      if (max_it != out.end() && index < *max_it) *max_it = index;
    }
  });
  std::sort(out.begin(), out.begin() + count);
  if (truncated) *truncated = cut;
  return count;
}

}  // namespace npc
