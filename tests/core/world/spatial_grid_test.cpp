#include <algorithm>
#include <limits>
#include <vector>

#include <catch2/catch.hpp>

#include "base/rng.h"
#include "world/spatial_grid.h"

using namespace npc;

namespace {

std::vector<uint32_t> bruteForce(const std::vector<Vec3>& points, Vec3 c, float r) {
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < points.size(); ++i) {
    if (isFinite(points[i]) && distanceSq(points[i], c) <= r * r) out.push_back(i);
  }
  return out;
}

std::vector<uint32_t> query(const SpatialGrid& grid, Vec3 c, float r, size_t cap = 4096,
                            bool* truncated = nullptr) {
  std::vector<uint32_t> out(cap);
  out.resize(grid.queryRadius(c, r, out, truncated));
  return out;
}

// n points uniformly in [-half, half]^2 on the ground, z in [0, max_z].
std::vector<Vec3> randomPoints(Rng& rng, int n, float half, float max_z) {
  std::vector<Vec3> points;
  for (int i = 0; i < n; ++i) {
    points.push_back({rng.range(-half, half), rng.range(-half, half), rng.range(0.f, max_z)});
  }
  return points;
}

}  // namespace

TEST_CASE("SpatialGrid answers radius queries exactly", "[world][spatial]") {
  Rng rng(7);
  std::vector<Vec3> points = randomPoints(rng, 3000, 200.f, 10.f);
  // A small bucket count, kept small, forces hash collisions between distinct cells.
  SpatialGrid grid(8.f, 64, 64);
  grid.rebuild(points);

  SECTION("Should return the same items as a brute-force scan, in index order") {
    for (int q = 0; q < 200; ++q) {
      const Vec3 c{rng.range(-220.f, 220.f), rng.range(-220.f, 220.f), rng.range(0.f, 10.f)};
      const float r = rng.range(0.f, 40.f);
      REQUIRE(query(grid, c, r) == bruteForce(points, c, r));
    }
  }
  SECTION("Should measure true 3-D distance, not only the ground plane") {
    SpatialGrid g(8.f);
    std::vector<Vec3> tower{{0, 0, 0}, {0, 0, 30}};
    g.rebuild(tower);
    REQUIRE(query(g, {0, 0, 0}, 5.f) == std::vector<uint32_t>{0});
  }
  SECTION("Should include points exactly on the radius") {
    SpatialGrid g(8.f);
    std::vector<Vec3> pts{{3, 4, 0}};
    g.rebuild(pts);
    REQUIRE(query(g, {0, 0, 0}, 5.f).size() == 1);
  }
}

