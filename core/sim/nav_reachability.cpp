#include "sim/nav_reachability.h"

#include <algorithm>

#include "goap/goap_types.h"
#include "nav/path_cost_cache.h"

namespace npc {

bool NavReachability::reachable(Vec3 from, Vec3 to) const {
  const nav::NavResult r = cache_->path(*query_, from, to).result;
  return r == nav::NavResult::kOk || r == nav::NavResult::kSearchLimit;
}

float NavReachability::travelDistance(Vec3 from, Vec3 to) const {
  const nav::NavPath p = cache_->path(*query_, from, to);
  const float straight = length(to - from);
  switch (p.result) {
    case nav::NavResult::kOk: return std::max(p.length_m, straight);
    case nav::NavResult::kOffMesh:
    case nav::NavResult::kUnreachable: return goap::kInfiniteCost;
    case nav::NavResult::kSearchLimit:
    case nav::NavResult::kNoMesh: return straight;
  }
  return straight;
}

}  // namespace npc
