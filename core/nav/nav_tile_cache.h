// NavTileCache: Detour's tile cache (dtTileCache) beside a NavMesh built from level geometry,
// so obstacle boxes can be added, moved and removed after start-up. Each tile keeps its
// heightfield layers (built once by NavTileCacheBuilder); an obstacle change marks the boxes
// on the layers of the tiles it touches and rebuilds those tiles' polygons from them.
//
// Obstacles: keyed by the world's ObstacleId. A box is padded by the agent radius on the
// ground plane (as walls are, by erosion) and lowered by a climb (an agent standing under its
// base is inside it), then cut along tile columns into pieces: Detour's obstacle touches at
// most 8 tile layers, so a piece spans one column (two to four on a cut edge). Every piece
// takes one of `max_obstacles` slots; an upsert that could need more than are free is refused,
// and so is a box over more than `max_pieces_per_obstacle` columns (its change would rebuild
// them all in one tick).
//
// Work: changes wait in a queue, one per obstacle (a later change of the same id replaces
// the waiting one in its place). `update` applies them in order, each one whole: all the
// tiles a change touches are rebuilt before the next change starts, and a change that
// starts always finishes, so between two calls the mesh shows exactly the held boxes
// (`held()`), whatever the budget. That is what makes the state durable: `held()` and
// `queued()` are all a snapshot needs, and `restore` rebuilds the same mesh from them.
// Cost: a change rebuilds every tile layer its padded box covers (one or two for a door or
// a cart, at 19.2 m tiles), twice when it moves (old place, new place); see README.md.
// Memory: memoryBytes() — the layers (a byte each of height, area and connections per cell,
// kept deflated: NavLayerCompressor) plus the obstacle and tile tables.
// Thread: tick thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "nav/nav_obstacle_change.h"
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
  int max_pieces_per_obstacle = 32;  // tile columns one box may cover (NavBuildConfig)
};

class NavTileCache {
 public:
  // Pieces sent to Detour before its tiles are rebuilt: x 8 touched layers each fills
  // Detour's 64-tile update list, which silently drops tiles beyond it.
  static constexpr int kPiecesPerBatch = 8;

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

  // Queues `box` (world coordinates) as obstacle `id`'s. Returns "" or why it is refused
  // (more pieces than free slots); a refused box leaves `id` as it was.
  std::string upsert(ObstacleId id, const Aabb& box);
  // Queues the removal of `id`; false when the cache neither holds nor awaits it.
  bool remove(ObstacleId id);
  // Applies queued changes, whole and in order, until `max_tile_rebuilds` tile layers have
  // been rebuilt (the change that reaches it finishes). Returns the tile layers rebuilt.
  int update(dtNavMesh& mesh, int max_tile_rebuilds);
  bool upToDate() const { return queue_.empty(); }

  // The durable state: the boxes the mesh shows, by id, and the changes waiting, in order.
  std::vector<NavObstacleChange> held() const;
  std::vector<NavObstacleChange> queued() const { return {queue_.begin(), queue_.end()}; }
  // Replaces every obstacle: `held` applied at once (no budget), `queued` waiting in order.
  // Used by a restore, so that the mesh and its queue are as they were captured.
  void restore(dtNavMesh& mesh, std::span<const NavObstacleChange> held,
               std::span<const NavObstacleChange> queued);

  size_t queuedChanges() const { return queue_.size(); }
  int slotsClaimed() const { return claimed_; }
  // Pieces Detour refused or tiles it failed to rebuild (none expected: the slots are
  // counted before a change is queued).
  uint64_t failures() const { return failures_; }
  size_t memoryBytes() const;

 private:
  struct Piece {
    float bmin[3], bmax[3];  // Recast coordinates
  };
  struct Tracked {
    bool held = false;                     // the mesh shows held_box (maybe off the mesh)
    Aabb held_box{};
    std::vector<unsigned int> refs;        // the pieces Detour holds
    bool queued = false;                   // a change waits in queue_
    int queued_pieces = 0;                 // its pieces (0: a removal)
  };
  struct Parts;  // Detour's allocator, compressor and mesh process (nav_tile_cache.cpp)

  void cutIntoPieces(const Aabb& box, std::vector<Piece>& out) const;
  // Slots an obstacle may use until its queued change is applied: the old pieces are
  // removed before the new ones are added, so the larger of the two.
  static int claimOf(const Tracked& t);
  NavObstacleChange* queuedChangeOf(ObstacleId id);
  void enqueue(ObstacleId id, Tracked& t, const NavObstacleChange& change, int pieces);
  int apply(const NavObstacleChange& change, dtNavMesh& mesh);
  int removePieces(Tracked& t, dtNavMesh& mesh);
  int addPieces(const Aabb& box, Tracked& t, dtNavMesh& mesh);
  int settle(dtNavMesh& mesh);

  NavTileCacheParams params_;
  std::unique_ptr<Parts> parts_;  // before cache_: Detour holds pointers into it
  std::unique_ptr<dtTileCache, void (*)(dtTileCache*)> cache_;
  std::map<ObstacleId, Tracked> obstacles_;
  std::deque<NavObstacleChange> queue_;
  std::vector<Piece> pieces_;  // scratch
  int claimed_ = 0;
  size_t layer_bytes_ = 0;
  uint64_t failures_ = 0;
};

}  // namespace npc::nav
