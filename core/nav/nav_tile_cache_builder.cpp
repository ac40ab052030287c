#include "nav/nav_tile_cache_builder.h"

#include <DetourAlloc.h>
#include <DetourCommon.h>
#include <DetourNavMesh.h>
#include <DetourTileCache.h>
#include <DetourTileCacheBuilder.h>
#include <Recast.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <memory>
#include <vector>

#include "nav/level_geometry.h"
#include "nav/nav_layer_compressor.h"
#include "nav/nav_mesh.h"
#include "nav/nav_tile_cache.h"

namespace npc::nav {
namespace {

struct FreeRc {
  void operator()(rcHeightfield* p) const { rcFreeHeightField(p); }
  void operator()(rcCompactHeightfield* p) const { rcFreeCompactHeightfield(p); }
  void operator()(rcHeightfieldLayerSet* p) const { rcFreeHeightfieldLayerSet(p); }
};
template <class T>
using RcPtr = std::unique_ptr<T, FreeRc>;

// One layer as dtBuildTileCacheLayer made it (dtAlloc'd), until the tile cache takes it.
struct LayerData {
  unsigned char* data = nullptr;
  int size = 0;
};

// Builds the layers of one tile. Rasterization is NavMeshBuilder's; what differs is that the
// compact heightfield is eroded (no blockers) and cut into layers instead of regions.
class TileLayerBuilder {
 public:
  TileLayerBuilder(const NavBuildConfig& c, const LevelGeometry& g) : geo_(g) {
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

  // Appends the tile's layers to `out`; none when nothing in it is walkable.
  std::string build(int tx, int ty, const float* tile_min, const float* tile_max,
                    dtTileCacheCompressor& compressor, std::vector<LayerData>& out) {
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
    if (!rcErodeWalkableArea(&ctx_, cfg_.walkableRadius, *chf)) return at + "rcErodeWalkableArea failed";
    RcPtr<rcHeightfieldLayerSet> lset(rcAllocHeightfieldLayerSet());
    if (!lset || !rcBuildHeightfieldLayers(&ctx_, *chf, cfg_.borderSize, cfg_.walkableHeight, *lset))
      return at + "rcBuildHeightfieldLayers failed";

    for (int i = 0; i < lset->nlayers; ++i) {
      const rcHeightfieldLayer& layer = lset->layers[i];
      dtTileCacheLayerHeader header{};
      header.magic = DT_TILECACHE_MAGIC;
      header.version = DT_TILECACHE_VERSION;
      header.tx = tx;
      header.ty = ty;
      header.tlayer = i;
      dtVcopy(header.bmin, layer.bmin);
      dtVcopy(header.bmax, layer.bmax);
      header.width = static_cast<unsigned char>(layer.width);
      header.height = static_cast<unsigned char>(layer.height);
      header.minx = static_cast<unsigned char>(layer.minx);
      header.maxx = static_cast<unsigned char>(layer.maxx);
      header.miny = static_cast<unsigned char>(layer.miny);
      header.maxy = static_cast<unsigned char>(layer.maxy);
      header.hmin = static_cast<unsigned short>(layer.hmin);
      header.hmax = static_cast<unsigned short>(layer.hmax);
      LayerData d;
      const dtStatus s = dtBuildTileCacheLayer(&compressor, &header, layer.heights, layer.areas,
                                               layer.cons, &d.data, &d.size);
      if (dtStatusFailed(s)) return at + "dtBuildTileCacheLayer failed";
      out.push_back(d);
    }
    return "";
  }

 private:
  const LevelGeometry& geo_;
  rcConfig cfg_{};
  rcContext ctx_{false};
  std::vector<int> tile_tris_;
  std::vector<unsigned char> areas_;
};

int log2Ceil(unsigned v) {
  int r = 0;
  while ((1u << r) < v) ++r;
  return r;
}

// Layers not yet handed to the tile cache are freed with the builder.
struct LayerList {
  std::vector<LayerData> layers;
  size_t taken = 0;
  ~LayerList() {
    for (size_t i = taken; i < layers.size(); ++i) dtFree(layers[i].data);
  }
};

}  // namespace

std::string NavTileCacheBuilder::build(const LevelGeometry& geometry, std::span<const Obstacle> obstacles,
                                       NavMesh& out, NavBuildStats* stats) const {
  out = NavMesh();
  if (const std::vector<std::string> bad = config_.validate("navmesh."); !bad.empty()) return bad[0];
  if (config_.tile_size_cells > 255)
    return "navmesh.tile_size_cells: must be at most 255 when obstacles change the mesh (got " +
           std::to_string(config_.tile_size_cells) + ")";
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

  LayerList list;
  {
    NavLayerCopyCompressor compressor;
    TileLayerBuilder tiles(config_, geometry);
    for (int ty = 0; ty < th; ++ty) {
      for (int tx = 0; tx < tw; ++tx) {
        const float tmin[3] = {bmin[0] + tx * tile_m, bmin[1], bmin[2] + ty * tile_m};
        const float tmax[3] = {bmin[0] + (tx + 1) * tile_m, bmax[1], bmin[2] + (ty + 1) * tile_m};
        if (std::string e = tiles.build(tx, ty, tmin, tmax, compressor, list.layers); !e.empty()) return e;
      }
    }
  }
  const int layers = static_cast<int>(list.layers.size());
  if (layers == 0)
    return "navmesh: nothing is walkable (check max_slope_deg, agent_height_m and the "
           "geometry's up axis: Y)";
  if (layers > config_.max_tiles)
    return "navmesh: the geometry has " + std::to_string(layers) + " tile layers, more than max_tiles " +
           std::to_string(config_.max_tiles);

  dtNavMeshParams mesh_params{};
  rcVcopy(mesh_params.orig, bmin);
  mesh_params.tileWidth = tile_m;
  mesh_params.tileHeight = tile_m;
  const int tile_bits = std::min(log2Ceil(static_cast<unsigned>(layers)), 14);
  mesh_params.maxTiles = 1 << tile_bits;
  mesh_params.maxPolys = 1 << (22 - tile_bits);
  if (std::string e = out.init(mesh_params); !e.empty()) return e;

  NavTileCacheParams p;
  dtVcopy(p.origin, bmin);
  p.cell_size_m = config_.cell_size_m;
  p.cell_height_m = config_.cell_height_m;
  p.tile_size_cells = config_.tile_size_cells;
  p.tiles_x = tw;
  p.tiles_y = th;
  p.agent_height_m = config_.agent_height_m;
  p.agent_radius_m = config_.agent_radius_m;
  p.agent_climb_m = config_.agent_climb_m;
  p.max_layers = layers;
  p.max_obstacles = config_.max_obstacles;
  auto cache = std::make_unique<NavTileCache>();
  if (std::string e = cache->init(p); !e.empty()) return e;
  for (; list.taken < list.layers.size(); ++list.taken) {
    const LayerData& d = list.layers[list.taken];
    if (std::string e = cache->addLayer(d.data, d.size); !e.empty()) {
      ++list.taken;  // addLayer freed it
      return e;
    }
  }
  for (const Obstacle& o : obstacles) {
    if (std::string e = cache->upsert(o.id, o.box); !e.empty())
      return "navmesh: obstacle " + std::to_string(raw(o.id)) + ": " + e;
  }
  if (std::string e = out.attachTileCache(std::move(cache)); !e.empty()) return e;
  while (!out.tileCache()->upToDate() && out.updateTiles(INT_MAX) > 0) {
  }
  NavBuildStats s;
  s.tiles_x = tw;
  s.tiles_y = th;
  s.tiles_built = out.tileCount();
  s.polygons = out.polygonCount();
  s.data_bytes = out.memoryBytes();
  if (stats) *stats = s;
  return "";
}

}  // namespace npc::nav
