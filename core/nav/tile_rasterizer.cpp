#include "nav/tile_rasterizer.h"

#include <algorithm>
#include <cmath>

#include "nav/level_geometry.h"

namespace npc::nav {

TileRasterizer::TileRasterizer(const NavBuildConfig& c, const LevelGeometry& g) : geo_(g) {
  cfg_.cs = c.cell_size_m;
  cfg_.ch = c.cell_height_m;
  cfg_.walkableSlopeAngle = c.max_slope_deg;
  cfg_.walkableHeight = static_cast<int>(std::ceil(c.agent_height_m / cfg_.ch));
  cfg_.walkableClimb = static_cast<int>(std::floor(c.agent_climb_m / cfg_.ch));
  cfg_.walkableRadius = static_cast<int>(std::ceil(c.agent_radius_m / cfg_.cs));
  cfg_.tileSize = c.tile_size_cells;
  cfg_.borderSize = cfg_.walkableRadius + 3;
  cfg_.width = cfg_.height = cfg_.tileSize + cfg_.borderSize * 2;
  areas_.resize(static_cast<size_t>(g.triangleCount()));
}

std::string TileRasterizer::where(int tx, int ty) {
  return "navmesh: tile (" + std::to_string(tx) + ", " + std::to_string(ty) + "): ";
}

// The triangles whose ground-plane bounds meet the tile's, border included.
void TileRasterizer::selectTriangles() {
  const std::vector<float>& verts = geo_.vertices();
  const std::vector<int>& tris = geo_.triangles();
  tile_tris_.clear();
  for (int t = 0; t < geo_.triangleCount(); ++t) {
    float lo[2] = {1e30f, 1e30f}, hi[2] = {-1e30f, -1e30f};
    for (int k = 0; k < 3; ++k) {
      const float* v = &verts[static_cast<size_t>(tris[static_cast<size_t>(t * 3 + k)]) * 3];
      lo[0] = std::min(lo[0], v[0]), hi[0] = std::max(hi[0], v[0]);
      lo[1] = std::min(lo[1], v[2]), hi[1] = std::max(hi[1], v[2]);
    }
    if (hi[0] < cfg_.bmin[0] || lo[0] > cfg_.bmax[0] || hi[1] < cfg_.bmin[2] || lo[1] > cfg_.bmax[2])
      continue;
    tile_tris_.insert(tile_tris_.end(), &tris[static_cast<size_t>(t * 3)],
                      &tris[static_cast<size_t>(t * 3)] + 3);
  }
}

std::string TileRasterizer::rasterize(int tx, int ty, const float* tile_min, const float* tile_max,
                                      RcPtr<rcCompactHeightfield>& out) {
  out.reset();
  const float border = cfg_.borderSize * cfg_.cs;
  rcVcopy(cfg_.bmin, tile_min);
  rcVcopy(cfg_.bmax, tile_max);
  cfg_.bmin[0] -= border;
  cfg_.bmin[2] -= border;
  cfg_.bmax[0] += border;
  cfg_.bmax[2] += border;

  RcPtr<rcHeightfield> solid(rcAllocHeightfield());
  if (!solid || !rcCreateHeightfield(&ctx_, *solid, cfg_.width, cfg_.height, cfg_.bmin, cfg_.bmax,
                                     cfg_.cs, cfg_.ch))
    return where(tx, ty) + "rcCreateHeightfield failed (out of memory)";
  selectTriangles();
  const int ntris = static_cast<int>(tile_tris_.size() / 3);
  if (ntris == 0) return "";
  const std::vector<float>& verts = geo_.vertices();
  std::fill(areas_.begin(), areas_.begin() + ntris, 0);
  rcMarkWalkableTriangles(&ctx_, cfg_.walkableSlopeAngle, verts.data(), geo_.vertexCount(),
                          tile_tris_.data(), ntris, areas_.data());
  if (!rcRasterizeTriangles(&ctx_, verts.data(), geo_.vertexCount(), tile_tris_.data(),
                            areas_.data(), ntris, *solid, cfg_.walkableClimb))
    return where(tx, ty) + "rcRasterizeTriangles failed";
  rcFilterLowHangingWalkableObstacles(&ctx_, cfg_.walkableClimb, *solid);
  rcFilterLedgeSpans(&ctx_, cfg_.walkableHeight, cfg_.walkableClimb, *solid);
  rcFilterWalkableLowHeightSpans(&ctx_, cfg_.walkableHeight, *solid);

  out.reset(rcAllocCompactHeightfield());
  if (!out || !rcBuildCompactHeightfield(&ctx_, cfg_.walkableHeight, cfg_.walkableClimb, *solid, *out)) {
    out.reset();
    return where(tx, ty) + "rcBuildCompactHeightfield failed (out of memory)";
  }
  return "";
}

}  // namespace npc::nav
