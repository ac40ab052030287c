#include "perception/obstacle_index.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace npc {

namespace {

// segmentEntersBox with the per-ray work (deltas, reciprocals) hoisted out of the box loop.
// Same arithmetic in the same order, so it returns bit-identical fractions.
struct Segment {
  float start[3];
  float inv[3];
  bool flat[3];  // the segment does not move along this axis

  Segment(Vec3 from, Vec3 to) {
    const float s[3] = {from.x, from.y, from.z};
    const float d[3] = {to.x - from.x, to.y - from.y, to.z - from.z};
    for (int a = 0; a < 3; ++a) {
      start[a] = s[a];
      flat[a] = std::fabs(d[a]) < 1e-9f;
      inv[a] = flat[a] ? 0.f : 1.f / d[a];
    }
  }

  bool enters(const Aabb& box, float& t_out) const {
    const float lo[3] = {box.min.x, box.min.y, box.min.z};
    const float hi[3] = {box.max.x, box.max.y, box.max.z};
    float t_enter = 0.f, t_exit = 1.f;
    for (int a = 0; a < 3; ++a) {
      if (flat[a]) {
        if (start[a] < lo[a] || start[a] > hi[a]) return false;
        continue;
      }
      float t0 = (lo[a] - start[a]) * inv[a];
      float t1 = (hi[a] - start[a]) * inv[a];
      if (t0 > t1) std::swap(t0, t1);
      t_enter = std::max(t_enter, t0);
      t_exit = std::min(t_exit, t1);
      if (t_enter > t_exit) return false;
    }
    t_out = t_enter;
    return true;
  }
};

}  // namespace

ObstacleIndex::ObstacleIndex(float cell_size_m, uint32_t max_cells)
    : base_cell_(cell_size_m > 0.f && std::isfinite(cell_size_m) ? cell_size_m : 8.f),
      max_cells_(std::max(max_cells, 1u)) {}

void ObstacleIndex::rebuild(std::span<const Obstacle> obstacles) {
  boxes_.clear();
  float min_x = std::numeric_limits<float>::max(), min_y = min_x;
  float max_x = std::numeric_limits<float>::lowest(), max_y = max_x;
  for (const Obstacle& o : obstacles) {
    if (!o.box.isValid()) continue;
    boxes_.push_back({o.box, o.id, o.cover});
    min_x = std::min(min_x, o.box.min.x);
    min_y = std::min(min_y, o.box.min.y);
    max_x = std::max(max_x, o.box.max.x);
    max_y = std::max(max_y, o.box.max.y);
  }
  own_stamps_.stamps.assign(boxes_.size(), 0);
  own_stamps_.ray = 0;
  if (boxes_.empty()) {
    nx_ = ny_ = 0;
    cell_start_.assign(1, 0);
    items_.clear();
    return;
  }
  // Double precision for the extent so a 100 km world does not overflow the cell count.
  const double width = std::max<double>(max_x - min_x, 1e-3);
  const double height = std::max<double>(max_y - min_y, 1e-3);
  double cell = base_cell_;
  while (std::ceil(width / cell) * std::ceil(height / cell) > max_cells_) cell *= 1.5;
  cell_ = static_cast<float>(cell);
  inv_cell_ = 1.f / cell_;
  origin_x_ = min_x;
  origin_y_ = min_y;
  nx_ = static_cast<uint32_t>(std::max(1.0, std::ceil(width / cell)));
  ny_ = static_cast<uint32_t>(std::max(1.0, std::ceil(height / cell)));

  auto cellRange = [&](const Aabb& b, uint32_t& x0, uint32_t& x1, uint32_t& y0, uint32_t& y1) {
    auto clampCell = [](float v, uint32_t n) {
      return static_cast<uint32_t>(std::clamp(v, 0.f, static_cast<float>(n - 1)));
    };
    x0 = clampCell(std::floor((b.min.x - origin_x_) * inv_cell_), nx_);
    x1 = clampCell(std::floor((b.max.x - origin_x_) * inv_cell_), nx_);
    y0 = clampCell(std::floor((b.min.y - origin_y_) * inv_cell_), ny_);
    y1 = clampCell(std::floor((b.max.y - origin_y_) * inv_cell_), ny_);
  };
  // Counting sort into CSR arrays: count, prefix sum, fill.
  cell_start_.assign(static_cast<size_t>(nx_) * ny_ + 1, 0);
  uint32_t x0, x1, y0, y1;
  for (const Box& b : boxes_) {
    cellRange(b.box, x0, x1, y0, y1);
    for (uint32_t y = y0; y <= y1; ++y) {
      for (uint32_t x = x0; x <= x1; ++x) ++cell_start_[static_cast<size_t>(y) * nx_ + x + 1];
    }
  }
  for (size_t c = 1; c < cell_start_.size(); ++c) cell_start_[c] += cell_start_[c - 1];
  items_.resize(cell_start_.back());
  std::vector<uint32_t> fill(cell_start_.begin(), cell_start_.end() - 1);
  for (uint32_t i = 0; i < boxes_.size(); ++i) {
    cellRange(boxes_[i].box, x0, x1, y0, y1);
    for (uint32_t y = y0; y <= y1; ++y) {
      for (uint32_t x = x0; x <= x1; ++x) items_[fill[static_cast<size_t>(y) * nx_ + x]++] = i;
    }
  }
}

