// NavTileCache / NavTileCacheBuilder: obstacle changes after start-up reach the navmesh.
#include "nav/nav_tile_cache.h"

#include <catch2/catch.hpp>

#include "nav/level_geometry.h"
#include "nav/nav_mesh.h"
#include "nav/nav_query.h"
#include "nav/nav_tile_cache_builder.h"
#include "nav/path_cost_cache.h"
#include "nav_test_support.h"

namespace npc::nav {
namespace {

NavMesh buildCached(std::span<const Obstacle> obstacles = {}) {
  LevelGeometry geometry;
  REQUIRE(geometry.parseObj("level.obj", test::kLevelObj) == "");
  NavMesh mesh;
  REQUIRE(NavTileCacheBuilder(NavBuildConfig{}).build(geometry, obstacles, mesh) == "");
  REQUIRE(mesh.tileCache() != nullptr);
  return mesh;
}

// Across the only gap in the wall (x 19.5..20.5, open at y 30..40).
const Obstacle kDoor{ObstacleId{7}, {{18.f, 28.f, 0.f}, {22.f, 42.f, 3.f}}};
const Vec3 kWest{5.f, 35.f, 0.f}, kEast{35.f, 35.f, 0.f};

void settle(NavMesh& mesh) {
  for (int i = 0; i < 1000 && !mesh.tileCache()->upToDate(); ++i) mesh.updateTiles(4);
  REQUIRE(mesh.tileCache()->upToDate());
}

}  // namespace

TEST_CASE("An obstacle upserted across the only walkway closes it; removing it reopens it") {
  NavMesh mesh = buildCached();
  NavQuery query(mesh, NavQueryLimits{});
  PathCostCache cache;
  REQUIRE(cache.path(query, kWest, kEast).result == NavResult::kOk);
  const uint32_t before = mesh.generation();

  REQUIRE(mesh.tileCache()->upsert(kDoor.id, kDoor.box) == "");
  SECTION("Should not change the mesh before the tiles are rebuilt") {
    CHECK(cache.path(query, kWest, kEast).result == NavResult::kOk);
  }
  settle(mesh);
  CHECK(mesh.generation() != before);
  CHECK(cache.path(query, kWest, kEast).result == NavResult::kUnreachable);  // not the cached kOk
  CHECK(query.path(kWest, kEast).result == NavResult::kUnreachable);

  REQUIRE(mesh.tileCache()->remove(kDoor.id));
  settle(mesh);
  CHECK(cache.path(query, kWest, kEast).result == NavResult::kOk);
  CHECK(mesh.tileCache()->slotsClaimed() == 0);
}

TEST_CASE("Obstacles given at build time block from the start") {
  const Obstacle door[] = {kDoor};
  NavMesh mesh = buildCached(door);
  NavQuery query(mesh, NavQueryLimits{});
  CHECK(query.path(kWest, kEast).result == NavResult::kUnreachable);
  REQUIRE(mesh.tileCache()->remove(kDoor.id));
  settle(mesh);
  CHECK(query.path(kWest, kEast).result == NavResult::kOk);
}

TEST_CASE("Boxes off the mesh or degenerate are harmless") {
  NavMesh mesh = buildCached();
  NavQuery query(mesh, NavQueryLimits{});
  CHECK(mesh.tileCache()->upsert(ObstacleId{1}, {{1000.f, 1000.f, 0.f}, {1001.f, 1001.f, 1.f}}) == "");
  CHECK(mesh.tileCache()->upsert(ObstacleId{2}, {{5.f, 5.f, 0.f}, {5.f, 5.f, 0.f}}) == "");
  settle(mesh);
  CHECK(query.path(kWest, kEast).result == NavResult::kOk);
  CHECK_FALSE(mesh.tileCache()->remove(ObstacleId{3}));
}

TEST_CASE("A box needing more slots than are free is refused and changes nothing") {
  LevelGeometry geometry;
  REQUIRE(geometry.parseObj("level.obj", test::kLevelObj) == "");
  NavBuildConfig config;
  config.max_obstacles = 1;
  NavMesh mesh;
  REQUIRE(NavTileCacheBuilder(config).build(geometry, {}, mesh) == "");
  // 60 m wide: it covers several 19.2 m tiles.
  const std::string e = mesh.tileCache()->upsert(ObstacleId{1}, {{0.f, 0.f, 0.f}, {60.f, 5.f, 2.f}});
  CHECK_THAT(e, Catch::Matchers::Contains("obstacle slots free"));
  CHECK(mesh.tileCache()->slotsClaimed() == 0);
}

}  // namespace npc::nav
