#include "nav/nav_tile_cache.h"

#include <DetourAlloc.h>
#include <DetourCommon.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <DetourTileCache.h>
#include <DetourTileCacheBuilder.h>

#include <algorithm>
#include <cmath>

#include "nav/nav_coords.h"
#include "nav/nav_layer_compressor.h"

namespace npc::nav {
namespace {

constexpr unsigned short kWalkableFlag = 1;  // as NavMeshBuilder's polygons (nav_query's filter)

// Rebuilt polygons get the flag the query filter includes; without it they are never walked.
struct WalkableFlags : dtTileCacheMeshProcess {
  void process(dtNavMeshCreateParams* params, unsigned char* areas, unsigned short* flags) override {
    for (int i = 0; i < params->polyCount; ++i)
      flags[i] = areas[i] == DT_TILECACHE_WALKABLE_AREA ? kWalkableFlag : 0;
  }
};

std::string statusText(dtStatus s) {
  if (s & DT_OUT_OF_MEMORY) return "out of memory or slots";
  if (s & DT_INVALID_PARAM) return "invalid parameters";
  if (s & DT_WRONG_MAGIC) return "wrong magic";
  if (s & DT_WRONG_VERSION) return "wrong version";
  if (s & DT_BUFFER_TOO_SMALL) return "buffer too small";
  return "failed";
}

bool sameBox(const Aabb& a, const Aabb& b) {
  return a.min.x == b.min.x && a.min.y == b.min.y && a.min.z == b.min.z && a.max.x == b.max.x &&
         a.max.y == b.max.y && a.max.z == b.max.z;
}

}  // namespace

struct NavTileCache::Parts {
  dtTileCacheAlloc alloc;  // Detour's default: dtAlloc / dtFree per rebuild
  NavLayerCopyCompressor compressor;
  WalkableFlags flags;
};

NavTileCache::NavTileCache() : parts_(std::make_unique<Parts>()), cache_(nullptr, dtFreeTileCache) {}
NavTileCache::~NavTileCache() = default;

std::string NavTileCache::init(const NavTileCacheParams& params) {
  params_ = params;
  cache_.reset(dtAllocTileCache());
  if (!cache_) return "navmesh: tile cache: out of memory";
  dtTileCacheParams p{};
  dtVcopy(p.orig, params.origin);
  p.cs = params.cell_size_m;
  p.ch = params.cell_height_m;
  p.width = p.height = params.tile_size_cells;
  p.walkableHeight = params.agent_height_m;
  p.walkableRadius = params.agent_radius_m;
  p.walkableClimb = params.agent_climb_m;
  p.maxSimplificationError = 1.3f;
  p.maxTiles = params.max_layers;
  p.maxObstacles = params.max_obstacles;
  const dtStatus s = cache_->init(&p, &parts_->alloc, &parts_->compressor, &parts_->flags);
  if (dtStatusFailed(s)) {
    cache_.reset();
    return "navmesh: tile cache: Detour refused the parameters (" + statusText(s) + ")";
  }
  return "";
}

std::string NavTileCache::addLayer(unsigned char* data, int size) {
  const dtStatus s = cache_->addTile(data, size, DT_COMPRESSEDTILE_FREE_DATA, nullptr);
  if (dtStatusFailed(s)) {
    dtFree(data);
    return "navmesh: tile cache: Detour refused a layer (" + statusText(s) + ")";
  }
  layer_bytes_ += static_cast<size_t>(size);
  return "";
}

std::string NavTileCache::buildAllTiles(dtNavMesh& mesh) {
  for (int ty = 0; ty < params_.tiles_y; ++ty) {
    for (int tx = 0; tx < params_.tiles_x; ++tx) {
      const dtStatus s = cache_->buildNavMeshTilesAt(tx, ty, &mesh);
      if (dtStatusFailed(s))
        return "navmesh: tile (" + std::to_string(tx) + ", " + std::to_string(ty) +
               "): building it from its layers failed (" + statusText(s) + ")";
    }
  }
  return "";
}

void NavTileCache::cutIntoPieces(const Aabb& box, std::vector<Piece>& out) const {
  out.clear();
  float bmin[3], bmax[3];
  boxToRecast(box, bmin, bmax);
  const float r = params_.agent_radius_m;
  bmin[0] -= r, bmin[2] -= r, bmax[0] += r, bmax[2] += r;
  bmin[1] -= params_.agent_climb_m;
  const float tile_m = params_.tile_size_cells * params_.cell_size_m;
  auto column = [&](float v, int axis, int count) {
    return std::clamp(static_cast<int>(std::floor((v - params_.origin[axis]) / tile_m)), -1, count);
  };
  const int x0 = std::max(column(bmin[0], 0, params_.tiles_x), 0);
  const int x1 = std::min(column(bmax[0], 0, params_.tiles_x), params_.tiles_x - 1);
  const int z0 = std::max(column(bmin[2], 2, params_.tiles_y), 0);
  const int z1 = std::min(column(bmax[2], 2, params_.tiles_y), params_.tiles_y - 1);
  for (int z = z0; z <= z1; ++z) {
    for (int x = x0; x <= x1; ++x) {
      Piece p;
      p.bmin[0] = std::max(bmin[0], params_.origin[0] + x * tile_m);
      p.bmax[0] = std::min(bmax[0], params_.origin[0] + (x + 1) * tile_m);
      p.bmin[2] = std::max(bmin[2], params_.origin[2] + z * tile_m);
      p.bmax[2] = std::min(bmax[2], params_.origin[2] + (z + 1) * tile_m);
      p.bmin[1] = bmin[1];
      p.bmax[1] = bmax[1];
      out.push_back(p);
    }
  }
}

void NavTileCache::queueRemovalOf(ObstacleId id, Placed& placed) {
  // Pieces not yet sent are simply forgotten; sent ones are removed through Detour.
  std::erase_if(queue_, [&](const Request& q) { return q.add && q.id == id; });
  for (unsigned int ref : placed.refs) queue_.push_back({id, false, ref, {}});
  placed.refs.clear();
  claimed_ -= placed.pieces;
  placed.pieces = 0;
}

std::string NavTileCache::upsert(ObstacleId id, const Aabb& box) {
  if (!cache_) return "navmesh: no tile cache";
  auto it = obstacles_.find(id);
  if (it != obstacles_.end() && sameBox(it->second.box, box)) return "";
  std::vector<Piece> pieces;
  cutIntoPieces(box, pieces);
  const int held = it == obstacles_.end() ? 0 : it->second.pieces;
  const int need = static_cast<int>(pieces.size());
  if (claimed_ - held + need > params_.max_obstacles)
    return "the navmesh's tile cache has " + std::to_string(params_.max_obstacles - claimed_ + held) +
           " obstacle slots free, the box needs " + std::to_string(need) +
           " (one per tile it covers; raise navmesh.build.max_obstacles)";
  if (it == obstacles_.end()) it = obstacles_.emplace(id, Placed{}).first;
  Placed& placed = it->second;
  queueRemovalOf(id, placed);
  placed.box = box;
  placed.pieces = need;
  claimed_ += need;
  for (const Piece& p : pieces) queue_.push_back({id, true, 0, p});
  return "";
}

bool NavTileCache::remove(ObstacleId id) {
  auto it = obstacles_.find(id);
  if (it == obstacles_.end()) return false;
  queueRemovalOf(id, it->second);
  obstacles_.erase(it);
  return true;
}

bool NavTileCache::sendBatch() {
  int sent = 0;
  while (sent < kRequestsPerBatch && !queue_.empty()) {
    Request& q = queue_.front();
    if (q.add) {
      dtObstacleRef ref = 0;
      const dtStatus s = cache_->addBoxObstacle(q.piece.bmin, q.piece.bmax, &ref);
      // Out of slots: removals in flight free them; retry with the next batch.
      if (dtStatusFailed(s)) break;
      obstacles_[q.id].refs.push_back(ref);
    } else {
      cache_->removeObstacle(q.ref);
    }
    queue_.pop_front();
    ++sent;
  }
  return sent > 0;
}

int NavTileCache::update(dtNavMesh& mesh, int max_steps) {
  if (!cache_) return 0;
  int steps = 0;
  while (steps < max_steps) {
    if (idle_ && !sendBatch()) break;
    bool up_to_date = false;
    const dtStatus s = cache_->update(0.f, &mesh, &up_to_date);
    if (dtStatusFailed(s)) ++failed_rebuilds_;
    idle_ = up_to_date;
    ++steps;
  }
  return steps;
}

size_t NavTileCache::memoryBytes() const {
  return layer_bytes_ + static_cast<size_t>(params_.max_layers) * sizeof(dtCompressedTile) +
         static_cast<size_t>(params_.max_obstacles) * sizeof(dtTileCacheObstacle);
}

}  // namespace npc::nav
