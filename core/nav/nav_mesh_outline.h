// The navmesh's walkable polygons as outlines in world coordinates, for drawing (the debug
// page's map): what Recast's debug draw shows, without its renderer.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "nav/nav_mesh.h"
#include "world/vec3.h"

namespace npc::nav {

struct NavPolygonOutlines {
  std::vector<std::vector<Vec3>> polygons;  // each convex, its corners in order (world, Z up)
  size_t matched = 0;                       // polygons in view, listed or not
};

// The ground polygons of `mesh` whose bounds overlap `viewport` on x/y (all without one),
// at most `max` of them, in tile then polygon order. Off-mesh links are not polygons.
NavPolygonOutlines outlinePolygons(const NavMesh& mesh, const std::optional<Aabb>& viewport, size_t max);

}  // namespace npc::nav
