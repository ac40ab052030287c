#include "nav/nav_mesh.h"

#include <DetourAlloc.h>
#include <DetourNavMesh.h>

#include <limits>

#include "nav/detour_status.h"
#include "nav/nav_tile_cache.h"

namespace npc::nav {
namespace {

// Different meshes never share a generation, so a cache cannot mistake a replaced mesh for
// the one it was filled from.
uint32_t nextGeneration() {
  static uint32_t counter = 0;
  return ++counter;
}


}  // namespace

void NavMesh::Free::operator()(dtNavMesh* m) const { dtFreeNavMesh(m); }

NavMesh::NavMesh() = default;
NavMesh::~NavMesh() = default;
NavMesh::NavMesh(NavMesh&&) noexcept = default;
NavMesh& NavMesh::operator=(NavMesh&&) noexcept = default;

std::string NavMesh::init(const dtNavMeshParams& params) {
  mesh_.reset(dtAllocNavMesh());
  tile_cache_.reset();
  tiles_ = 0;
  polygons_ = 0;
  bytes_ = 0;
  generation_ = nextGeneration();
  if (!mesh_) return "navmesh: out of memory";
  const dtStatus s = mesh_->init(&params);
  if (dtStatusFailed(s)) {
    mesh_.reset();
    return "navmesh: Detour refused the mesh parameters (" + detourStatusText(s) +
           "; tile bits + polygon bits leave fewer than 10 salt bits?)";
  }
  return "";
}

std::string NavMesh::addTile(unsigned char* data, int size) {
  if (!mesh_) {
    dtFree(data);
    return "navmesh: addTile before init";
  }
  const dtStatus s = mesh_->addTile(data, size, DT_TILE_FREE_DATA, 0, nullptr);
  if (dtStatusFailed(s)) {
    dtFree(data);
    return "navmesh: Detour refused a tile (" + detourStatusText(s) + ")";
  }
  ++tiles_;
  bytes_ += static_cast<size_t>(size);
  polygons_ += reinterpret_cast<const dtMeshHeader*>(data)->polyCount;
  generation_ = nextGeneration();
  return "";
}

std::string NavMesh::attachTileCache(std::unique_ptr<NavTileCache> cache) {
  if (!mesh_) return "navmesh: attachTileCache before init";
  tile_cache_ = std::move(cache);
  std::string e = tile_cache_->buildAllTiles(*mesh_);
  recount();
  generation_ = nextGeneration();
  if (!e.empty()) *this = NavMesh();
  return e;
}

int NavMesh::updateTiles(int max_tile_rebuilds) {
  if (!tile_cache_ || !mesh_) return 0;
  const int rebuilt = tile_cache_->update(*mesh_, max_tile_rebuilds);
  if (rebuilt > 0) {
    recount();
    generation_ = nextGeneration();
  }
  return rebuilt;
}

void NavMesh::updateAllTiles() { updateTiles(std::numeric_limits<int>::max()); }

void NavMesh::restoreObstacles(std::span<const NavObstacleChange> held,
                               std::span<const NavObstacleChange> queued) {
  if (!tile_cache_ || !mesh_) return;
  tile_cache_->restore(*mesh_, held, queued);
  recount();
  generation_ = nextGeneration();
}

// After rebuilds: Detour's tile table is the truth (a rebuilt tile may have vanished).
void NavMesh::recount() {
  tiles_ = 0;
  polygons_ = 0;
  bytes_ = 0;
  const dtNavMesh& mesh = *mesh_;
  for (int i = 0; i < mesh.getMaxTiles(); ++i) {
    const dtMeshTile* tile = mesh.getTile(i);
    if (!tile || !tile->header) continue;
    ++tiles_;
    polygons_ += tile->header->polyCount;
    bytes_ += static_cast<size_t>(tile->dataSize);
  }
}

}  // namespace npc::nav
