// TileGrid: the square tiles a navmesh build lays over the level's bounds (ground plane),
// the same for NavMeshBuilder and NavTileCacheBuilder, and Detour's mesh parameters for it.
// Recast coordinates (Y up).
#pragma once

#include <string>

struct dtNavMeshParams;

namespace npc::nav {

class LevelGeometry;
struct NavBuildConfig;

struct TileGrid {
  float bmin[3] = {0, 0, 0}, bmax[3] = {0, 0, 0};  // the geometry's bounds
  float tile_m = 0;
  int tiles_x = 0, tiles_y = 0;

  // Tile (tx, ty)'s cell area, full height.
  void tileBounds(int tx, int ty, float* tile_min, float* tile_max) const;
  // Detour's parameters for a mesh of up to `tiles` tiles (layers) on this grid: the bits
  // of a polygon reference split between tiles and polygons.
  void meshParams(int tiles, dtNavMeshParams& out) const;
};

// Lays the grid over `geometry`; "" or why the build is refused (no triangles, more tiles
// than config.max_tiles, more cells than kMaxBuildCells).
std::string planTileGrid(const NavBuildConfig& config, const LevelGeometry& geometry, TileGrid& out);

}  // namespace npc::nav
