// Navmesh files: a tiled Detour navmesh as a game's pipeline exports it, in the "MSET"
// layout of Recast's own toolchain (RecastDemo's Sample_TileMesh save/load), little-endian,
// Y up (nav_coords.h):
//
//   offset  size  field
//   0       4     magic    'MSET' as int32 ('M'<<24 | 'S'<<16 | 'E'<<8 | 'T')
//   4       4     version  1
//   8       4     numTiles [0, maxTiles]
//   12      28    dtNavMeshParams: orig[3] float, tileWidth, tileHeight float (> 0),
//                 maxTiles int32 [1, 65536], maxPolys int32 [1, 2^22] per tile
//   40      ...   numTiles times: tileRef uint32 (ignored: tiles get fresh refs), dataSize
//                 int32 [1, 64 MiB], then dataSize bytes of Detour tile data (version 7,
//                 checked by validateTileData).
//
// Files are read whole (at most kMaxFileBytes). Every problem is refused with the file name
// and the byte offset, e.g. "village.navmesh: byte 4: version 2, expected 1" or
// "village.navmesh: byte 48: tile 0: byte 152: polygon 3: vertex 9 >= vertCount 8";
// nothing of a refused file is kept.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace npc::nav {

class NavMesh;

inline constexpr size_t kMaxNavMeshFileBytes = size_t{512} << 20;

// Parses file contents; `name` is used in messages. Returns "" or the error.
std::string parseNavMeshFile(const std::string& name, std::span<const uint8_t> bytes, NavMesh& out);
// Reads and parses a file.
std::string loadNavMeshFile(const std::string& path, NavMesh& out);
// The MSET bytes of a mesh (its tiles in tile-slot order): what loadNavMeshFile reads back.
std::vector<uint8_t> saveNavMeshFile(const NavMesh& mesh);

}  // namespace npc::nav
