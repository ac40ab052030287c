#include "world/place_locator.h"

#include <algorithm>
#include <cmath>

namespace npc {

namespace {

// Cells at most, whatever the places: the grid's memory stays a few MB.
constexpr double kMaxCells = double{1 << 20};

}  // namespace

void PlaceLocator::update(std::span<const Place> places) {
  if (places.size() < kMinGridded) {
    gridded_ = 0;  // a scan it is
    return;
  }
  if (places.size() >= 2 * gridded_) build(places);
}

void PlaceLocator::build(std::span<const Place> places) {
  gridded_ = 0;
  double min_x = 0, min_y = 0, max_x = 0, max_y = 0;
  for (size_t i = 0; i < places.size(); ++i) {
    const Aabb& b = places[i].bounds;
    // A place without finite bounds could hold any point: leave everything to the scan.
    if (!isFinite(b.min) || !isFinite(b.max)) return;
    min_x = i == 0 ? b.min.x : std::min<double>(min_x, b.min.x);
    min_y = i == 0 ? b.min.y : std::min<double>(min_y, b.min.y);
    max_x = i == 0 ? b.max.x : std::max<double>(max_x, b.max.x);
    max_y = i == 0 ? b.max.y : std::max<double>(max_y, b.max.y);
  }
  const double width = std::max(max_x - min_x, 1e-3), depth = std::max(max_y - min_y, 1e-3);
  const double cells = std::min(kMaxCells, static_cast<double>(places.size() * kCellsPerPlace));
  const double cell = std::max(std::sqrt(width * depth / cells), 1e-3);
  min_x_ = static_cast<float>(min_x);
  min_y_ = static_cast<float>(min_y);
  max_x_ = static_cast<float>(max_x);
  max_y_ = static_cast<float>(max_y);
  cell_m_ = static_cast<float>(cell);
  cells_x_ = static_cast<int32_t>(std::min(kMaxCells, std::ceil(width / cell)));
  cells_y_ = static_cast<int32_t>(std::min(kMaxCells / cells_x_, std::ceil(depth / cell)));
  cells_x_ = std::max(cells_x_, 1);
  cells_y_ = std::max(cells_y_, 1);

  // Counting sort by cell; places go in ascending index within each cell.
  const size_t n_cells = static_cast<size_t>(cells_x_) * static_cast<size_t>(cells_y_);
  cell_start_.assign(n_cells + 1, 0);
  auto forEachCell = [&](const Aabb& b, auto&& visit) {
    const int32_t x0 = cellX(b.min.x), x1 = cellX(b.max.x);
    const int32_t y0 = cellY(b.min.y), y1 = cellY(b.max.y);
    for (int32_t y = y0; y <= y1; ++y) {
      for (int32_t x = x0; x <= x1; ++x) visit(static_cast<size_t>(y) * cells_x_ + x);
    }
  };
  for (const Place& place : places) forEachCell(place.bounds, [&](size_t c) { ++cell_start_[c + 1]; });
  for (size_t c = 0; c < n_cells; ++c) cell_start_[c + 1] += cell_start_[c];
  cell_places_.resize(cell_start_[n_cells]);
  std::vector<uint32_t> fill(cell_start_.begin(), cell_start_.end() - 1);
  for (size_t i = 0; i < places.size(); ++i) {
    forEachCell(places[i].bounds, [&](size_t c) { cell_places_[fill[c]++] = static_cast<uint16_t>(i); });
  }
  gridded_ = places.size();
}

int32_t PlaceLocator::cellX(float x) const {
  const auto c = static_cast<int32_t>(std::floor((x - min_x_) / cell_m_));
  return std::clamp(c, 0, cells_x_ - 1);
}

int32_t PlaceLocator::cellY(float y) const {
  const auto c = static_cast<int32_t>(std::floor((y - min_y_) / cell_m_));
  return std::clamp(c, 0, cells_y_ - 1);
}

PlaceIndex PlaceLocator::find(std::span<const Place> places, Vec3 p) const {
  // Written so that a NaN coordinate is outside: no place contains it.
  if (gridded_ > 0 && p.x >= min_x_ && p.x <= max_x_ && p.y >= min_y_ && p.y <= max_y_) {
    const size_t c = static_cast<size_t>(cellY(p.y)) * cells_x_ + cellX(p.x);
    for (uint32_t k = cell_start_[c]; k < cell_start_[c + 1]; ++k) {
      const uint16_t i = cell_places_[k];
      if (places[i].bounds.contains(p)) return static_cast<PlaceIndex>(i);
    }
  }
  for (size_t i = gridded_; i < places.size(); ++i) {
    if (places[i].bounds.contains(p)) return static_cast<PlaceIndex>(i);
  }
  return PlaceIndex::kNone;
}

}  // namespace npc
