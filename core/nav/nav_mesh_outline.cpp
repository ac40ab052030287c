#include "nav/nav_mesh_outline.h"

#include <algorithm>

#include <DetourNavMesh.h>

#include "nav/nav_coords.h"

namespace npc::nav {
namespace {

bool overlaps(const std::vector<Vec3>& corners, const Aabb& view) {
  Vec3 lo = corners.front(), hi = corners.front();
  for (const Vec3& c : corners) {
    lo = {std::min(lo.x, c.x), std::min(lo.y, c.y), 0.f};
    hi = {std::max(hi.x, c.x), std::max(hi.y, c.y), 0.f};
  }
  return lo.x <= view.max.x && hi.x >= view.min.x && lo.y <= view.max.y && hi.y >= view.min.y;
}

}  // namespace

NavPolygonOutlines outlinePolygons(const NavMesh& mesh, const std::optional<Aabb>& viewport, size_t max) {
  NavPolygonOutlines out;
  const dtNavMesh* detour = mesh.detour();
  if (!detour) return out;
  std::vector<Vec3> corners;
  for (int t = 0; t < detour->getMaxTiles(); ++t) {
    const dtMeshTile* tile = detour->getTile(t);
    if (!tile || !tile->header) continue;
    for (int p = 0; p < tile->header->polyCount; ++p) {
      const dtPoly& poly = tile->polys[p];
      if (poly.getType() == DT_POLYTYPE_OFFMESH_CONNECTION) continue;
      corners.clear();
      for (int v = 0; v < poly.vertCount; ++v) corners.push_back(fromRecast(&tile->verts[poly.verts[v] * 3]));
      if (corners.empty() || (viewport && !overlaps(corners, *viewport))) continue;
      if (out.matched++ < max) out.polygons.push_back(corners);
    }
  }
  return out;
}

}  // namespace npc::nav
