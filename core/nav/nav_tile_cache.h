// NavTileCache: Detour's tile cache (dtTileCache) beside a NavMesh built from level geometry,
// so obstacle boxes can be added, moved and removed after start-up. Each tile keeps its
// heightfield layers (built once by NavTileCacheBuilder); an obstacle change marks the boxes
// on the layers of the tiles it touches and rebuilds those tiles' polygons from them, a tile
// at a time, on the budget of `update`.
//
// Obstacles: keyed by the world's ObstacleId. A box is padded by the agent radius on the
// ground plane (as walls are, by erosion) and lowered by a climb (an agent standing under its
// base is inside it), then cut along tile columns into pieces: Detour's obstacle touches at
// most 8 tile layers, so a piece spans one column (two to four on a cut edge). Every piece
// takes one of `max_obstacles` slots; an upsert needing more than are free is refused.
//
// Work: changes are queued (a change of an id replaces its queued, not yet sent pieces) and
// sent to Detour in batches of kRequestsPerBatch pieces once the previous batch's tiles are
// rebuilt, which keeps Detour's 64-tile update list from overflowing (it drops tiles beyond).
// `update(mesh, max_steps)` makes at most max_steps calls of dtTileCache::update, each
// rebuilding at most one tile layer (and scanning the max_obstacles slots).
// Determinism: requests go out in the order the changes came; same changes, same mesh.
// Memory: memoryBytes() — the layers (stored uncompressed: a byte each of height, area and
// connections per cell) plus the obstacle and tile tables.
// Thread: tick thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "world/ids.h"
#include "world/vec3.h"

class dtTileCache;
class dtNavMesh;

namespace npc::nav {

struct NavTileCacheParams {
  float origin[3] = {0, 0, 0};  // Recast coordinates: the tile grid's minimum corner
  float cell_size_m = 0.3f, cell_height_m = 0.2f;
  int tile_size_cells = 64;     // [16, 255] (the layer header holds a byte)
  int tiles_x = 1, tiles_y = 1;
  float agent_height_m = 1.8f, agent_radius_m = 0.4f, agent_climb_m = 0.4f;
  int max_layers = 1;           // tile layers the cache holds
  int max_obstacles = 4096;     // obstacle pieces, [1, 65535]
};

class NavTileCache {
 public:
  static constexpr int kRequestsPerBatch = 8;  // x 8 touched layers = Detour's 64-tile list

  NavTileCache();
  ~NavTileCache();
  NavTileCache(const NavTileCache&) = delete;
  NavTileCache& operator=(const NavTileCache&) = delete;

  // Returns "" or why Detour refused the parameters.
  std::string init(const NavTileCacheParams& params);
  // Adds one layer built by dtBuildTileCacheLayer; the cache takes `data` in every case.
  std::string addLayer(unsigned char* data, int size);
  // Builds every navmesh tile from its layers (start-up). Returns "" or the first error.
  std::string buildAllTiles(dtNavMesh& mesh);

  // Queues `box` (world coordinates) as obstacle `id`, replacing its previous box. Returns ""
  // or why it is refused (more pieces than free slots); a refused box leaves `id` as it was.
  std::string upsert(ObstacleId id, const Aabb& box);
  // Queues the removal of `id`; false when the cache does not hold it.
  bool remove(ObstacleId id);
  // Sends queued changes and rebuilds touched tiles: at most `max_steps` tile rebuilds.
  // Returns the steps taken (0: nothing was pending).
  int update(dtNavMesh& mesh, int max_steps);

  bool upToDate() const { return idle_ && queue_.empty(); }
  size_t queuedPieces() const { return queue_.size(); }
  int slotsClaimed() const { return claimed_; }
  uint64_t failedRebuilds() const { return failed_rebuilds_; }
  size_t memoryBytes() const;

 private:
  struct Piece {
    float bmin[3], bmax[3];  // Recast coordinates
  };
  struct Request {
    ObstacleId id;
    bool add = false;
    unsigned int ref = 0;  // the piece to remove (add: assigned when sent)
    Piece piece{};
  };
  struct Placed {
    Aabb box;
    int pieces = 0;                  // claimed slots (sent or queued)
    std::vector<unsigned int> refs;  // pieces Detour holds
  };
  struct Parts;  // Detour's allocator, compressor and mesh process (nav_tile_cache.cpp)

  void cutIntoPieces(const Aabb& box, std::vector<Piece>& out) const;
  void queueRemovalOf(ObstacleId id, Placed& placed);
  bool sendBatch();

  NavTileCacheParams params_;
  std::unique_ptr<Parts> parts_;  // before cache_: Detour holds pointers into it
  std::unique_ptr<dtTileCache, void (*)(dtTileCache*)> cache_;
  std::map<ObstacleId, Placed> obstacles_;
  std::deque<Request> queue_;
  bool idle_ = true;  // Detour has no request or tile rebuild in progress
  int claimed_ = 0;
  size_t layer_bytes_ = 0;
  uint64_t failed_rebuilds_ = 0;
};

}  // namespace npc::nav
