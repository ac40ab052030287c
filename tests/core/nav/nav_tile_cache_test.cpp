// NavTileCache / NavTileCacheBuilder: obstacle changes after start-up reach the navmesh.
#include "nav/nav_tile_cache.h"

#include <DetourNavMesh.h>
#include <catch2/catch.hpp>

#include <limits>
#include <map>
#include <tuple>

#include "nav/level_geometry.h"
#include "nav/nav_mesh.h"
#include "nav/nav_query.h"
#include "nav/nav_tile_cache_builder.h"
#include "nav/path_cost_cache.h"
#include "nav_test_support.h"

namespace npc::nav {
namespace {

NavMesh buildCached(std::span<const Obstacle> obstacles = {}, const NavBuildConfig& config = {}) {
  LevelGeometry geometry;
  REQUIRE(geometry.parseObj("level.obj", test::kLevelObj) == "");
  NavMesh mesh;
  REQUIRE(NavTileCacheBuilder(config).build(geometry, obstacles, mesh) == "");
  REQUIRE(mesh.tileCache() != nullptr);
  return mesh;
}

// Across the only gap in the wall (x 19.5..20.5, open at y 30..40).
const Obstacle kDoor{ObstacleId{7}, {{18.f, 28.f, 0.f}, {22.f, 42.f, 3.f}}};
const Vec3 kWest{5.f, 35.f, 0.f}, kEast{35.f, 35.f, 0.f};

// The mesh's geometry, tile by tile in grid order: vertices, and each polygon's vertices
// and area. Polygon references (salts, slots) are left out: they count rebuilds.
uint64_t meshFingerprint(const NavMesh& mesh) {
  const dtNavMesh& d = *mesh.detour();
  std::map<std::tuple<int, int, int>, const dtMeshTile*> tiles;
  for (int i = 0; i < d.getMaxTiles(); ++i) {
    const dtMeshTile* t = d.getTile(i);
    if (t && t->header) tiles[{t->header->x, t->header->y, t->header->layer}] = t;
  }
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](const void* p, size_t n) {
    for (size_t i = 0; i < n; ++i) h = (h ^ static_cast<const unsigned char*>(p)[i]) * 1099511628211ull;
  };
  for (const auto& [at, t] : tiles) {
    mix(&at, sizeof at);
    mix(t->verts, sizeof(float) * 3 * static_cast<size_t>(t->header->vertCount));
    for (int p = 0; p < t->header->polyCount; ++p) {
      const dtPoly& poly = t->polys[p];
      mix(poly.verts, sizeof(unsigned short) * poly.vertCount);
      const unsigned char area = poly.getArea();
      mix(&area, 1);
    }
  }
  return h;
}

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
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(mesh.tileCache()->upsert(ObstacleId{4}, {{nan, 5.f, 0.f}, {6.f, nan, 1.f}}) == "");
  CHECK(mesh.tileCache()->upsert(ObstacleId{5}, {{-1e30f, -1e30f, 0.f}, {1e30f, -1e29f, 1.f}}) == "");
  settle(mesh);
  CHECK(query.path(kWest, kEast).result == NavResult::kOk);
  CHECK_FALSE(mesh.tileCache()->remove(ObstacleId{3}));
}

TEST_CASE("A box needing more slots than are free is refused and changes nothing") {
  NavBuildConfig config;
  config.max_obstacles = 1;
  NavMesh mesh = buildCached({}, config);
  // 60 m wide: it covers several 19.2 m tiles.
  const std::string e = mesh.tileCache()->upsert(ObstacleId{1}, {{0.f, 0.f, 0.f}, {60.f, 5.f, 2.f}});
  CHECK_THAT(e, Catch::Matchers::Contains("obstacle slots free"));
  CHECK(mesh.tileCache()->slotsClaimed() == 0);
}

