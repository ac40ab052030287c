#include "nav/nav_tile_cache.h"

#include <DetourAlloc.h>
#include <DetourCommon.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <DetourTileCache.h>
#include <DetourTileCacheBuilder.h>

#include <algorithm>
#include <cmath>

#include "nav/detour_status.h"
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


bool sameBox(const Aabb& a, const Aabb& b) {
  return a.min.x == b.min.x && a.min.y == b.min.y && a.min.z == b.min.z && a.max.x == b.max.x &&
         a.max.y == b.max.y && a.max.z == b.max.z;
}

}  // namespace

struct NavTileCache::Parts {
  dtTileCacheAlloc alloc;  // Detour's default: dtAlloc / dtFree per rebuild
  NavLayerCompressor compressor;
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
    return "navmesh: tile cache: Detour refused the parameters (" + detourStatusText(s) + ")";
  }
  return "";
}

std::string NavTileCache::addLayer(unsigned char* data, int size) {
  const dtStatus s = cache_->addTile(data, size, DT_COMPRESSEDTILE_FREE_DATA, nullptr);
  if (dtStatusFailed(s)) {
    dtFree(data);
    return "navmesh: tile cache: Detour refused a layer (" + detourStatusText(s) + ")";
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
               "): building it from its layers failed (" + detourStatusText(s) + ")";
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
  for (int i = 0; i < 3; ++i) {
    if (!std::isfinite(bmin[i]) || !std::isfinite(bmax[i])) return;  // no pieces: off every tile
  }
  // Clamped as a float first: a far box's column would not fit an int.
  auto column = [&](float v, int axis, int count) {
    const float c = std::floor((v - params_.origin[axis]) / tile_m);
    return static_cast<int>(std::clamp(c, -1.f, static_cast<float>(count)));
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

int NavTileCache::claimOf(const Tracked& t) {
  const int held = static_cast<int>(t.refs.size());
  return t.queued ? std::max(held, t.queued_pieces) : held;
}

NavObstacleChange* NavTileCache::queuedChangeOf(ObstacleId id) {
  for (NavObstacleChange& c : queue_) {
    if (c.id == id) return &c;
  }
  return nullptr;
}

// One change per id waits: a later one takes the waiting one's place in the queue.
void NavTileCache::enqueue(ObstacleId id, Tracked& t, const NavObstacleChange& change, int pieces) {
  claimed_ -= claimOf(t);
  if (NavObstacleChange* waiting = t.queued ? queuedChangeOf(id) : nullptr) {
    *waiting = change;
  } else {
    queue_.push_back(change);
  }
  t.queued = true;
  t.queued_pieces = pieces;
  claimed_ += claimOf(t);
}

std::string NavTileCache::upsert(ObstacleId id, const Aabb& box) {
  if (!cache_) return "navmesh: no tile cache";
  auto it = obstacles_.find(id);
  if (it != obstacles_.end()) {
    const Tracked& t = it->second;
    const NavObstacleChange* waiting = t.queued ? queuedChangeOf(id) : nullptr;
    const bool unchanged = waiting ? !waiting->remove && sameBox(waiting->box, box)
                                   : t.held && sameBox(t.held_box, box);
    if (unchanged) return "";
  }
  cutIntoPieces(box, pieces_);
  const int need = static_cast<int>(pieces_.size());
  if (need > params_.max_pieces_per_obstacle)
    return "the box covers " + std::to_string(need) + " tiles of the navmesh, more than " +
           std::to_string(params_.max_pieces_per_obstacle) +
           " (navmesh.build.max_obstacle_tiles: a change rebuilds them all in one tick)";
  const int before = it == obstacles_.end() ? 0 : claimOf(it->second);
  const int held = it == obstacles_.end() ? 0 : static_cast<int>(it->second.refs.size());
  if (claimed_ - before + std::max(held, need) > params_.max_obstacles)
    return "the navmesh's tile cache has " + std::to_string(params_.max_obstacles - claimed_ + before) +
           " obstacle slots free, the box needs " + std::to_string(need) +
           " (one per tile it covers; raise navmesh.build.max_obstacles)";
  if (it == obstacles_.end()) it = obstacles_.emplace(id, Tracked{}).first;
  enqueue(id, it->second, {id, false, box}, need);
  return "";
}

bool NavTileCache::remove(ObstacleId id) {
  auto it = obstacles_.find(id);
  if (it == obstacles_.end()) return false;
  Tracked& t = it->second;
  if (!t.held) {  // only queued: it never reached the mesh
    std::erase_if(queue_, [&](const NavObstacleChange& c) { return c.id == id; });
    claimed_ -= claimOf(t);
    obstacles_.erase(it);
    return true;
  }
  enqueue(id, t, {id, true, {}}, 0);
  return true;
}

int NavTileCache::update(dtNavMesh& mesh, int max_tile_rebuilds) {
  if (!cache_) return 0;
  int rebuilt = 0;
  while (!queue_.empty() && rebuilt < max_tile_rebuilds) {
    const NavObstacleChange change = queue_.front();
    queue_.pop_front();
    rebuilt += apply(change, mesh);
  }
  return rebuilt;
}

int NavTileCache::apply(const NavObstacleChange& change, dtNavMesh& mesh) {
  auto it = obstacles_.find(change.id);
  if (it == obstacles_.end()) it = obstacles_.emplace(change.id, Tracked{}).first;
  Tracked& t = it->second;
  claimed_ -= claimOf(t);
  t.queued = false;
  t.queued_pieces = 0;
  int rebuilt = 0;
  if (change.remove || !t.held || !sameBox(t.held_box, change.box)) {
    rebuilt += removePieces(t, mesh);
    if (!change.remove) rebuilt += addPieces(change.box, t, mesh);
  }
  claimed_ += claimOf(t);
  if (change.remove) obstacles_.erase(it);
  return rebuilt;
}

int NavTileCache::removePieces(Tracked& t, dtNavMesh& mesh) {
  int rebuilt = 0;
  for (size_t i = 0; i < t.refs.size(); ++i) {
    if (i > 0 && i % kPiecesPerBatch == 0) rebuilt += settle(mesh);
    if (dtStatusFailed(cache_->removeObstacle(t.refs[i]))) ++failures_;
  }
  if (!t.refs.empty()) rebuilt += settle(mesh);  // slots are free once the tiles are rebuilt
  t.refs.clear();
  t.held = false;
  return rebuilt;
}

int NavTileCache::addPieces(const Aabb& box, Tracked& t, dtNavMesh& mesh) {
  cutIntoPieces(box, pieces_);
  int rebuilt = 0;
  for (size_t i = 0; i < pieces_.size(); ++i) {
    if (i > 0 && i % kPiecesPerBatch == 0) rebuilt += settle(mesh);
    dtObstacleRef ref = 0;
    if (dtStatusFailed(cache_->addBoxObstacle(pieces_[i].bmin, pieces_[i].bmax, &ref))) {
      ++failures_;
      continue;
    }
    t.refs.push_back(ref);
  }
  if (!pieces_.empty()) rebuilt += settle(mesh);
  t.held = true;
  t.held_box = box;
  return rebuilt;
}

// Runs Detour's update until its requests are processed and their tiles rebuilt (one
// tile layer per call). Returns the calls made.
int NavTileCache::settle(dtNavMesh& mesh) {
  int calls = 0;
  for (bool up_to_date = false; !up_to_date;) {
    if (dtStatusFailed(cache_->update(0.f, &mesh, &up_to_date))) ++failures_;
    ++calls;
  }
  return calls;
}

std::vector<NavObstacleChange> NavTileCache::held() const {
  std::vector<NavObstacleChange> out;
  for (const auto& [id, t] : obstacles_) {
    if (t.held) out.push_back({id, false, t.held_box});
  }
  return out;
}

void NavTileCache::restore(dtNavMesh& mesh, std::span<const NavObstacleChange> held,
                           std::span<const NavObstacleChange> queued) {
  if (!cache_) return;
  for (auto& [id, t] : obstacles_) removePieces(t, mesh);
  obstacles_.clear();
  queue_.clear();
  claimed_ = 0;
  for (const NavObstacleChange& h : held) {
    if (!h.remove) apply(h, mesh);
  }
  for (const NavObstacleChange& c : queued) {
    Tracked& t = obstacles_[c.id];
    if (t.queued) continue;  // one change per id
    cutIntoPieces(c.box, pieces_);
    enqueue(c.id, t, c, c.remove ? 0 : static_cast<int>(pieces_.size()));
  }
}

size_t NavTileCache::memoryBytes() const {
  return layer_bytes_ + static_cast<size_t>(params_.max_layers) * sizeof(dtCompressedTile) +
         static_cast<size_t>(params_.max_obstacles) * sizeof(dtTileCacheObstacle);
}

}  // namespace npc::nav
