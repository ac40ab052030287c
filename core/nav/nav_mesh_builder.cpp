#include "nav/nav_mesh_builder.h"

#include <DetourAlloc.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <Recast.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "nav/level_geometry.h"
#include "nav/nav_coords.h"
#include "nav/nav_mesh.h"
#include "nav/tile_grid.h"
#include "nav/tile_rasterizer.h"

namespace npc::nav {
namespace {

constexpr unsigned short kWalkableFlag = 1;

struct Box {
  float bmin[3], bmax[3];
};

class TileBuilder {
 public:
  TileBuilder(const NavBuildConfig& c, const LevelGeometry& g, std::span<const Box> blockers)
      : raster_(c, g), cfg_(raster_.config()), ctx_(raster_.context()), blockers_(blockers) {
    cfg_.maxEdgeLen = static_cast<int>(c.max_edge_length_m / cfg_.cs);
    cfg_.maxSimplificationError = 1.3f;
    cfg_.minRegionArea = static_cast<int>(c.min_region_area_m2 / (cfg_.cs * cfg_.cs));
    cfg_.mergeRegionArea = 20 * 20;
    cfg_.maxVertsPerPoly = DT_VERTS_PER_POLYGON;
    cfg_.detailSampleDist = cfg_.cs * 6;
    cfg_.detailSampleMaxError = cfg_.ch;
    agent_ = c;
  }

  // Tile data for (tx, ty) whose ground-plane cell area starts at origin; null data with ""
  // when the tile has nothing walkable.
  std::string build(int tx, int ty, const float* tile_min, const float* tile_max,
                    unsigned char** data, int* size, int* polys) {
    *data = nullptr;
    *size = 0;
    RcPtr<rcCompactHeightfield> chf;
    if (std::string e = raster_.rasterize(tx, ty, tile_min, tile_max, chf); !e.empty() || !chf) return e;
    const std::string at = TileRasterizer::where(tx, ty);
    // Blockers before erosion, so the agent radius pads them as it pads walls.
    for (const Box& b : blockers_) {
      if (b.bmax[0] < cfg_.bmin[0] || b.bmin[0] > cfg_.bmax[0] || b.bmax[2] < cfg_.bmin[2] ||
          b.bmin[2] > cfg_.bmax[2])
        continue;
      // Down by a climb: an agent standing on the floor under a box's base is inside it.
      float lo[3] = {b.bmin[0], b.bmin[1] - agent_.agent_climb_m, b.bmin[2]};
      rcMarkBoxArea(&ctx_, lo, b.bmax, RC_NULL_AREA, *chf);
    }
    if (!rcErodeWalkableArea(&ctx_, cfg_.walkableRadius, *chf)) return at + "rcErodeWalkableArea failed";
    if (!rcBuildDistanceField(&ctx_, *chf)) return at + "rcBuildDistanceField failed";
    if (!rcBuildRegions(&ctx_, *chf, cfg_.borderSize, cfg_.minRegionArea, cfg_.mergeRegionArea))
      return at + "rcBuildRegions failed";
    RcPtr<rcContourSet> cset(rcAllocContourSet());
    if (!cset || !rcBuildContours(&ctx_, *chf, cfg_.maxSimplificationError, cfg_.maxEdgeLen, *cset))
      return at + "rcBuildContours failed";
    if (cset->nconts == 0) return "";
    RcPtr<rcPolyMesh> pmesh(rcAllocPolyMesh());
    if (!pmesh || !rcBuildPolyMesh(&ctx_, *cset, cfg_.maxVertsPerPoly, *pmesh))
      return at + "rcBuildPolyMesh failed";
    RcPtr<rcPolyMeshDetail> dmesh(rcAllocPolyMeshDetail());
    if (!dmesh || !rcBuildPolyMeshDetail(&ctx_, *pmesh, *chf, cfg_.detailSampleDist,
                                         cfg_.detailSampleMaxError, *dmesh))
      return at + "rcBuildPolyMeshDetail failed";
    if (pmesh->npolys == 0) return "";
    if (pmesh->nverts >= 0xffff)
      return at + std::to_string(pmesh->nverts) +
             " vertices, Detour holds at most 65534 per tile (lower tile_size_cells)";
    for (int i = 0; i < pmesh->npolys; ++i) {
      if (pmesh->areas[i] == RC_WALKABLE_AREA) pmesh->flags[i] = kWalkableFlag;
    }

    dtNavMeshCreateParams p{};
    p.verts = pmesh->verts;
    p.vertCount = pmesh->nverts;
    p.polys = pmesh->polys;
    p.polyAreas = pmesh->areas;
    p.polyFlags = pmesh->flags;
    p.polyCount = pmesh->npolys;
    p.nvp = pmesh->nvp;
    p.detailMeshes = dmesh->meshes;
    p.detailVerts = dmesh->verts;
    p.detailVertsCount = dmesh->nverts;
    p.detailTris = dmesh->tris;
    p.detailTriCount = dmesh->ntris;
    p.walkableHeight = agent_.agent_height_m;
    p.walkableRadius = agent_.agent_radius_m;
    p.walkableClimb = agent_.agent_climb_m;
    p.tileX = tx;
    p.tileY = ty;
    p.tileLayer = 0;
    rcVcopy(p.bmin, pmesh->bmin);
    rcVcopy(p.bmax, pmesh->bmax);
    p.cs = cfg_.cs;
    p.ch = cfg_.ch;
    p.buildBvTree = true;
    if (!dtCreateNavMeshData(&p, data, size)) return at + "dtCreateNavMeshData failed";
    *polys = pmesh->npolys;
    return "";
  }

