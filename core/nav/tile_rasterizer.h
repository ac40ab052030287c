// TileRasterizer: the first half of Recast's build of one tile, shared by NavMeshBuilder
// and NavTileCacheBuilder. The level's triangles overlapping the tile and its border
// (agent radius + 3 cells, so walls just outside still erode the tile's edge) are marked
// walkable by slope and rasterized; ledges, low ceilings and low obstacles are filtered;
// what is left is compacted. The builders go on differently from the compact heightfield:
// blockers and watershed regions, or heightfield layers for a tile cache.
// Recast's headers: core/nav's sources only.
#pragma once

#include <Recast.h>

#include <memory>
#include <string>
#include <vector>

#include "nav/nav_build_config.h"

namespace npc::nav {

class LevelGeometry;

// Recast's owners, freed with its own functions.
struct RcFree {
  void operator()(rcHeightfield* p) const { rcFreeHeightField(p); }
  void operator()(rcCompactHeightfield* p) const { rcFreeCompactHeightfield(p); }
  void operator()(rcContourSet* p) const { rcFreeContourSet(p); }
  void operator()(rcPolyMesh* p) const { rcFreePolyMesh(p); }
  void operator()(rcPolyMeshDetail* p) const { rcFreePolyMeshDetail(p); }
  void operator()(rcHeightfieldLayerSet* p) const { rcFreeHeightfieldLayerSet(p); }
};
template <class T>
using RcPtr = std::unique_ptr<T, RcFree>;

class TileRasterizer {
 public:
  TileRasterizer(const NavBuildConfig& config, const LevelGeometry& geometry);

  // Recast's parameters; bmin/bmax are the last tile's, border included. Builders add the
  // ones of their own steps.
  rcConfig& config() { return cfg_; }
  rcContext& context() { return ctx_; }

  // Tile (tx, ty) of cell area tile_min..tile_max: "" with `out` set, "" with `out` null
  // when no triangle overlaps it, or the error ("navmesh: tile (3, 4): ... failed").
  std::string rasterize(int tx, int ty, const float* tile_min, const float* tile_max,
                        RcPtr<rcCompactHeightfield>& out);

  // "navmesh: tile (3, 4): ", the prefix of a tile's errors.
  static std::string where(int tx, int ty);

 private:
  void selectTriangles();

  const LevelGeometry& geo_;
  rcConfig cfg_{};
  rcContext ctx_{false};  // no timers or log: diagnostics are our return values
  std::vector<int> tile_tris_;
  std::vector<unsigned char> areas_;
};

}  // namespace npc::nav
