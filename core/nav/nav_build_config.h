// Recast build parameters for a navmesh built from level geometry (NavMeshBuilder), with the
// bounds each is checked against. All lengths are metres, angles degrees. A world file's
// "navmesh" block sets them (NavConfig, nav_config.h); values outside the bounds are refused
// with the field's name, e.g. "navmesh.cell_size_m: must be in [0.05, 2] (got 0)".
#pragma once

#include <string>
#include <vector>

namespace npc::nav {

struct NavBuildConfig {
  float agent_radius_m = 0.4f;     // [0, 5]: walls are kept this far from the mesh's edge
  float agent_height_m = 1.8f;     // [0.1, 20]: minimum clearance under ceilings
  float agent_climb_m = 0.4f;      // [0, 5]: steps up to this height are walkable
  float max_slope_deg = 45.f;      // [0, 89]: steeper triangles are not walkable
  float cell_size_m = 0.3f;        // [0.05, 2]: voxel size on the ground plane
  float cell_height_m = 0.2f;      // [0.05, 2]: voxel size in height
  int tile_size_cells = 64;        // [16, 1024]: cells per tile side (tiles of 19.2 m by default)
  float max_edge_length_m = 12.f;  // [0, 1000]: longer polygon edges are split (0 = never)
  float min_region_area_m2 = 6.f;  // [0, 10000]: smaller islands are dropped
  int max_tiles = 1 << 14;         // [1, 16384]: refused beyond (a 2.5 km square at defaults)
  // [1, 65535]: obstacle pieces (one per tile an obstacle box covers) a mesh built with a
  // tile cache holds (NavTileCache; ≈ 130 B each, all scanned on every tile rebuild).
  int max_obstacles = 4096;
  // [1, 4096]: tile columns one obstacle box may cover. Applying a change rebuilds every
  // tile it covers in one tick (old place and new), so this bounds what one client's box
  // can cost a tick: at 32, some 64 tile rebuilds (4–10 ms here). A wider box is refused.
  int max_obstacle_tiles = 32;

  // Every value outside its bounds, as "<prefix><field>: must be in [lo, hi] (got v)".
  std::vector<std::string> validate(const std::string& prefix = "") const;
};

}  // namespace npc::nav
