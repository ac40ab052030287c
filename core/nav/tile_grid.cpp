#include "nav/tile_grid.h"

#include <DetourNavMesh.h>

#include <algorithm>
#include <cmath>

#include "nav/level_geometry.h"
#include "nav/nav_build_config.h"
#include "nav/nav_mesh_builder.h"

namespace npc::nav {
namespace {

int log2Ceil(unsigned v) {
  int r = 0;
  while ((1u << r) < v) ++r;
  return r;
}

}  // namespace

void TileGrid::tileBounds(int tx, int ty, float* tile_min, float* tile_max) const {
  tile_min[0] = bmin[0] + tx * tile_m;
  tile_min[1] = bmin[1];
  tile_min[2] = bmin[2] + ty * tile_m;
  tile_max[0] = bmin[0] + (tx + 1) * tile_m;
  tile_max[1] = bmax[1];
  tile_max[2] = bmin[2] + (ty + 1) * tile_m;
}

void TileGrid::meshParams(int tiles, dtNavMeshParams& out) const {
  out = dtNavMeshParams{};
  for (int i = 0; i < 3; ++i) out.orig[i] = bmin[i];
  out.tileWidth = tile_m;
  out.tileHeight = tile_m;
  // A polygon reference has 22 bits for tile and polygon (Detour's 32-bit refs keep 10 for
  // the salt).
  const int tile_bits = std::min(log2Ceil(static_cast<unsigned>(tiles)), 14);
  out.maxTiles = 1 << tile_bits;
  out.maxPolys = 1 << (22 - tile_bits);
}

std::string planTileGrid(const NavBuildConfig& config, const LevelGeometry& geometry, TileGrid& out) {
  if (geometry.triangleCount() == 0) return "navmesh: the level geometry has no triangles";
  geometry.bounds(out.bmin, out.bmax);
  out.tile_m = config.tile_size_cells * config.cell_size_m;
  out.tiles_x = std::max(1, static_cast<int>(std::ceil((out.bmax[0] - out.bmin[0]) / out.tile_m)));
  out.tiles_y = std::max(1, static_cast<int>(std::ceil((out.bmax[2] - out.bmin[2]) / out.tile_m)));
  if (static_cast<long long>(out.tiles_x) * out.tiles_y > config.max_tiles)
    return "navmesh: the geometry needs " + std::to_string(out.tiles_x) + " x " +
           std::to_string(out.tiles_y) + " tiles, more than max_tiles " +
           std::to_string(config.max_tiles) + " (raise cell_size_m or tile_size_cells)";
  const double cells = static_cast<double>(out.tiles_x) * out.tiles_y * config.tile_size_cells *
                       config.tile_size_cells;
  if (cells > kMaxBuildCells)
    return "navmesh: the geometry needs " + std::to_string(static_cast<long long>(cells)) +
           " cells, more than " + std::to_string(static_cast<long long>(kMaxBuildCells)) +
           " (raise cell_size_m)";
  return "";
}

}  // namespace npc::nav
