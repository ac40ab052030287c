// NavReachability: the planner's Reachability hook (core/goap/smart_objects.h) answered by
// the world's navmesh (core/nav): an object is reachable when a path joins the agent's and
// the object's points on the mesh; travel is priced by the path's length. Queries go
// through a PathCostCache, so re-pricing the same walk costs a hash lookup.
//
// Off the mesh (no polygon within the query's snap extents: a player on a roof) is
// unreachable. A search that hits its node limit is no evidence either way: reachable, and
// priced by the straight line.
// Thread: the thread that owns its query (the query's node pool is not shared): the tick
// thread's, or a pool worker's own (SimNavigation::reachabilityFor).
#pragma once

#include "goap/smart_objects.h"

namespace npc {

namespace nav {
class NavQuery;
class PathCostCache;
struct NavPath;
}  // namespace nav

class NavReachability : public goap::Reachability {
 public:
  NavReachability(nav::NavQuery& query, nav::PathCostCache& cache) : query_(&query), cache_(&cache) {}

  bool reachable(Vec3 from, Vec3 to) const override;
  float travelDistance(Vec3 from, Vec3 to) const override;

 private:
  nav::NavQuery* query_;
  nav::PathCostCache* cache_;
};

}  // namespace npc