 private:
  TileRasterizer raster_;
  rcConfig& cfg_;
  rcContext& ctx_;
  std::span<const Box> blockers_;
  NavBuildConfig agent_;
};

}  // namespace

std::string NavMeshBuilder::build(const LevelGeometry& geometry, std::span<const Aabb> blockers,
                                  NavMesh& out, NavBuildStats* stats) const {
  out = NavMesh();
  if (const std::vector<std::string> bad = config_.validate("navmesh."); !bad.empty()) return bad[0];
  TileGrid grid;
  if (std::string e = planTileGrid(config_, geometry, grid); !e.empty()) return e;
  dtNavMeshParams params;
  grid.meshParams(grid.tiles_x * grid.tiles_y, params);
  if (std::string e = out.init(params); !e.empty()) return e;

  std::vector<Box> boxes(blockers.size());
  for (size_t i = 0; i < blockers.size(); ++i) boxToRecast(blockers[i], boxes[i].bmin, boxes[i].bmax);
  TileBuilder tiles(config_, geometry, boxes);
  NavBuildStats s;
  s.tiles_x = grid.tiles_x;
  s.tiles_y = grid.tiles_y;
  for (int ty = 0; ty < grid.tiles_y; ++ty) {
    for (int tx = 0; tx < grid.tiles_x; ++tx) {
      float tmin[3], tmax[3];
      grid.tileBounds(tx, ty, tmin, tmax);
      unsigned char* data = nullptr;
      int size = 0, polys = 0;
      std::string e = tiles.build(tx, ty, tmin, tmax, &data, &size, &polys);
      if (e.empty() && data) e = out.addTile(data, size);
      if (!e.empty()) {
        out = NavMesh();
        return e;
      }
      if (data) {
        ++s.tiles_built;
        s.polygons += polys;
      }
    }
  }
  if (s.tiles_built == 0) {
    out = NavMesh();
    return "navmesh: nothing is walkable (check max_slope_deg, agent_height_m and the "
           "geometry's up axis: Y)";
  }
  s.data_bytes = out.memoryBytes();
  if (stats) *stats = s;
  return "";
}

}  // namespace npc::nav
