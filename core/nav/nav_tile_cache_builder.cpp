#include "nav/nav_tile_cache_builder.h"

#include <DetourAlloc.h>
#include <DetourCommon.h>
#include <DetourNavMesh.h>
#include <DetourTileCache.h>
#include <DetourTileCacheBuilder.h>
#include <Recast.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "nav/level_geometry.h"
#include "nav/nav_layer_compressor.h"
#include "nav/nav_mesh.h"
#include "nav/nav_tile_cache.h"
#include "nav/tile_grid.h"
#include "nav/tile_rasterizer.h"

namespace npc::nav {
namespace {

// One layer as dtBuildTileCacheLayer made it (dtAlloc'd), until the tile cache takes it.
struct LayerData {
  unsigned char* data = nullptr;
  int size = 0;
};

// Builds the layers of one tile: the compact heightfield is eroded (no blockers: the tile
// cache marks them later) and cut into layers instead of regions.
class TileLayerBuilder {
 public:
  TileLayerBuilder(const NavBuildConfig& c, const LevelGeometry& g)
      : raster_(c, g), cfg_(raster_.config()), ctx_(raster_.context()) {}

  // Appends the tile's layers to `out`; none when nothing in it is walkable.
  std::string build(int tx, int ty, const float* tile_min, const float* tile_max,
                    dtTileCacheCompressor& compressor, std::vector<LayerData>& out) {
    RcPtr<rcCompactHeightfield> chf;
    if (std::string e = raster_.rasterize(tx, ty, tile_min, tile_max, chf); !e.empty() || !chf) return e;
    const std::string at = TileRasterizer::where(tx, ty);
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
  TileRasterizer raster_;
  rcConfig& cfg_;
  rcContext& ctx_;
};

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
  TileGrid grid;
  if (std::string e = planTileGrid(config_, geometry, grid); !e.empty()) return e;

  LayerList list;
  {
    NavLayerCompressor compressor;
    TileLayerBuilder tiles(config_, geometry);
    for (int ty = 0; ty < grid.tiles_y; ++ty) {
      for (int tx = 0; tx < grid.tiles_x; ++tx) {
        float tmin[3], tmax[3];
        grid.tileBounds(tx, ty, tmin, tmax);
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

  dtNavMeshParams mesh_params;
  grid.meshParams(layers, mesh_params);
  if (std::string e = out.init(mesh_params); !e.empty()) return e;

  NavTileCacheParams p;
  dtVcopy(p.origin, grid.bmin);
  p.cell_size_m = config_.cell_size_m;
  p.cell_height_m = config_.cell_height_m;
  p.tile_size_cells = config_.tile_size_cells;
  p.tiles_x = grid.tiles_x;
  p.tiles_y = grid.tiles_y;
  p.agent_height_m = config_.agent_height_m;
  p.agent_radius_m = config_.agent_radius_m;
  p.agent_climb_m = config_.agent_climb_m;
  p.max_layers = layers;
  p.max_obstacles = config_.max_obstacles;
  p.max_pieces_per_obstacle = config_.max_obstacle_tiles;
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
  out.updateAllTiles();
  NavBuildStats s;
  s.tiles_x = grid.tiles_x;
  s.tiles_y = grid.tiles_y;
  s.tiles_built = out.tileCount();
  s.polygons = out.polygonCount();
  s.data_bytes = out.memoryBytes();
  if (stats) *stats = s;
  return "";
}

}  // namespace npc::nav
