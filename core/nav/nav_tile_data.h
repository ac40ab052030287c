// Checks one Detour tile's data (dtMeshHeader followed by its arrays, DT_NAVMESH_VERSION 7)
// before dtNavMesh::addTile sees it. Detour trusts tile data: it reads the arrays at the
// sizes the header claims and follows every index without bounds checks, so a file from
// outside must be checked here first. What is checked:
//   - magic "DNAV" and version 7; every count >= 0 and the arrays fill exactly `size` bytes
//     (each array 4-byte aligned, in Detour's order: verts, polys, links, detail meshes,
//     detail verts, detail tris, BV nodes, off-mesh connections);
//   - polygons: 3..6 vertices, each < vertCount; convex; internal neighbours < polyCount
//     that share the edge back (Detour's raycast follows links with no step limit); type
//     ground or off-mesh; at least one link slot; at most the mesh's maxPolys polygons;
//   - detail meshes within the detail vertex and triangle arrays, triangle corners within
//     their polygon's vertices + detail vertices, at least one boundary edge marked; BV leaves < polyCount, escapes inside the
//     tree; off-mesh connections on off-mesh polygons; every float finite and within
//     ±kMaxNavCoordM; the tile's bounds in its own cell of the mesh's grid (half a tile of
//     slack for the build border) and its vertices within its bounds (1 m of slack).
// Returns "" or the first problem with its byte offset within the tile, e.g.
// "byte 152: polygon 3: vertex 9 >= vertCount 8".
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

struct dtNavMeshParams;

namespace npc::nav {

// Coordinates (Recast's, metres) beyond this are refused: npc's world bounds are far smaller,
// and Detour's float arithmetic on tile positions breaks down long before 3.4e38.
inline constexpr float kMaxNavCoordM = 1e7f;

// `mesh`: the parameters of the mesh the tile goes into (its grid and polygon limit).
std::string validateTileData(const uint8_t* data, size_t size, const dtNavMeshParams& mesh);

}  // namespace npc::nav
