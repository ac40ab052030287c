// PathCostCache: the answers of recent path queries, so a planner that prices the same walks
// again (every search node re-prices travel between the same few locations; agents re-plan
// from where they stand) asks Detour once.
//
// Keyed by the exact endpoints (their float bits) — a hit returns exactly what the query
// would, so results never depend on the cache — and each entry records its polygon pair,
// the endpoints' polygons, for invalidating by tile when the mesh changes locally. A change of
// the whole mesh (its generation) empties the cache on the next lookup.
// Direct-mapped, kEntries slots (≈ 40 B each), fixed at construction: a lookup allocates
// nothing; a colliding insert replaces the older entry. Counters say how often it helped.
// Thread: its owner's (the tick thread's, or one pool worker's, with that worker's query).
#pragma once

#include <cstdint>
#include <vector>

#include "nav/nav_query.h"

namespace npc::nav {

class PathCostCache {
 public:
  static constexpr uint32_t kEntries = 4096;

  PathCostCache();

  // The path from `from` to `to` on query's mesh: cached, or asked now and remembered.
  NavPath path(NavQuery& query, Vec3 from, Vec3 to);
  // Forgets every entry whose start or end polygon lies in the tile of `poly` (any polygon
  // ref of that tile in `mesh`): what a tile rebuild calls.
  void invalidateTileOf(const NavMesh& mesh, uint32_t poly);
  void clear();

  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }

 private:
  struct Entry {
    Vec3 from, to;
    uint32_t start_poly = 0, end_poly = 0;
    float length_m = 0.f;
    NavResult result = NavResult::kNoMesh;
    bool used = false;
  };
  std::vector<Entry> entries_;
  uint32_t generation_ = 0;
  uint64_t hits_ = 0, misses_ = 0;
};

}  // namespace npc::nav
