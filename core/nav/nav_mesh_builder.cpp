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

namespace npc::nav {
namespace {

// Recast's owners, freed with its own functions.
struct FreeRc {
  void operator()(rcHeightfield* p) const { rcFreeHeightField(p); }
  void operator()(rcCompactHeightfield* p) const { rcFreeCompactHeightfield(p); }
  void operator()(rcContourSet* p) const { rcFreeContourSet(p); }
  void operator()(rcPolyMesh* p) const { rcFreePolyMesh(p); }
  void operator()(rcPolyMeshDetail* p) const { rcFreePolyMeshDetail(p); }
};
template <class T>
using RcPtr = std::unique_ptr<T, FreeRc>;

constexpr unsigned short kWalkableFlag = 1;

struct Box {
  float bmin[3], bmax[3];
};

class TileBuilder {
 public:
  TileBuilder(const NavBuildConfig& c, const LevelGeometry& g, std::span<const Box> blockers)
      : geo_(g), blockers_(blockers) {
    cfg_.cs = c.cell_size_m;
    cfg_.ch = c.cell_height_m;
    cfg_.walkableSlopeAngle = c.max_slope_deg;
    cfg_.walkableHeight = static_cast<int>(std::ceil(c.agent_height_m / cfg_.ch));
    cfg_.walkableClimb = static_cast<int>(std::floor(c.agent_climb_m / cfg_.ch));
    cfg_.walkableRadius = static_cast<int>(std::ceil(c.agent_radius_m / cfg_.cs));
    cfg_.maxEdgeLen = static_cast<int>(c.max_edge_length_m / cfg_.cs);
    cfg_.maxSimplificationError = 1.3f;
    cfg_.minRegionArea = static_cast<int>(c.min_region_area_m2 / (cfg_.cs * cfg_.cs));
    cfg_.mergeRegionArea = 20 * 20;
    cfg_.maxVertsPerPoly = DT_VERTS_PER_POLYGON;
    cfg_.tileSize = c.tile_size_cells;
    cfg_.borderSize = cfg_.walkableRadius + 3;
    cfg_.width = cfg_.height = cfg_.tileSize + cfg_.borderSize * 2;
    cfg_.detailSampleDist = cfg_.cs * 6;
    cfg_.detailSampleMaxError = cfg_.ch;
    agent_ = c;
    areas_.resize(static_cast<size_t>(g.triangleCount()));
  }