TEST_CASE("A box over more tiles than one change may rebuild is refused") {
  NavBuildConfig config;
  config.max_obstacle_tiles = 2;
  NavMesh mesh = buildCached({}, config);
  // 60 m wide: four 19.2 m tile columns, on a row boundary (the padding crosses it): eight.
  const std::string e = mesh.tileCache()->upsert(ObstacleId{1}, {{0.f, 0.f, 0.f}, {60.f, 5.f, 2.f}});
  CHECK_THAT(e, Catch::Matchers::Contains("covers 8 tiles of the navmesh, more than 2"));
  CHECK(mesh.tileCache()->queuedChanges() == 0);
  CHECK(mesh.tileCache()->upsert(kDoor.id, kDoor.box) == "");  // two columns
}

TEST_CASE("A change is applied whole, whatever the budget") {
  NavMesh mesh = buildCached();
  NavQuery query(mesh, NavQueryLimits{});
  REQUIRE(mesh.tileCache()->upsert(kDoor.id, kDoor.box) == "");
  // The door's padded box spans two tile columns: more than one rebuild in one call.
  CHECK(mesh.updateTiles(1) >= 2);
  CHECK(mesh.tileCache()->upToDate());
  CHECK(query.path(kWest, kEast).result == NavResult::kUnreachable);
  REQUIRE(mesh.tileCache()->held().size() == 1);
  CHECK(mesh.tileCache()->held()[0].id == kDoor.id);
}

TEST_CASE("Changes of one obstacle wait as one, in the place of the first") {
  NavMesh mesh = buildCached();
  const Aabb elsewhere{{2.f, 2.f, 0.f}, {3.f, 3.f, 1.f}};
  REQUIRE(mesh.tileCache()->upsert(ObstacleId{1}, elsewhere) == "");
  REQUIRE(mesh.tileCache()->upsert(kDoor.id, elsewhere) == "");
  REQUIRE(mesh.tileCache()->upsert(kDoor.id, kDoor.box) == "");
  const std::vector<NavObstacleChange> queued = mesh.tileCache()->queued();
  REQUIRE(queued.size() == 2);
  CHECK(queued[0].id == ObstacleId{1});
  CHECK(queued[1].id == kDoor.id);
  CHECK(queued[1].box.max.x == kDoor.box.max.x);

  SECTION("Should forget a box that never reached the mesh when it is removed") {
    REQUIRE(mesh.tileCache()->remove(kDoor.id));
    CHECK(mesh.tileCache()->queuedChanges() == 1);
    settle(mesh);
    CHECK(mesh.tileCache()->held().size() == 1);
  }
  SECTION("Should apply only the last box") {
    settle(mesh);
    NavQuery query(mesh, NavQueryLimits{});
    CHECK(query.path(kWest, kEast).result == NavResult::kUnreachable);
    CHECK(mesh.tileCache()->held().size() == 2);
  }
}

TEST_CASE("A mesh restored from held boxes and waiting changes is the captured one") {
  const Obstacle cart{ObstacleId{9}, {{5.f, 10.f, 0.f}, {8.f, 12.f, 2.f}}};
  const Obstacle at_build[] = {cart};
  NavMesh live = buildCached(at_build);
  REQUIRE(live.tileCache()->upsert(kDoor.id, kDoor.box) == "");
  settle(live);
  REQUIRE(live.tileCache()->upsert(cart.id, {{30.f, 10.f, 0.f}, {33.f, 12.f, 2.f}}) == "");
  REQUIRE(live.tileCache()->remove(kDoor.id));

  NavMesh restored = buildCached();  // another start: no obstacles
  REQUIRE(meshFingerprint(restored) != meshFingerprint(live));
  restored.restoreObstacles(live.tileCache()->held(), live.tileCache()->queued());
  CHECK(meshFingerprint(restored) == meshFingerprint(live));
  CHECK(restored.tileCache()->queuedChanges() == 2);
  CHECK(restored.tileCache()->slotsClaimed() == live.tileCache()->slotsClaimed());

  // The waiting changes then come out the same, on any budget.
  live.updateTiles(1);
  restored.updateTiles(1);
  CHECK(meshFingerprint(restored) == meshFingerprint(live));
  settle(live);
  settle(restored);
  CHECK(meshFingerprint(restored) == meshFingerprint(live));
  NavQuery query(restored, NavQueryLimits{});
  CHECK(query.path(kWest, kEast).result == NavResult::kOk);
}

}  // namespace npc::nav
