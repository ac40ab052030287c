#include "nav/nav_mesh_file.h"

#include <DetourAlloc.h>
#include <DetourNavMesh.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "nav/nav_mesh.h"
#include "nav/nav_tile_data.h"

namespace npc::nav {
namespace {

constexpr int32_t kMagic = 'M' << 24 | 'S' << 16 | 'E' << 8 | 'T';
constexpr int32_t kVersion = 1;
constexpr size_t kHeaderBytes = 12 + sizeof(dtNavMeshParams);
constexpr int32_t kMaxTileBytes = 64 << 20;

int32_t readInt(const uint8_t* p) {
  int32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

// Writes at `at` and advances it (the caller sized `out`).
void put(std::vector<uint8_t>& out, size_t& at, const void* data, size_t size) {
  std::memcpy(out.data() + at, data, size);
  at += size;
}

}  // namespace

std::string parseNavMeshFile(const std::string& name, std::span<const uint8_t> bytes, NavMesh& out) {
  static_assert(sizeof(dtNavMeshParams) == 28 && sizeof(dtTileRef) == 4,
                "the MSET layout assumes Detour's 32-bit polygon refs");
  out = NavMesh();
  auto fail = [&](size_t offset, const std::string& message) {
    out = NavMesh();
    return name + ": byte " + std::to_string(offset) + ": " + message;
  };
  if (bytes.size() > kMaxNavMeshFileBytes)
    return fail(0, "file of " + std::to_string(bytes.size()) + " bytes, more than " +
                       std::to_string(kMaxNavMeshFileBytes));
  if (bytes.size() < kHeaderBytes)
    return fail(bytes.size(), "truncated: the header needs " + std::to_string(kHeaderBytes) +
                                  " bytes, the file has " + std::to_string(bytes.size()));
  if (readInt(&bytes[0]) != kMagic) return fail(0, "not a navmesh file (magic is not MSET)");
  if (const int32_t v = readInt(&bytes[4]); v != kVersion)
    return fail(4, "version " + std::to_string(v) + ", expected " + std::to_string(kVersion));
  const int32_t tiles = readInt(&bytes[8]);
  dtNavMeshParams params;
  std::memcpy(&params, &bytes[12], sizeof(params));
  for (int k = 0; k < 3; ++k)
    if (!(std::abs(params.orig[k]) <= kMaxNavCoordM))
      return fail(12 + 4 * size_t(k), "orig must be within +-" +
                                          std::to_string(static_cast<long>(kMaxNavCoordM)) + " m");
  if (!(params.tileWidth > 0 && params.tileWidth <= 1e5f))
    return fail(24, "tileWidth must be in (0, 100000] m");
  if (!(params.tileHeight > 0 && params.tileHeight <= 1e5f))
    return fail(28, "tileHeight must be in (0, 100000] m");
  if (params.maxTiles < 1 || params.maxTiles > 65536)
    return fail(32, "maxTiles " + std::to_string(params.maxTiles) + " must be in [1, 65536]");
  if (params.maxPolys < 1 || params.maxPolys > (1 << 22))
    return fail(36, "maxPolys " + std::to_string(params.maxPolys) + " must be in [1, 4194304]");
  if (tiles < 0 || tiles > params.maxTiles)
    return fail(8, "numTiles " + std::to_string(tiles) + " must be in [0, maxTiles " +
                       std::to_string(params.maxTiles) + "]");
  if (std::string e = out.init(params); !e.empty()) return fail(12, e);

  size_t at = kHeaderBytes;
  for (int32_t t = 0; t < tiles; ++t) {
    const std::string tile = "tile " + std::to_string(t) + ": ";
    if (bytes.size() - at < 8)
      return fail(at, tile + "truncated: the tile header needs 8 bytes, " +
                          std::to_string(bytes.size() - at) + " left");
    const int32_t size = readInt(&bytes[at + 4]);
    if (size < 1 || size > kMaxTileBytes)
      return fail(at + 4, tile + "dataSize " + std::to_string(size) + " must be in [1, " +
                              std::to_string(kMaxTileBytes) + "]");
    at += 8;
    if (bytes.size() - at < static_cast<size_t>(size))
      return fail(at, tile + "truncated: dataSize " + std::to_string(size) + ", " +
                          std::to_string(bytes.size() - at) + " bytes left");
    if (std::string e = validateTileData(&bytes[at], static_cast<size_t>(size), params);
        !e.empty())
      return fail(at, tile + e);
    auto* data = static_cast<unsigned char*>(dtAlloc(static_cast<size_t>(size), DT_ALLOC_PERM));
    if (!data) return fail(at, tile + "out of memory");
    std::memcpy(data, &bytes[at], static_cast<size_t>(size));
    if (std::string e = out.addTile(data, size); !e.empty()) return fail(at, tile + e);
    at += static_cast<size_t>(size);
  }
  if (at != bytes.size())
    return fail(at, std::to_string(bytes.size() - at) + " bytes after the last tile");
  return "";
}

std::string loadNavMeshFile(const std::string& path, NavMesh& out) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return path + ": cannot read";
  std::ifstream in(path, std::ios::binary);
  if (!in) return path + ": cannot read";
  std::vector<uint8_t> bytes;
  in.seekg(0, std::ios::end);
  const auto size = static_cast<size_t>(std::max<std::streamoff>(in.tellg(), 0));
  if (size > kMaxNavMeshFileBytes)
    return path + ": byte 0: file of " + std::to_string(size) + " bytes, more than " +
           std::to_string(kMaxNavMeshFileBytes);
  in.seekg(0);
  bytes.resize(size);
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size));
  if (!in) return path + ": cannot read";
  return parseNavMeshFile(path, bytes, out);
}

std::vector<uint8_t> saveNavMeshFile(const NavMesh& mesh) {
  const dtNavMesh* m = mesh.detour();
  if (!m) return {};
  std::vector<uint8_t> out(kHeaderBytes + mesh.tileCount() * size_t{8} + mesh.memoryBytes());
  size_t at = 0;
  const int32_t header[3] = {kMagic, kVersion, mesh.tileCount()};
  put(out, at, header, sizeof(header));
  put(out, at, m->getParams(), sizeof(dtNavMeshParams));
  for (int i = 0; i < m->getMaxTiles(); ++i) {
    const dtMeshTile* tile = m->getTile(i);
    if (!tile || !tile->header || !tile->dataSize) continue;
    const int32_t tile_header[2] = {static_cast<int32_t>(m->getTileRef(tile)), tile->dataSize};
    put(out, at, tile_header, sizeof(tile_header));
    put(out, at, tile->data, static_cast<size_t>(tile->dataSize));
  }
  return out;
}

}  // namespace npc::nav