uint32_t ObstacleIndex::nextStamp(RayStamps& scratch) const {
  if (scratch.stamps.size() != boxes_.size()) {
    scratch.stamps.assign(boxes_.size(), 0u);
    scratch.ray = 0;
  }
  if (++scratch.ray == 0) {  // wrapped: old stamps could collide with new rays
    std::fill(scratch.stamps.begin(), scratch.stamps.end(), 0u);
    scratch.ray = 1;
  }
  return scratch.ray;
}

template <class Visit>
void ObstacleIndex::walk(Vec3 from, Vec3 to, Visit&& visit) const {
  if (nx_ == 0 || !isFinite(from) || !isFinite(to)) return;
  const float dx = to.x - from.x, dy = to.y - from.y;
  const float gx1 = origin_x_ + static_cast<float>(nx_) * cell_;
  const float gy1 = origin_y_ + static_cast<float>(ny_) * cell_;
  // Clip the segment's x/y projection to the grid rectangle.
  float t0 = 0.f, t1 = 1.f;
  auto clip = [&](float p, float d, float lo, float hi) {
    if (std::fabs(d) < 1e-12f) return p >= lo && p <= hi;
    float a = (lo - p) / d, b = (hi - p) / d;
    if (a > b) std::swap(a, b);
    t0 = std::max(t0, a);
    t1 = std::min(t1, b);
    return t0 <= t1;
  };
  if (!clip(from.x, dx, origin_x_, gx1) || !clip(from.y, dy, origin_y_, gy1)) return;

  const float sx = from.x + dx * t0, sy = from.y + dy * t0;
  auto cellOf = [&](float v, float origin, uint32_t n) {
    const float c = std::floor((v - origin) * inv_cell_);
    return static_cast<int32_t>(std::clamp(c, 0.f, static_cast<float>(n - 1)));
  };
  int32_t cx = cellOf(sx, origin_x_, nx_), cy = cellOf(sy, origin_y_, ny_);
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const int32_t step_x = dx > 0.f ? 1 : (dx < 0.f ? -1 : 0);
  const int32_t step_y = dy > 0.f ? 1 : (dy < 0.f ? -1 : 0);
  const float delta_x = step_x != 0 ? cell_ / std::fabs(dx) : kInf;
  const float delta_y = step_y != 0 ? cell_ / std::fabs(dy) : kInf;
  float next_x = kInf, next_y = kInf;
  if (step_x != 0) {
    const float edge = origin_x_ + static_cast<float>(cx + (step_x > 0 ? 1 : 0)) * cell_;
    next_x = (edge - from.x) / dx;
  }
  if (step_y != 0) {
    const float edge = origin_y_ + static_cast<float>(cy + (step_y > 0 ? 1 : 0)) * cell_;
    next_y = (edge - from.y) / dy;
  }
  // Each step moves one cell along x or y, so the walk ends within nx + ny steps.
  for (uint32_t guard = 0; guard <= nx_ + ny_ + 1; ++guard) {
    const float exit = std::min({next_x, next_y, t1});
    if (!visit(static_cast<uint32_t>(cy) * nx_ + static_cast<uint32_t>(cx), exit)) return;
    if (exit >= t1) return;
    if (next_x < next_y) {
      cx += step_x;
      next_x += delta_x;
      if (cx < 0 || cx >= static_cast<int32_t>(nx_)) return;
    } else {
      cy += step_y;
      next_y += delta_y;
      if (cy < 0 || cy >= static_cast<int32_t>(ny_)) return;
    }
  }
}

SightLine ObstacleIndex::lineOfSight(Vec3 from, Vec3 to) const {
  return lineOfSight(from, to, own_stamps_);
}

SightLine ObstacleIndex::lineOfSight(Vec3 from, Vec3 to, RayStamps& scratch) const {
  SightLine result;
  const uint32_t stamp = nextStamp(scratch);
  std::vector<uint32_t>& stamps = scratch.stamps;
  const Segment seg(from, to);
  walk(from, to, [&](uint32_t cell, float) {
    for (uint32_t i = cell_start_[cell]; i < cell_start_[cell + 1]; ++i) {
      const uint32_t b = items_[i];
      if (stamps[b] == stamp) continue;
      stamps[b] = stamp;
      const Box& box = boxes_[b];
      float t;
      if (!seg.enters(box.box, t)) continue;
      if (box.cover == Cover::kHard) {
        result = {SightBlock::kHardCover, box.id};
        return false;
      }
      if (result.block == SightBlock::kClear) result = {SightBlock::kSoftCover, box.id};
    }
    return true;
  });
  return result;
}

std::optional<RayHit> ObstacleIndex::raycast(Vec3 from, Vec3 to) const {
  std::optional<RayHit> best;
  const uint32_t stamp = nextStamp(own_stamps_);
  std::vector<uint32_t>& stamps = own_stamps_.stamps;
  const Segment seg(from, to);
  walk(from, to, [&](uint32_t cell, float t_exit) {
    for (uint32_t i = cell_start_[cell]; i < cell_start_[cell + 1]; ++i) {
      const uint32_t b = items_[i];
      if (stamps[b] == stamp) continue;
      stamps[b] = stamp;
      const Box& box = boxes_[b];
      float t;
      if (!seg.enters(box.box, t)) continue;
      // Ties go to the lower obstacle id so the answer does not depend on cell layout.
      if (!best || t < best->fraction || (t == best->fraction && box.id < best->obstacle)) {
        best = RayHit{box.id, box.cover, t};
      }
    }
    // Any obstacle entered beyond this cell was or will be found later, so a hit inside
    // this cell is final.
    return !(best && best->fraction <= t_exit);
  });
  return best;
}

}  // namespace npc
