// NavMesh: owns one tiled Detour navmesh (dtNavMesh) and its tile data, however it was made
// (NavMeshBuilder from level geometry, or loadNavMeshFile from a game's export).
//
// Coordinates inside are Recast's (Y up, nav_coords.h); NavQuery converts at its boundary.
// `generation()` changes with every change of the mesh (a tile added), so caches of
// query results (PathCostCache) know when they are stale.
// Memory: the tile data (memoryBytes()) plus Detour's tile table (≈ 100 B per tile slot).
// Thread: owned by the tick thread; Detour itself is not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

struct dtNavMeshParams;
class dtNavMesh;

namespace npc::nav {

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

  bool empty() const { return tiles_ == 0; }
  const dtNavMesh* detour() const { return mesh_.get(); }
  uint32_t generation() const { return generation_; }
  int tileCount() const { return tiles_; }
  size_t memoryBytes() const { return bytes_; }

 private:
  struct Free {
    void operator()(dtNavMesh* m) const;
  };
  std::unique_ptr<dtNavMesh, Free> mesh_;
  uint32_t generation_ = 0;
  int tiles_ = 0;
  size_t bytes_ = 0;
};

}  // namespace npc::nav
