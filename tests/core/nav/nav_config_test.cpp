// NavConfig (core/nav/nav_config.h): a world file's "navmesh" block, read with located
// errors, and the mesh it names loaded or built.
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "base/json_reader.h"
#include "nav/nav_config.h"
#include "nav/nav_mesh.h"
#include "nav/nav_mesh_file.h"
#include "sim/world_file.h"
#include "nav_test_support.h"

using namespace npc;
using namespace npc::nav;
using namespace npc::nav::test;

namespace {

// Reads `text` as a world file's "navmesh" block (so errors are located in the file).
std::vector<std::string> read(const char* text, NavConfig& out, const std::string& dir = "/worlds") {
  JsonReader r("world.json");
  nlohmann::json j;
  REQUIRE(r.parse(std::string(R"({ "navmesh": )") + text + " }", j));
  readNavConfig(j["navmesh"], r, dir, out);
  return r.errors();
}

std::string writeTemp(const std::string& name, const void* data, size_t size) {
  const std::filesystem::path p = std::filesystem::temp_directory_path() / name;
  std::ofstream(p, std::ios::binary).write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  return p.string();
}

}  // namespace

TEST_CASE("NavConfig reads the navmesh block, files relative to the world file") {
  NavConfig c;
  CHECK(read(R"({ "geometry": "village.obj", "obstacles_block": false,
                  "build": { "agent_radius_m": 0.6, "cell_size_m": 0.25, "tile_size_cells": 32,
                             "max_obstacle_tiles": 8 },
                  "query": { "max_nodes": 512, "snap_vertical_m": 2 },
                  "long_search": { "max_nodes": 8192, "iterations_per_tick": 300, "capacity": 9 } })", c).empty());
  CHECK(c.present);
  CHECK(c.geometry == "/worlds/village.obj");
  CHECK(c.file.empty());
  CHECK_FALSE(c.obstacles_block);
  CHECK(c.build.agent_radius_m == 0.6f);
  CHECK(c.build.cell_size_m == 0.25f);
  CHECK(c.build.tile_size_cells == 32);
  CHECK(c.build.max_obstacle_tiles == 8);
  CHECK(c.query.max_nodes == 512);
  CHECK(c.query.snap_vertical_m == 2.f);
  CHECK(c.long_search.max_nodes == 8192);
  CHECK(c.long_search.max_path_polys == SlicedPathConfig{}.max_path_polys);
  CHECK(c.long_search.iterations_per_tick == 300);
  CHECK(c.long_search.capacity == 9);
  NavConfig f;
  CHECK(read(R"({ "file": "/data/village.navmesh" })", f).empty());
  CHECK(f.file == "/data/village.navmesh");
}

TEST_CASE("NavConfig refuses a bad navmesh block naming the field") {
  NavConfig c;
  CHECK(read(R"({ "geometry": "a.obj", "file": "b.navmesh" })", c) ==
        std::vector<std::string>{"world.json:1:14: /navmesh: needs exactly one of \"file\" (a Detour "
                                 "navmesh) or \"geometry\" (an OBJ to build from)"});
  CHECK_FALSE(c.present);
  NavConfig wide;
  CHECK(read(R"({ "geometry": "a.obj", "build": { "max_obstacle_tiles": 0 } })", wide) ==
        std::vector<std::string>{
            "world.json:1:70: /navmesh/build/max_obstacle_tiles: must be in [1, 4096] (got 0)"});
  NavConfig idle;
  CHECK(read(R"({ "geometry": "a.obj", "long_search": { "iterations_per_tick": 0 } })", idle) ==
        std::vector<std::string>{
            "world.json:1:77: /navmesh/long_search/iterations_per_tick: must be in [1, 1048576] (got 0)"});
  CHECK(read(R"({ "geometry": "a.obj", "build": { "cell_size_m": 0, "agent_climb_m": 9 },
                  "query": { "max_nodes": 3 } })", c) ==
        std::vector<std::string>{
            "world.json:1:83: /navmesh/build/agent_climb_m: must be in [0, 5] (got 9)",
            "world.json:1:63: /navmesh/build/cell_size_m: must be in [0.05, 2] (got 0)",
            "world.json:2:43: /navmesh/query/max_nodes: must be in [16, 65535] (got 3)",
        });
  // Keys and types are the world schema's (config/schema/world.schema.json).
  WorldFile world;
  std::vector<std::string> errors;
  CHECK_FALSE(parseWorldFile("world.json", R"({ "navmesh": { "geometry": "a.obj", "sped": 1 } })",
                             world, errors));
  CHECK(errors == std::vector<std::string>{"world.json:1:37: /navmesh/sped: unknown key"});
}

TEST_CASE("makeNavMesh builds from the OBJ or loads the navmesh file it names") {
  NavConfig c;
  c.present = true;
  c.geometry = writeTemp("npcd_nav_level.obj", kLevelObj, std::strlen(kLevelObj));
  NavMesh built;
  REQUIRE(makeNavMesh(c, {}, built) == "");
  CHECK_FALSE(built.empty());

  const std::vector<uint8_t> bytes = saveNavMeshFile(built);
  NavConfig f;
  f.file = writeTemp("npcd_nav_level.navmesh", bytes.data(), bytes.size());
  NavMesh loaded;
  REQUIRE(makeNavMesh(f, {}, loaded) == "");
  CHECK(loaded.tileCount() == built.tileCount());

  SECTION("Should name the geometry file when the build fails") {
    c.build.max_tiles = 1;
    NavMesh none;
    CHECK(makeNavMesh(c, {}, none) ==
          c.geometry + ": navmesh: the geometry needs 4 x 3 tiles, more than max_tiles 1 (raise "
                       "cell_size_m or tile_size_cells)");
  }
}
