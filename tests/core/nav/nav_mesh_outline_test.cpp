// The navmesh outlined for drawing: polygons in world coordinates, filtered by a viewport.
#include <catch2/catch.hpp>

#include "nav/nav_mesh_outline.h"
#include "nav_test_support.h"

using namespace npc;
using namespace npc::nav;
using namespace npc::nav::test;

namespace {

// Corners' x/y extent of every outline together.
Aabb extent(const NavPolygonOutlines& o) {
  Aabb box{{1e9f, 1e9f, 1e9f}, {-1e9f, -1e9f, -1e9f}};
  for (const auto& polygon : o.polygons) {
    for (const Vec3& c : polygon) {
      box.min = {std::min(box.min.x, c.x), std::min(box.min.y, c.y), std::min(box.min.z, c.z)};
      box.max = {std::max(box.max.x, c.x), std::max(box.max.y, c.y), std::max(box.max.z, c.z)};
    }
  }
  return box;
}

}  // namespace

TEST_CASE("outlinePolygons gives the walkable polygons in world coordinates") {
  const NavMesh mesh = buildMesh(kFloorsObj);
  const NavPolygonOutlines all = outlinePolygons(mesh, std::nullopt, 100000);
  REQUIRE(all.polygons.size() == all.matched);
  REQUIRE(all.matched > 0);
  for (const auto& polygon : all.polygons) CHECK(polygon.size() >= 3);
  // Both floors, inside their bounds less the agent radius, on the ground (Z up).
  const Aabb box = extent(all);
  CHECK(box.min.x >= 0.f);
  CHECK(box.min.x < 2.f);
  CHECK(box.max.x <= 60.f);
  CHECK(box.max.x > 58.f);
  CHECK(box.min.y >= 0.f);
  CHECK(box.max.y <= 40.f);
  CHECK(box.max.y > 38.f);
  CHECK(box.min.z > -1.f);
  CHECK(box.max.z < 1.f);

  SECTION("Should keep only polygons over the viewport, and count the rest") {
    const Aabb island{{50.f, 0.f, -10.f}, {60.f, 10.f, 10.f}};
    const NavPolygonOutlines east = outlinePolygons(mesh, island, 100000);
    REQUIRE(east.matched > 0);
    REQUIRE(east.matched < all.matched);
    CHECK(extent(east).min.x >= 45.f);  // floor B only (its polygons, not floor A's)
  }
  SECTION("Should stop listing at the maximum but count every match") {
    const NavPolygonOutlines few = outlinePolygons(mesh, std::nullopt, 2);
    CHECK(few.polygons.size() == 2);
    CHECK(few.matched == all.matched);
  }
  SECTION("Should give nothing for an empty mesh") {
    CHECK(outlinePolygons(NavMesh{}, std::nullopt, 10).matched == 0);
  }
}
