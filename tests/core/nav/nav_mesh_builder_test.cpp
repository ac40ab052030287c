// NavMeshBuilder (core/nav/nav_mesh_builder.h) and NavBuildConfig: a tiled mesh from level
// geometry and blocker boxes; absurd parameters refused by field.
#include <catch2/catch.hpp>

#include "nav/nav_query.h"
#include "nav_test_support.h"

using namespace npc;
using namespace npc::nav;
using namespace npc::nav::test;

TEST_CASE("NavMeshBuilder builds a tiled mesh over the geometry's bounds") {
  LevelGeometry geometry;
  REQUIRE(geometry.parseObj("level.obj", kLevelObj) == "");
  NavMesh mesh;
  NavBuildStats stats;
  REQUIRE(NavMeshBuilder({}).build(geometry, {}, mesh, &stats) == "");
  // 60 m x 40 m at 19.2 m tiles.
  CHECK(stats.tiles_x == 4);
  CHECK(stats.tiles_y == 3);
  CHECK(stats.tiles_built == mesh.tileCount());
  CHECK(stats.tiles_built >= 6);  // floor A's 3 x 3 tiles at least
  CHECK(stats.polygons > 0);
  CHECK(stats.data_bytes == mesh.memoryBytes());
  CHECK(mesh.generation() != 0);
}

TEST_CASE("NavMeshBuilder makes blocker boxes unwalkable, padded by the agent radius") {
  // The wall of the shared level as a blocker box instead of geometry.
  const Aabb wall{{19.5f, 0.f, 0.f}, {20.5f, 30.f, 3.f}};
  NavMesh mesh = buildMesh(kFloorsObj, std::span(&wall, 1));
  NavQuery query(mesh);
  const NavPath around = query.path({10, 5, 0}, {30, 5, 0});
  REQUIRE(around.result == NavResult::kOk);
  CHECK(around.length_m > 50.f);

  NavPoint p;
  REQUIRE(query.nearestPoint({20, 5, 0}, p) == NavResult::kOk);
  CHECK(std::abs(p.position.x - 20.f) >= 0.5f + 0.4f - 0.31f);  // outside wall + radius (a cell)

  SECTION("Should cut the floor in two when a blocker spans it") {
    const Aabb full{{19.5f, -1.f, 0.f}, {20.5f, 41.f, 3.f}};
    NavMesh cut = buildMesh(kFloorsObj, std::span(&full, 1));
    NavQuery q(cut);
    CHECK(q.path({10, 5, 0}, {30, 5, 0}).result == NavResult::kUnreachable);
  }
}

TEST_CASE("NavBuildConfig refuses absurd build parameters by field") {
  NavBuildConfig c;
  CHECK(c.validate("navmesh.").empty());
  c.cell_size_m = 0.f;
  c.agent_radius_m = -1.f;
  c.max_slope_deg = 90.f;
  c.tile_size_cells = 100000;
  c.agent_height_m = std::numeric_limits<float>::quiet_NaN();
  CHECK(c.validate("navmesh.") == std::vector<std::string>{
      "navmesh.agent_radius_m: must be in [0, 5] (got -1)",
      "navmesh.agent_height_m: must be in [0.1, 20] (got nan)",
      "navmesh.max_slope_deg: must be in [0, 89] (got 90)",
      "navmesh.cell_size_m: must be in [0.05, 2] (got 0)",
      "navmesh.tile_size_cells: must be in [16, 1024] (got 100000)",
  });
  LevelGeometry geometry;
  REQUIRE(geometry.parseObj("level.obj", kLevelObj) == "");
  NavMesh mesh;
  CHECK(NavMeshBuilder(c).build(geometry, {}, mesh) ==
        "navmesh.agent_radius_m: must be in [0, 5] (got -1)");
  CHECK(mesh.empty());
}

TEST_CASE("NavMeshBuilder refuses geometry it cannot make a mesh of") {
  SECTION("Should refuse more tiles than max_tiles") {
    NavBuildConfig c;
    c.max_tiles = 4;
    LevelGeometry geometry;
    REQUIRE(geometry.parseObj("level.obj", kLevelObj) == "");
    NavMesh mesh;
    CHECK(NavMeshBuilder(c).build(geometry, {}, mesh) ==
          "navmesh: the geometry needs 4 x 3 tiles, more than max_tiles 4 (raise cell_size_m or "
          "tile_size_cells)");
  }
  SECTION("Should refuse a build of more ground cells than kMaxBuildCells") {
    NavBuildConfig c;
    c.cell_size_m = 2.f;
    c.tile_size_cells = 1024;  // 2 km tiles: 49 x 49 of them over 100 km
    LevelGeometry geometry;
    REQUIRE(geometry.parseObj("huge.obj", "v 0 0 0\nv 100000 0 0\nv 100000 0 -100000\nf 1 2 3\n") == "");
    NavMesh mesh;
    CHECK(NavMeshBuilder(c).build(geometry, {}, mesh) ==
          "navmesh: the geometry needs 2517630976 cells, more than 268435456 (raise cell_size_m)");
  }
  SECTION("Should say when nothing is walkable (a vertical wall only)") {
    LevelGeometry geometry;
    REQUIRE(geometry.parseObj("wall.obj", "v 0 0 0\nv 10 0 0\nv 10 3 0\nv 0 3 0\nf 1 2 3 4\n") == "");
    NavMesh mesh;
    CHECK(NavMeshBuilder({}).build(geometry, {}, mesh) ==
          "navmesh: nothing is walkable (check max_slope_deg, agent_height_m and the geometry's "
          "up axis: Y)");
  }
}
