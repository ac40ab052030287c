// The simulation's navigation state (core/nav): the world's navmesh, the query the tick
// shares, the cache of path costs and the planner's Reachability over them. Internal to
// core/sim; Simulation holds it behind a pointer, null when the world has no navmesh.
// What uses it: planning (smart-object pruning, travel costs), MoveTo intentions (targets
// snapped to the mesh, unreachable ones failed, long ones searched on over ticks) and
// behavior trees (<CanReach>, QueryTPS).
// Thread: tick thread; trees on the pool's workers use treesFor(worker).
#pragma once

#include <array>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "nav/nav_config.h"
#include "nav/nav_mesh.h"
#include "nav/nav_query.h"
#include "nav/path_cost_cache.h"
#include "nav/sliced_path_queue.h"
#include "sim/nav_reachability.h"
#include "sim/tree_navigation.h"

namespace npc {

struct SimNavigation {
  SimNavigation(nav::NavMesh built, const nav::NavConfig& config)
      : mesh(std::move(built)),
        query(mesh, config.query),
        long_searches(mesh, config.query, config.long_search),
        reachability(query, cache),
        trees(query, cache),
        max_tile_rebuilds_per_tick(config.max_tile_rebuilds_per_tick) {}

  nav::NavMesh mesh;
  nav::NavQuery query;
  nav::PathCostCache cache;
  // MoveTo checks the query gave up on (search_limit), searched on a slice per tick
  // (Simulation::searchLongPaths): key = agent, tag = the MoveTo's intention.
  nav::SlicedPathQueue long_searches;
  std::vector<nav::SlicedPathAnswer> long_answers;  // one tick's, capacity kept
  uint64_t long_searches_done = 0;
  uint64_t long_searches_refused = 0;  // the queue was full: the MoveTo went out unchecked
  NavReachability reachability;
  TreeNavigation trees;  // MbtHost::walkTo / placeOnGround, on the tick thread
  // Trees ticking on the pool's workers 1.. ask their own query and cache (worker 0 is the
  // tick thread and asks `trees`). A cache hit is what the query would answer, so which
  // worker asked never changes an answer.
  // Plan searches on worker w ask its reachability, over the same query and cache.
  struct WorkerTrees {
    WorkerTrees(const nav::NavMesh& mesh, const nav::NavQueryLimits& limits)
        : query(mesh, limits), trees(query, cache), reachability(query, cache) {}
    nav::NavQuery query;
    nav::PathCostCache cache;
    TreeNavigation trees;
    NavReachability reachability;
  };
  std::vector<std::unique_ptr<WorkerTrees>> worker_trees;  // [w - 1]: worker w's
  void reserveWorkers(unsigned workers) {
    while (worker_trees.size() + 1 < workers) {
      worker_trees.push_back(std::make_unique<WorkerTrees>(mesh, query.limits()));
    }
  }
  TreeNavigation& treesFor(unsigned worker) {
    return worker == 0 ? trees : worker_trees[worker - 1]->trees;
  }
  const NavReachability& reachabilityFor(unsigned worker) const {
    return worker == 0 ? reachability : worker_trees[worker - 1]->reachability;
  }
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
    IntentionId intention = IntentionId::kNone;  // the MoveTo checked
    // search_limit, then: waiting for a long search, or answered by one (result, length
    // and corners are then its answer; `searched_s` when it came).
    enum class LongSearch : uint8_t { kNone, kWaiting, kRefused, kDone } long_search = LongSearch::kNone;
    double searched_s = 0.0;
    int search_iterations = 0;
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
