#include "sim/tree_navigation.h"

#include "nav/nav_query.h"
#include "nav/path_cost_cache.h"

namespace npc {

MbtWalk TreeNavigation::walk(Vec3 from, Vec3 to) const {
  const nav::NavPath p = cache_->path(*query_, from, to);
  switch (p.result) {
    case nav::NavResult::kOk: return {true, p.length_m};
    case nav::NavResult::kOffMesh:
    case nav::NavResult::kUnreachable: return {false, 0.f};
    case nav::NavResult::kSearchLimit:
    case nav::NavResult::kNoMesh: break;
  }
  return {true, length(to - from)};
}

bool TreeNavigation::placeOnGround(Vec3 from, Vec3& point) const {
  nav::NavPoint on_mesh;
  if (query_->nearestPoint(point, on_mesh) != nav::NavResult::kOk) return false;
  // Walk to the snapped point, so the answer (and the cache entry) is the walk a Move to
  // that point will be checked against.
  if (!walk(from, on_mesh.position).reachable) return false;
  point = on_mesh.position;
  return true;
}

}  // namespace npc
