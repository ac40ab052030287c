// NavTileCacheBuilder: Recast's build of a tiled navmesh whose tiles can be rebuilt when
// obstacles change (NavTileCache). Per tile: rasterize the triangles overlapping it (plus a
// border of agent radius + 3 cells), filter ledges and low ceilings, erode by the agent
// radius, and split the walkable cells into heightfield layers (one per storey), kept by the
// tile cache; the navmesh's polygons are then built from the layers, with the obstacles
// marked on them (padded by the agent radius, as erosion pads walls).
//
// Against NavMeshBuilder (fixed blockers): obstacles are not baked in, so removing one
// reopens the ground under it; regions come from Detour's layer partition instead of the
// watershed (more, thinner polygons; paths of the same length to within a cell); the layers
// cost memory (≈ 3 bytes per cell before deflating, NavTileCache).
// Limits: NavMeshBuilder's, and tile_size_cells at most 255 (a layer's size is a byte).
// Building is done once at start-up, never in the tick.
#pragma once

#include <span>
#include <string>

#include "nav/nav_build_config.h"
#include "nav/nav_mesh_builder.h"
#include "world/obstacle.h"

namespace npc::nav {

class LevelGeometry;
class NavMesh;

class NavTileCacheBuilder {
 public:
  explicit NavTileCacheBuilder(const NavBuildConfig& config) : config_(config) {}

  // Builds `out` from `geometry` with a tile cache holding `obstacles` (world coordinates),
  // all of them applied. Returns "" or the first error (out is then empty).
  std::string build(const LevelGeometry& geometry, std::span<const Obstacle> obstacles,
                    NavMesh& out, NavBuildStats* stats = nullptr) const;

 private:
  NavBuildConfig config_;
};

}  // namespace npc::nav
