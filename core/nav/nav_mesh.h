// NavMesh: owns one tiled Detour navmesh (dtNavMesh) and its tile data, however it was made
// (NavMeshBuilder from level geometry, or loadNavMeshFile from a game's export).
//
// Coordinates inside are Recast's (Y up, nav_coords.h); NavQuery converts at its boundary.
// `generation()` changes with every change of the mesh (a tile added, tiles rebuilt), so
// caches of query results (PathCostCache) know when they are stale.
// A mesh built with a tile cache (NavTileCacheBuilder) follows obstacle changes: they are
// queued on the cache and `updateTiles` rebuilds the tiles they touch, a budget at a time.
// A mesh without one (loaded from a file, or built with fixed blockers) never changes.
// Memory: the tile data (memoryBytes()) plus Detour's tile table (≈ 100 B per tile slot),
// plus the tile cache's (tileCache()->memoryBytes()).
// Thread: owned by the tick thread; Detour itself is not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "nav/nav_obstacle_change.h"

struct dtNavMeshParams;
class dtNavMesh;

namespace npc::nav {

class NavTileCache;

class NavMesh {
 public:
  NavMesh();
  ~NavMesh();
  NavMesh(NavMesh&&) noexcept;
  NavMesh& operator=(NavMesh&&) noexcept;

  // Starts an empty tiled mesh. Returns "" or why Detour refused the parameters.
  std::string init(const dtNavMeshParams& params);
  // Adds one tile. The mesh takes `data` (allocated with dtAlloc) in every case. The data
  // must be valid (built by Detour, or checked by validateTileData). Returns "" or the error.
  std::string addTile(unsigned char* data, int size);

  // Keeps `cache` beside the mesh and builds every tile from its layers. Returns "" or the
  // error (the mesh is then empty).
  std::string attachTileCache(std::unique_ptr<NavTileCache> cache);
  NavTileCache* tileCache() { return tile_cache_.get(); }
  const NavTileCache* tileCache() const { return tile_cache_.get(); }
  // Applies queued obstacle changes until `max_tile_rebuilds` tile layers were rebuilt (see
  // NavTileCache::update). A new generation when any was. Returns the layers rebuilt; 0
  // without a tile cache.
  int updateTiles(int max_tile_rebuilds);
  // Every queued change applied, whatever it costs (start-up).
  void updateAllTiles();
  // The tile cache's obstacles as a snapshot captured them (NavTileCache::restore); a new
  // generation. Nothing without a tile cache.
  void restoreObstacles(std::span<const NavObstacleChange> held,
                        std::span<const NavObstacleChange> queued);

  bool empty() const { return tiles_ == 0; }
  const dtNavMesh* detour() const { return mesh_.get(); }
  uint32_t generation() const { return generation_; }
  int tileCount() const { return tiles_; }
  int polygonCount() const { return polygons_; }
  size_t memoryBytes() const { return bytes_; }

 private:
  struct Free {
    void operator()(dtNavMesh* m) const;
  };
  std::unique_ptr<dtNavMesh, Free> mesh_;
  void recount();

  std::unique_ptr<NavTileCache> tile_cache_;  // after mesh_: freed first
  uint32_t generation_ = 0;
  int tiles_ = 0;
  int polygons_ = 0;
  size_t bytes_ = 0;
};

}  // namespace npc::nav
