#include "nav/path_cost_cache.h"

#include <bit>

#include <DetourNavMesh.h>

#include "nav/nav_mesh.h"

namespace npc::nav {
namespace {

bool sameBits(Vec3 a, Vec3 b) {
  return std::bit_cast<uint32_t>(a.x) == std::bit_cast<uint32_t>(b.x) &&
         std::bit_cast<uint32_t>(a.y) == std::bit_cast<uint32_t>(b.y) &&
         std::bit_cast<uint32_t>(a.z) == std::bit_cast<uint32_t>(b.z);
}

uint32_t slotOf(Vec3 from, Vec3 to) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a over the six coordinates' bits
  for (float f : {from.x, from.y, from.z, to.x, to.y, to.z}) {
    h ^= std::bit_cast<uint32_t>(f);
    h *= 1099511628211ull;
  }
  return static_cast<uint32_t>(h ^ (h >> 32)) % PathCostCache::kEntries;
}

}  // namespace

PathCostCache::PathCostCache() : entries_(kEntries) {}

NavPath PathCostCache::path(NavQuery& query, Vec3 from, Vec3 to) {
  if (query.mesh().generation() != generation_) {
    clear();
    generation_ = query.mesh().generation();
  }
  Entry& e = entries_[slotOf(from, to)];
  if (e.used && sameBits(e.from, from) && sameBits(e.to, to)) {
    ++hits_;
    NavPath p;
    p.result = e.result;
    p.length_m = e.length_m;
    p.start.poly = e.start_poly;
    p.end.poly = e.end_poly;
    return p;
  }
  ++misses_;
  const NavPath p = query.path(from, to);
  e = {from, to, p.start.poly, p.end.poly, p.length_m, p.result, true};
  return p;
}

void PathCostCache::invalidateTileOf(const NavMesh& mesh, uint32_t poly) {
  const dtNavMesh* m = mesh.detour();
  if (!m) return clear();
  const unsigned tile = m->decodePolyIdTile(poly);
  for (Entry& e : entries_) {
    if (e.used && (m->decodePolyIdTile(e.start_poly) == tile || m->decodePolyIdTile(e.end_poly) == tile))
      e.used = false;
  }
}

void PathCostCache::clear() {
  for (Entry& e : entries_) e.used = false;
}

}  // namespace npc::nav
