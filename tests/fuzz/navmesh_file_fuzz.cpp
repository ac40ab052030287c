// Navmesh files (core/nav/nav_mesh_file.h, the MSET layout): parsed, every tile checked; a
// mesh that loads is queried (nearest point, path, raycast) between points across its bounds.
#include <DetourNavMesh.h>

#include <cstdint>
#include <span>

#include "nav/nav_mesh.h"
#include "nav/nav_mesh_file.h"
#include "nav/nav_query.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  npc::nav::NavMesh mesh;
  if (!npc::nav::parseNavMeshFile("fuzz.navmesh", std::span(data, size), mesh).empty()) return 0;
  if (mesh.empty()) return 0;
  const dtNavMeshParams* p = mesh.detour()->getParams();
  npc::nav::NavQuery query(mesh);
  // World coordinates of the mesh's first tiles (Recast (x, y, z) is world (x, -z, y)).
  const float w = p->tileWidth, h = p->tileHeight;
  const npc::Vec3 a{p->orig[0] + 0.25f * w, -(p->orig[2] + 0.25f * h), p->orig[1]};
  const npc::Vec3 b{p->orig[0] + 1.75f * w, -(p->orig[2] + 1.75f * h), p->orig[1]};
  npc::nav::NavPoint np;
  query.nearestPoint(a, np);
  query.path(a, b);
  query.path(b, a);
  query.raycast(a, b);
  return 0;
}
