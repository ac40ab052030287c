#include "world/spatial_grid.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "world/lowest_indices.h"

namespace npc {

SpatialGrid::SpatialGrid(float cell_size_m, uint32_t bucket_count, uint32_t max_bucket_count)
    : cell_size_(cell_size_m > 0.f ? cell_size_m : 8.f),
      inv_cell_size_(1.f / cell_size_),
      bucket_mask_(std::bit_ceil(std::clamp(bucket_count, 64u, 1u << 30)) - 1),
      max_bucket_mask_(std::max(bucket_mask_,
                                std::bit_ceil(std::clamp(max_bucket_count, 64u, 1u << 30)) - 1)) {
  bucket_start_.assign(bucket_mask_ + 2, 0);
}

int32_t SpatialGrid::cellCoord(float v) const {
  // Clamp so absurd (but finite) coordinates cannot overflow the cell index.
  const float c = std::floor(v * inv_cell_size_);
  constexpr float kLimit = 1.0e9f;
  return static_cast<int32_t>(std::clamp(c, -kLimit, kLimit));
}

SpatialGrid::CellRange SpatialGrid::clippedRange(Vec3 center, float radius_m) const {
  // cellCoord clamps, so an infinite or 1e30 m radius maps to finite cells before clipping.
  return {std::max(cellCoord(center.x - radius_m), min_cx_),
          std::min(cellCoord(center.x + radius_m), max_cx_),
          std::max(cellCoord(center.y - radius_m), min_cy_),
          std::min(cellCoord(center.y + radius_m), max_cy_)};
}

uint32_t SpatialGrid::bucketOf(int32_t cx, int32_t cy) const {
  // Two large primes (Teschner et al. spatial hashing); cheap and well spread.
  const uint32_t h = static_cast<uint32_t>(cx) * 73856093u ^ static_cast<uint32_t>(cy) * 19349663u;
  return h & bucket_mask_;
}

void SpatialGrid::rebuild(std::span<const Vec3> positions, std::span<const uint32_t> ids) {
  // One bucket per item at least; grown, never shrunk, so a steady world allocates nothing.
  const size_t wanted = std::min<size_t>(std::bit_ceil(std::max<size_t>(positions.size(), 1)),
                                         size_t{max_bucket_mask_} + 1);
  if (wanted > size_t{bucket_mask_} + 1) {
    bucket_mask_ = static_cast<uint32_t>(wanted - 1);
    bucket_start_.assign(size_t{bucket_mask_} + 2, 0);
  }
  std::fill(bucket_start_.begin(), bucket_start_.end(), 0u);
  // Pass 1: count items per bucket (stored shifted by one for the prefix sum).
  size_t indexed = 0;
  min_cx_ = min_cy_ = std::numeric_limits<int32_t>::max();
  max_cx_ = max_cy_ = std::numeric_limits<int32_t>::min();
  for (const Vec3& p : positions) {
    if (!isFinite(p)) continue;
    const int32_t cx = cellCoord(p.x), cy = cellCoord(p.y);
    ++bucket_start_[bucketOf(cx, cy) + 1];
    min_cx_ = std::min(min_cx_, cx);
    max_cx_ = std::max(max_cx_, cx);
    min_cy_ = std::min(min_cy_, cy);
    max_cy_ = std::max(max_cy_, cy);
    ++indexed;
  }
  if (indexed == 0) {
    min_cx_ = min_cy_ = 0;
    max_cx_ = max_cy_ = -1;
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
    items_[--bucket_start_[b + 1]] = {p, ids.empty() ? i : ids[i], cx, cy};
  }
  // Each end has now been decremented down to its bucket's start: shift back by one.
  for (size_t b = 0; b + 1 < bucket_start_.size(); ++b) bucket_start_[b] = bucket_start_[b + 1];
  bucket_start_.back() = static_cast<uint32_t>(items_.size());
}

uint32_t SpatialGrid::queryRadius(Vec3 center, float radius_m, std::span<uint32_t> out,
                                  bool* truncated) const {
  LowestIndices kept(out);
  forEachInRadius(center, radius_m, [&](uint32_t index) { kept.add(index); });
  if (truncated) *truncated = kept.truncated();
  return kept.finish();
}

}  // namespace npc