TEST_CASE("SpatialGrid reports truncation and survives bad input", "[world][spatial]") {
  std::vector<Vec3> points;
  for (int i = 0; i < 50; ++i) points.push_back({static_cast<float>(i) * 0.1f, 0, 0});
  points.push_back({std::numeric_limits<float>::quiet_NaN(), 0, 0});
  SpatialGrid grid(4.f);
  grid.rebuild(points);

  SECTION("Should keep the lowest indices and flag truncation when the buffer is small") {
    bool truncated = false;
    auto got = query(grid, {0, 0, 0}, 100.f, 10, &truncated);
    REQUIRE(truncated);
    REQUIRE(got == std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  }
  SECTION("Should not index non-finite positions") {
    REQUIRE(grid.itemCount() == 50);
    bool truncated = true;
    REQUIRE(query(grid, {0, 0, 0}, 1000.f, 4096, &truncated).size() == 50);
    REQUIRE_FALSE(truncated);
  }
  SECTION("Should return nothing for a NaN centre or a negative radius") {
    REQUIRE(query(grid, {std::numeric_limits<float>::quiet_NaN(), 0, 0}, 10.f).empty());
    REQUIRE(query(grid, {0, 0, 0}, -1.f).empty());
  }
  SECTION("Should cope with huge but finite coordinates") {
    std::vector<Vec3> far{{1e30f, -1e30f, 0}, {0, 0, 0}};
    grid.rebuild(far);
    REQUIRE(query(grid, {0, 0, 0}, 1.f) == std::vector<uint32_t>{1});
    REQUIRE(query(grid, {1e30f, -1e30f, 0}, 1.f) == std::vector<uint32_t>{0});
  }
  SECTION("Should forget everything on a rebuild with fewer items") {
    std::vector<Vec3> one{{0.5f, 0, 0}};
    grid.rebuild(one);
    REQUIRE(query(grid, {0, 0, 0}, 100.f) == std::vector<uint32_t>{0});
  }
}

TEST_CASE("SpatialGrid bounds the work of any query by the items it holds", "[world][spatial]") {
  Rng rng(11);
  std::vector<Vec3> points = randomPoints(rng, 2000, 500.f, 5.f);
  SpatialGrid grid(8.f, 256);
  grid.rebuild(points);
  const uint64_t items = grid.itemCount();
  auto count = [](const SpatialGrid& g, Vec3 c, float r, SpatialGrid::QueryWork& work) {
    std::vector<uint32_t> found;
    work = g.forEachInRadius(c, r, [&](uint32_t i) { found.push_back(i); });
    std::sort(found.begin(), found.end());
    return found;
  };

  SECTION("Should answer a 1e30 m query exactly after testing each item once") {
    SpatialGrid::QueryWork work;
    REQUIRE(count(grid, {3, -7, 1}, 1e30f, work) == bruteForce(points, {3, -7, 1}, 1e30f));
    REQUIRE(work.cells_visited == 0);
    REQUIRE(work.items_tested == items);
  }
  SECTION("Should answer an infinite radius like a 1e30 m one") {
    SpatialGrid::QueryWork work;
    const float inf = std::numeric_limits<float>::infinity();
    REQUIRE(count(grid, {0, 0, 0}, inf, work).size() == items);
    REQUIRE(work.items_tested == items);
  }
  SECTION("Should walk only the occupied extent for a query wider than the world") {
    // 2,000 points over ~126 x 126 occupied cells: more cells than items, so a scan; with
    // 40,000 points the same extent is a cell walk clipped to it.
    const std::vector<Vec3> dense = randomPoints(rng, 40000, 500.f, 0.f);
    SpatialGrid g(8.f, 4096);
    g.rebuild(dense);
    SpatialGrid::QueryWork work;
    REQUIRE(count(g, {0, 0, 0}, 20000.f, work).size() == dense.size());
    REQUIRE(work.cells_visited <= 126u * 126u);
    REQUIRE(work.items_tested == dense.size());
  }
  SECTION("Should stay exact and cheap next to an outlier at 1e30 m") {
    points.push_back({1e30f, 1e30f, 0});
    grid.rebuild(points);
    for (float r : {10.f, 20000.f, 1e30f}) {
      SpatialGrid::QueryWork work;
      REQUIRE(count(grid, {0, 0, 0}, r, work) == bruteForce(points, {0, 0, 0}, r));
      REQUIRE(work.cells_visited <= grid.itemCount());
      REQUIRE(work.items_tested <= grid.itemCount());
    }
  }
  SECTION("Should keep small queries to the cells they overlap") {
    SpatialGrid::QueryWork work;
    REQUIRE(count(grid, {0, 0, 0}, 10.f, work) == bruteForce(points, {0, 0, 0}, 10.f));
    REQUIRE(work.cells_visited == 16);  // -10 m..10 m spans cells -2..1 on each axis
  }
  SECTION("Should keep the lowest indices when a 1e30 m query overflows its buffer") {
    bool truncated = false;
    auto got = query(grid, {0, 0, 0}, 1e30f, 16, &truncated);
    REQUIRE(truncated);
    std::vector<uint32_t> expected(16);
    for (uint32_t i = 0; i < 16; ++i) expected[i] = i;
    REQUIRE(got == expected);
  }
}

TEST_CASE("SpatialGrid grows its buckets with its items", "[world][spatial]") {
  Rng rng(23);
  // 50,000 items over 2 km x 2 km: about 60,000 occupied 8 m cells.
  const std::vector<Vec3> points = randomPoints(rng, 50000, 1000.f, 0.f);
  SpatialGrid growing(8.f, 64);
  SpatialGrid fixed(8.f, 64, 64);
  growing.rebuild(points);
  fixed.rebuild(points);
  REQUIRE(growing.bucketCount() == 65536);
  REQUIRE(fixed.bucketCount() == 64);
  uint64_t walked_growing = 0, walked_fixed = 0;
  for (int q = 0; q < 100; ++q) {
    const Vec3 c{rng.range(-1000.f, 1000.f), rng.range(-1000.f, 1000.f), 0.f};
    REQUIRE(query(growing, c, 12.f) == bruteForce(points, c, 12.f));
    REQUIRE(query(fixed, c, 12.f) == bruteForce(points, c, 12.f));
    const auto g = growing.forEachInRadius(c, 12.f, [](uint32_t) {});
    const auto f = fixed.forEachInRadius(c, 12.f, [](uint32_t) {});
    REQUIRE(g.items_tested == f.items_tested);  // the same cells' items either way
    walked_growing += g.entries_walked;
    walked_fixed += f.entries_walked;
  }
  // 64 buckets hold ~900 cells each; 65,536 hold about one.
  REQUIRE(walked_growing * 100 < walked_fixed);
  // A smaller world later keeps the grown table (no allocation in a steady world).
  growing.rebuild(std::span<const Vec3>(points).first(100));
  REQUIRE(growing.bucketCount() == 65536);
  REQUIRE(query(growing, points[5], 3.f) == bruteForce({points.begin(), points.begin() + 100},
                                                        points[5], 3.f));
}
