// PlaceLocator: which place a point is in, without trying every place.
//
// World::placeAt answers "the first place, in definition order, whose bounds contain p"
// for every upsert with a position: 100,000 upserts a tick over 200 places were 20 million
// box tests. The locator keeps a 2-D grid over the places' footprint (x, y); each cell
// lists, in ascending index, the places whose bounds overlap it, so a lookup tests the
// few places of one cell. Its answer is the scan's: a place that contains p overlaps p's
// cell, and the first in the cell's ascending list that contains p is the first overall.
//
// Places are only ever added. The grid covers the places there were at its last build;
// those added since (the tail) are tried one by one after the grid's, which keeps the
// order, and the grid is built again when the tail has grown as large as what it covers,
// so adding n places costs O(n) builds' worth of work in all.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "world/ids.h"
#include "world/place.h"

namespace npc {

class PlaceLocator {
 public:
  // `places` were appended to (or are the same as) the ones of the last call.
  void update(std::span<const Place> places);
  // The first place of `places` (as given to update()) whose bounds contain p, or kNone.
  PlaceIndex find(std::span<const Place> places, Vec3 p) const;

  // Places the grid covers; the rest are the tail (tests, statistics).
  size_t gridded() const { return gridded_; }

 private:
  // Below this many places a scan is as fast as the grid.
  static constexpr size_t kMinGridded = 16;
  // Cells per gridded place, about: a place overlaps a few cells, a cell holds a few places.
  static constexpr size_t kCellsPerPlace = 4;

  void build(std::span<const Place> places);
  int32_t cellX(float x) const;
  int32_t cellY(float y) const;

  size_t gridded_ = 0;
  float min_x_ = 0.f, min_y_ = 0.f, max_x_ = 0.f, max_y_ = 0.f;  // the gridded footprint
  float cell_m_ = 1.f;
  int32_t cells_x_ = 0, cells_y_ = 0;
  std::vector<uint32_t> cell_start_;  // cells_x_ * cells_y_ + 1 offsets into cell_places_
  std::vector<uint16_t> cell_places_;
};

}  // namespace npc
