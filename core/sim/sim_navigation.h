// The simulation's navigation state (core/nav): the world's navmesh, the query the tick
// shares, the cache of path costs and the planner's Reachability over them. Internal to
// core/sim; Simulation holds it behind a pointer, null when the world has no navmesh.
// What uses it: planning (smart-object pruning, travel costs), MoveTo intentions (targets
// snapped to the mesh, unreachable ones failed) and behavior trees (<CanReach>, QueryTPS).
// Thread: tick thread.
#pragma once

#include <array>
#include <map>
#include <string>
#include <vector>

#include "nav/nav_mesh.h"
#include "nav/nav_query.h"
#include "nav/path_cost_cache.h"
#include "sim/nav_reachability.h"
#include "sim/tree_navigation.h"

namespace npc {

struct SimNavigation {
  SimNavigation(nav::NavMesh built, const nav::NavQueryLimits& limits, int max_tile_rebuilds_per_tick)
      : mesh(std::move(built)),
        query(mesh, limits),
        reachability(query, cache),
        trees(query, cache),
        max_tile_rebuilds_per_tick(max_tile_rebuilds_per_tick) {}

  nav::NavMesh mesh;
  nav::NavQuery query;
  nav::PathCostCache cache;
  NavReachability reachability;
  TreeNavigation trees;  // MbtHost::walkTo / placeOnGround
  // Obstacle changes: tile layers rebuilt per tick at most (mesh.updateTiles), and changes a
  // mesh without a tile cache (a file's) could not follow.
  int max_tile_rebuilds_per_tick = 4;
  uint64_t ignored_obstacle_changes = 0;
  uint64_t tile_rebuilds = 0;  // by the ticks (SimStats::nav_tile_rebuilds)
  // Each agent's last MoveTo check, for GetAgent ("navigation"). Pruned of departed agents
  // when it outgrows the agent count.
  struct LastPath {
    Vec3 from, to, snapped;
    nav::NavResult result = nav::NavResult::kNoMesh;
    float length_m = 0.f;
    double time_s = 0.0;
    // The path's corners (string-pulled), for drawing: the first kMaxCorners of them.
    static constexpr size_t kMaxCorners = 16;
    std::array<Vec3, kMaxCorners> corners{};
    uint8_t corner_count = 0;
  };
  std::map<EntityId, LastPath> last_paths;
  // MoveTos refused this flush, failed after it as a client failure with `reason`.
  struct Refused {
    EntityId agent;
    IntentionId intention;
    std::string reason;
  };
  std::vector<Refused> refused;
};

}  // namespace npc
