// The "navmesh" block of a world file: where the world's navmesh comes from and how it is
// queried. Either a Detour export or level geometry built at start-up:
//   "navmesh": { "file": "village.navmesh" }                  (nav_mesh_file.h)
//   "navmesh": { "geometry": "village.obj",                    (level_geometry.h)
//                "obstacles_block": true,                      the world's obstacle boxes
//                "max_tile_rebuilds_per_tick": 4,              obstacle changes' budget
//                "build": { "agent_radius_m": 0.4, ... },      NavBuildConfig's fields
//                "query": { "max_nodes": 2048, "max_path_polys": 256,
//                           "snap_horizontal_m": 2, "snap_vertical_m": 4 },
//                "long_search": { "max_nodes": 65535, "max_path_polys": 4096,
//                                 "iterations_per_tick": 4096, "capacity": 64 } }
//                                                              SlicedPathConfig's fields
// File names are relative to the world file's folder. Errors name the world file and the
// JSON path ("demo.json: /navmesh/build/cell_size_m: must be in [0.05, 2] (got 0)").
#pragma once

#include <span>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "nav/nav_build_config.h"
#include "nav/nav_query.h"
#include "nav/sliced_path_queue.h"
#include "world/obstacle.h"

namespace npc {
class JsonReader;
}

namespace npc::nav {

class NavMesh;

struct NavConfig {
  bool present = false;
  std::string file;      // a Detour navmesh export (resolved path), or
  std::string geometry;  // an OBJ to build from (resolved path)
  bool obstacles_block = true;
  // Tile layers rebuilt per tick for obstacle changes ([1, 4096]; NavTileCache): waiting
  // changes are applied whole until this many were rebuilt (the last one may pass it).
  int max_tile_rebuilds_per_tick = 4;
  NavBuildConfig build;
  NavQueryLimits query;
  SlicedPathConfig long_search;  // walks a query gave up on (search_limit), searched over ticks
};

// Reads the block at JSON path "/navmesh", whose keys and types the world schema has checked
// (config/schema/world.schema.json); problems go to `r`. `dir` is the world file's folder.
void readNavConfig(const nlohmann::json& j, JsonReader& r, const std::string& dir, NavConfig& out);

// Loads or builds the configured mesh. A geometry build with obstacles_block gets a tile
// cache holding `obstacles` (NavTileCacheBuilder), so later obstacle changes reach it; without
// obstacles_block it is built with none; a file's mesh has no layers and never changes.
// Returns "" or the error (naming the navmesh or geometry file).
std::string makeNavMesh(const NavConfig& config, std::span<const Obstacle> obstacles, NavMesh& out);

}  // namespace npc::nav