  // Tile data for (tx, ty) whose ground-plane cell area starts at origin; null data with ""
  // when the tile has nothing walkable.
  std::string build(int tx, int ty, const float* tile_min, const float* tile_max,
                    unsigned char** data, int* size, int* polys) {
    *data = nullptr;
    *size = 0;
    const float border = cfg_.borderSize * cfg_.cs;
    rcVcopy(cfg_.bmin, tile_min);
    rcVcopy(cfg_.bmax, tile_max);
    cfg_.bmin[0] -= border;
    cfg_.bmin[2] -= border;
    cfg_.bmax[0] += border;
    cfg_.bmax[2] += border;
    const std::string at = "navmesh: tile (" + std::to_string(tx) + ", " + std::to_string(ty) + "): ";

    RcPtr<rcHeightfield> solid(rcAllocHeightfield());
    if (!solid || !rcCreateHeightfield(&ctx_, *solid, cfg_.width, cfg_.height, cfg_.bmin,
                                       cfg_.bmax, cfg_.cs, cfg_.ch))
      return at + "rcCreateHeightfield failed (out of memory)";
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
    const int ntris = static_cast<int>(tile_tris_.size() / 3);
    if (ntris == 0) return "";
    std::fill(areas_.begin(), areas_.begin() + ntris, 0);
    rcMarkWalkableTriangles(&ctx_, cfg_.walkableSlopeAngle, verts.data(), geo_.vertexCount(),
                            tile_tris_.data(), ntris, areas_.data());
    if (!rcRasterizeTriangles(&ctx_, verts.data(), geo_.vertexCount(), tile_tris_.data(),
                              areas_.data(), ntris, *solid, cfg_.walkableClimb))
      return at + "rcRasterizeTriangles failed";
    rcFilterLowHangingWalkableObstacles(&ctx_, cfg_.walkableClimb, *solid);
    rcFilterLedgeSpans(&ctx_, cfg_.walkableHeight, cfg_.walkableClimb, *solid);
    rcFilterWalkableLowHeightSpans(&ctx_, cfg_.walkableHeight, *solid);

    RcPtr<rcCompactHeightfield> chf(rcAllocCompactHeightfield());
    if (!chf || !rcBuildCompactHeightfield(&ctx_, cfg_.walkableHeight, cfg_.walkableClimb,
                                           *solid, *chf))
      return at + "rcBuildCompactHeightfield failed (out of memory)";
    solid.reset();
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
  const LevelGeometry& geo_;
  std::span<const Box> blockers_;
  NavBuildConfig agent_;
  rcConfig cfg_{};
  rcContext ctx_{false};  // no timers or log: diagnostics are our return values
  std::vector<int> tile_tris_;
  std::vector<unsigned char> areas_;
};

int log2Ceil(unsigned v) {
  int r = 0;
  while ((1u << r) < v) ++r;
  return r;
}

}  // namespace

std::string NavMeshBuilder::build(const LevelGeometry& geometry, std::span<const Aabb> blockers,
                                  NavMesh& out, NavBuildStats* stats) const {
  out = NavMesh();
  if (const std::vector<std::string> bad = config_.validate("navmesh."); !bad.empty()) return bad[0];
  if (geometry.triangleCount() == 0) return "navmesh: the level geometry has no triangles";
  float bmin[3], bmax[3];
  geometry.bounds(bmin, bmax);
  const float tile_m = config_.tile_size_cells * config_.cell_size_m;
  const int tw = std::max(1, static_cast<int>(std::ceil((bmax[0] - bmin[0]) / tile_m)));
  const int th = std::max(1, static_cast<int>(std::ceil((bmax[2] - bmin[2]) / tile_m)));
  if (static_cast<long long>(tw) * th > config_.max_tiles)
    return "navmesh: the geometry needs " + std::to_string(tw) + " x " + std::to_string(th) +
           " tiles, more than max_tiles " + std::to_string(config_.max_tiles) +
           " (raise cell_size_m or tile_size_cells)";

  const double cells = static_cast<double>(tw) * th * config_.tile_size_cells * config_.tile_size_cells;
  if (cells > kMaxBuildCells)
    return "navmesh: the geometry needs " + std::to_string(static_cast<long long>(cells)) +
           " cells, more than " + std::to_string(static_cast<long long>(kMaxBuildCells)) +
           " (raise cell_size_m)";
  dtNavMeshParams params{};
  rcVcopy(params.orig, bmin);
  params.tileWidth = tile_m;
  params.tileHeight = tile_m;
  const int tile_bits = std::min(log2Ceil(static_cast<unsigned>(tw * th)), 14);
  params.maxTiles = 1 << tile_bits;
  params.maxPolys = 1 << (22 - tile_bits);
  if (std::string e = out.init(params); !e.empty()) return e;

  std::vector<Box> boxes(blockers.size());
  for (size_t i = 0; i < blockers.size(); ++i) boxToRecast(blockers[i], boxes[i].bmin, boxes[i].bmax);
  TileBuilder tiles(config_, geometry, boxes);
  NavBuildStats s;
  s.tiles_x = tw;
  s.tiles_y = th;
  for (int ty = 0; ty < th; ++ty) {
    for (int tx = 0; tx < tw; ++tx) {
      const float tmin[3] = {bmin[0] + tx * tile_m, bmin[1], bmin[2] + ty * tile_m};
      const float tmax[3] = {bmin[0] + (tx + 1) * tile_m, bmax[1], bmin[2] + (ty + 1) * tile_m};
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
