// NavMeshBuilder: Recast's build of a tiled navmesh from level geometry (LevelGeometry) and
// blocker boxes (the world's obstacles), with the parameters of a NavBuildConfig.
//
// Per tile: rasterize the triangles overlapping the tile (plus a border of agent radius + 3
// cells), filter ledges and low ceilings, mark the cells inside blocker boxes unwalkable,
// erode by the agent radius (so blockers are padded by it too), watershed regions, contours,
// polygons (up to 6 vertices), detail mesh, then Detour tile data. Tiles without walkable
// area are skipped. Building is done once at start-up (or on reload), never in the tick.
//
// Limits: at most config.max_tiles tiles and kMaxBuildCells ground cells (≈ 1 minute of
// build on one core) over the geometry's bounds; a tile with 65535
// vertices or more is refused (Detour's 16-bit indices: lower tile_size_cells).
// Errors name what failed: "navmesh: tile (3, 4): rcBuildRegions failed".
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "nav/nav_build_config.h"
#include "world/vec3.h"

namespace npc::nav {

class LevelGeometry;
class NavMesh;

struct NavBuildStats {
  int tiles_x = 0, tiles_y = 0;  // the tile grid over the geometry's bounds
  int tiles_built = 0;           // tiles with walkable area
  int polygons = 0;
  size_t data_bytes = 0;         // Detour tile data kept by the mesh
};

inline constexpr double kMaxBuildCells = 1 << 28;

class NavMeshBuilder {
 public:
  explicit NavMeshBuilder(const NavBuildConfig& config) : config_(config) {}

  // Builds `out` from `geometry`; `blockers` are boxes in world coordinates (Z up) no
  // agent may stand in. Returns "" or the first error (out is then empty).
  std::string build(const LevelGeometry& geometry, std::span<const Aabb> blockers, NavMesh& out,
                    NavBuildStats* stats = nullptr) const;

 private:
  NavBuildConfig config_;
};

}  // namespace npc::nav
