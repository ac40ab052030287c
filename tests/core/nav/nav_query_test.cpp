// NavQuery (core/nav/nav_query.h): nearest point, reachability and path length, raycast,
// and clear failures off the mesh or past the search limits.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>

#include "nav/nav_query.h"
#include "nav_test_support.h"

using namespace npc;
using namespace npc::nav;
using namespace npc::nav::test;

TEST_CASE("NavQuery prices a walk around a wall by its path, not the straight line") {
  NavMesh mesh = buildMesh(kLevelObj);
  NavQuery query(mesh);
  SECTION("Should go round the wall's end when the wall is in the way") {
    const NavPath p = query.path({10, 5, 0}, {30, 5, 0});
    REQUIRE(p.result == NavResult::kOk);
    // Round the end at y = 30: 2 x sqrt(10^2 + 25^2) = 53.9 m, plus the padding.
    CHECK(p.length_m > 53.f);
    CHECK(p.length_m < 60.f);
    CHECK(p.corridor_polys > 1);
    // Its corners, for drawing: start, round the wall's end (y near 30), goal; they add up
    // to the length.
    std::array<Vec3, 8> corners;
    const size_t n = query.lastCorners(corners);
    REQUIRE(n >= 3);
    CHECK(corners[0].x == Approx(10.f).margin(0.1f));
    CHECK(corners[n - 1].x == Approx(30.f).margin(0.1f));
    CHECK(std::any_of(corners.begin(), corners.begin() + static_cast<long>(n), [](const Vec3& c) { return c.y > 29.f; }));
    float walked = 0.f;
    for (size_t i = 1; i < n; ++i) walked += length(corners[i] - corners[i - 1]);
    CHECK(walked == Approx(p.length_m).margin(0.01f));
    std::array<Vec3, 2> few;
    CHECK(query.lastCorners(few) == 2);  // at most what fits
  }
  SECTION("Should walk straight past the wall's end") {
    const NavPath p = query.path({10, 35, 0}, {30, 35, 0});
    REQUIRE(p.result == NavResult::kOk);
    CHECK(p.length_m == Approx(20.f).margin(0.3f));
    CHECK(query.reachable({10, 35, 0}, {30, 35, 0}));
  }
}

TEST_CASE("NavQuery says unreachable for a separate island and off_mesh away from the mesh") {
  NavMesh mesh = buildMesh(kLevelObj);
  NavQuery query(mesh);
  const NavPath island = query.path({10, 5, 0}, {55, 5, 0});
  CHECK(island.result == NavResult::kUnreachable);
  CHECK(island.length_m == 0.f);
  std::array<Vec3, 8> corners;
  CHECK(query.lastCorners(corners) == 0);  // no path, no corners
  CHECK_FALSE(query.reachable({10, 5, 0}, {55, 5, 0}));

  CHECK(query.path({10, 5, 0}, {100, 100, 0}).result == NavResult::kOffMesh);
  CHECK(query.path({10, 5, 50}, {30, 35, 0}).result == NavResult::kOffMesh);  // high above
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(query.path({nan, 5, 0}, {30, 35, 0}).result == NavResult::kOffMesh);
  NavPoint p;
  CHECK(query.nearestPoint({100, 100, 0}, p) == NavResult::kOffMesh);
  CHECK(p.poly == 0);
  CHECK(toString(NavResult::kOffMesh) == "off_mesh");
}

TEST_CASE("NavQuery snaps a point to the nearest point on the mesh") {
  NavMesh mesh = buildMesh(kLevelObj);
  NavQuery query(mesh);
  NavPoint p;
  REQUIRE(query.nearestPoint({10, 5, 1.0f}, p) == NavResult::kOk);
  CHECK(p.position.x == Approx(10.f).margin(0.01f));
  CHECK(p.position.y == Approx(5.f).margin(0.01f));
  CHECK(p.position.z == Approx(0.f).margin(0.3f));
  CHECK(p.poly != 0);
  // Inside the wall: pushed out beyond its face and the agent radius.
  REQUIRE(query.nearestPoint({20, 5, 0}, p) == NavResult::kOk);
  CHECK(std::abs(p.position.x - 20.f) > 0.5f);
}

TEST_CASE("NavQuery raycasts along the mesh surface") {
  NavMesh mesh = buildMesh(kLevelObj);
  NavQuery query(mesh);
  const NavRaycast blocked = query.raycast({10, 5, 0}, {30, 5, 0});
  REQUIRE(blocked.result == NavResult::kOk);
  CHECK(blocked.hit);
  // The mesh ends at the wall's face less the agent radius: x = 19.1 of 10..30.
  CHECK(blocked.fraction == Approx(0.455f).margin(0.03f));
  CHECK(blocked.hit_normal.x == Approx(-1.f).margin(0.01f));
  const NavRaycast clear = query.raycast({10, 35, 0}, {30, 35, 0});
  REQUIRE(clear.result == NavResult::kOk);
  CHECK_FALSE(clear.hit);
  CHECK(clear.fraction == 1.f);
  CHECK(query.raycast({100, 100, 0}, {0, 0, 0}).result == NavResult::kOffMesh);
}

TEST_CASE("NavQuery stops at its node limit instead of searching on") {
  NavBuildConfig small_tiles;  // 3.2 m tiles: the walk round the wall crosses dozens of polygons
  small_tiles.cell_size_m = 0.2f;
  small_tiles.tile_size_cells = 16;
  NavMesh mesh = buildMesh(kLevelObj, {}, small_tiles);
  CHECK(NavQuery(mesh).path({10, 5, 0}, {30, 5, 0}).result == NavResult::kOk);
  NavQueryLimits tight;
  tight.max_nodes = 1;  // clamped to 16
  NavQuery query(mesh, tight);
  CHECK(query.path({10, 5, 0}, {30, 5, 0}).result == NavResult::kSearchLimit);
  NavQueryLimits short_corridor;
  short_corridor.max_path_polys = 2;
  NavQuery q2(mesh, short_corridor);
  CHECK(q2.path({10, 5, 0}, {30, 5, 0}).result == NavResult::kSearchLimit);
}

TEST_CASE("NavQuery without a mesh answers no_mesh") {
  NavMesh empty;
  NavQuery query(empty);
  CHECK(query.path({0, 0, 0}, {1, 1, 0}).result == NavResult::kNoMesh);
  NavPoint p;
  CHECK(query.nearestPoint({0, 0, 0}, p) == NavResult::kNoMesh);
}
