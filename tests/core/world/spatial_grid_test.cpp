#include <algorithm>
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

}  // namespace

TEST_CASE("SpatialGrid answers radius queries exactly", "[world][spatial]") {
  Rng rng(7);
  std::vector<Vec3> points;
  for (int i = 0; i < 3000; ++i) {
    points.push_back({rng.range(-200.f, 200.f), rng.range(-200.f, 200.f), rng.range(0.f, 10.f)});
  }
  // Small bucket count forces hash collisions between distinct cells.
  SpatialGrid grid(8.f, 64);
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
