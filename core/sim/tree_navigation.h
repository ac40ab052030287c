// TreeNavigation: the behavior trees' questions to the world's navmesh (core/nav), behind
// MbtHost::walkTo and MbtHost::placeOnGround (core/mbt/host.h): can the agent walk to a
// point and how far (<CanReach>, entity:CanReachTarget), and where on the ground it can
// walk to is a point (QueryTPS candidates). The planner's NavReachability asks the same
// mesh the same way, so a tree and a plan never disagree about a walk: off the mesh or no
// path is unreachable, a search cut short by its limits is no evidence (reachable, priced
// by the straight line). Walks go through the shared PathCostCache.
// Thread: the one that owns its query and cache (the tick thread, or one worker of the
// tick's pool: SimNavigation::treesFor).
#pragma once

#include "mbt/host.h"
#include "world/vec3.h"

namespace npc {

namespace nav {
class NavQuery;
class PathCostCache;
}  // namespace nav

class TreeNavigation {
 public:
  TreeNavigation(nav::NavQuery& query, nav::PathCostCache& cache) : query_(&query), cache_(&cache) {}

  MbtWalk walk(Vec3 from, Vec3 to) const;
  // `point` snapped to the nearest point on the mesh when a walk from `from` reaches it;
  // false (point unchanged) when it is off the mesh or cut off from `from`.
  bool placeOnGround(Vec3 from, Vec3& point) const;

 private:
  nav::NavQuery* query_;
  nav::PathCostCache* cache_;
};

}  // namespace npc
