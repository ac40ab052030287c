// validateTileData (core/nav/nav_tile_data.h): Detour tile data whose counts or indices
// would send dtNavMesh::addTile or a query outside its arrays is refused, with the offset.
#include <DetourNavMesh.h>

#include <cstddef>
#include <cstring>

#include <catch2/catch.hpp>

#include "nav/nav_mesh_file.h"
#include "nav/nav_tile_data.h"
#include "nav_test_support.h"

using namespace npc::nav;
using namespace npc::nav::test;

namespace {

// The mesh parameters of the shared level's file (bytes 12..39).
dtNavMeshParams paramsOf(const std::vector<uint8_t>& file, int max_polys = 1 << 20) {
  dtNavMeshParams p;
  std::memcpy(&p, &file[12], sizeof(p));
  p.maxPolys = max_polys;
  return p;
}

const std::vector<uint8_t>& levelFile() {
  static const std::vector<uint8_t> file = saveNavMeshFile(buildMesh(kLevelObj));
  return file;
}

// The first tile's data of the shared level's mesh, as a file holds it.
std::vector<uint8_t> firstTile() {
  const std::vector<uint8_t>& file = levelFile();
  int32_t size;
  std::memcpy(&size, &file[44], 4);
  return {file.begin() + 48, file.begin() + 48 + size};
}

dtMeshHeader headerOf(const std::vector<uint8_t>& tile) {
  dtMeshHeader h;
  std::memcpy(&h, tile.data(), sizeof(h));
  return h;
}

template <class T>
void put(std::vector<uint8_t>& tile, size_t offset, T v) {
  std::memcpy(&tile[offset], &v, sizeof(T));
}


}  // namespace

TEST_CASE("validateTileData accepts what Detour built") {
  const std::vector<uint8_t> tile = firstTile();
  CHECK(validateTileData(tile.data(), tile.size(), paramsOf(levelFile())) == "");
}

TEST_CASE("validateTileData refuses counts that do not fit the data") {
  std::vector<uint8_t> tile = firstTile();
  const dtMeshHeader h = headerOf(tile);
  SECTION("Should refuse a negative count") {
    put<int>(tile, offsetof(dtMeshHeader, detailTriCount), -1);
    CHECK(validateTileData(tile.data(), tile.size(), paramsOf(levelFile())) == "byte 44: detailTriCount -1 out of range");
  }
  SECTION("Should refuse counts larger than the data") {
    put<int>(tile, offsetof(dtMeshHeader, vertCount), h.vertCount + 1);
    CHECK(validateTileData(tile.data(), tile.size(), paramsOf(levelFile())).starts_with("byte 0: the header's counts make "));
  }
  SECTION("Should refuse a tile with more polygons than the mesh allows") {
    CHECK(validateTileData(tile.data(), tile.size(), paramsOf(levelFile(), h.polyCount - 1)) ==
          "byte 24: polyCount " + std::to_string(h.polyCount) + " exceeds the mesh's maxPolys " +
              std::to_string(h.polyCount - 1));
  }
  SECTION("Should refuse data shorter than a header") {
    CHECK(validateTileData(tile.data(), 10, paramsOf(levelFile())) ==
          "byte 10: tile data of 10 bytes is shorter than its 100-byte header");
  }
}

TEST_CASE("validateTileData refuses indices outside their arrays") {
  std::vector<uint8_t> tile = firstTile();
  const dtMeshHeader h = headerOf(tile);
  const size_t verts = (sizeof(dtMeshHeader) + 3) & ~size_t{3};
  const size_t polys = verts + ((sizeof(float) * 3 * static_cast<size_t>(h.vertCount) + 3) & ~size_t{3});
  SECTION("Should refuse a polygon vertex beyond vertCount") {
    put<unsigned short>(tile, polys + offsetof(dtPoly, verts), static_cast<unsigned short>(h.vertCount));
    CHECK(validateTileData(tile.data(), tile.size(), paramsOf(levelFile())) ==
          "byte " + std::to_string(polys) + ": polygon 0: vertex " + std::to_string(h.vertCount) +
              " >= vertCount " + std::to_string(h.vertCount));
  }
  SECTION("Should refuse an internal neighbour beyond polyCount") {
    put<unsigned short>(tile, polys + offsetof(dtPoly, neis), static_cast<unsigned short>(h.polyCount + 1));
    CHECK(validateTileData(tile.data(), tile.size(), paramsOf(levelFile())) ==
          "byte " + std::to_string(polys) + ": polygon 0: neighbour " + std::to_string(h.polyCount) +
              " >= polyCount " + std::to_string(h.polyCount));
  }
  SECTION("Should refuse neighbours that do not name each other back (a loop for raycast)") {
    // Found by the fuzzer: Detour's raycast walked such links forever.
    int edge = -1;
    dtPoly p0;
    std::memcpy(&p0, &tile[polys], sizeof(p0));
    for (int j = 0; j < p0.vertCount; ++j)
      if (p0.neis[j] != 0 && !(p0.neis[j] & DT_EXT_LINK)) edge = j;
    REQUIRE(edge >= 0);  // polygon 0 has an internal neighbour
    put<unsigned short>(tile, polys + offsetof(dtPoly, neis) + 2 * static_cast<size_t>(edge), 1);
    CHECK(validateTileData(tile.data(), tile.size(), paramsOf(levelFile())) ==
          "byte " + std::to_string(polys) + ": polygon 0: edge " + std::to_string(edge) +
              " is its own neighbour");
  }
  SECTION("Should refuse a detail mesh without boundary edges (Detour would follow a null edge)") {
    const size_t links = polys + ((sizeof(dtPoly) * static_cast<size_t>(h.polyCount) + 3) & ~size_t{3});
    const size_t details = links + ((sizeof(dtLink) * static_cast<size_t>(h.maxLinkCount) + 3) & ~size_t{3});
    const size_t dverts = details + ((sizeof(dtPolyDetail) * static_cast<size_t>(h.detailMeshCount) + 3) & ~size_t{3});
    const size_t dtris = dverts + ((sizeof(float) * 3 * static_cast<size_t>(h.detailVertCount) + 3) & ~size_t{3});
    for (int t = 0; t < h.detailTriCount; ++t) tile[dtris + 4 * static_cast<size_t>(t) + 3] = 0;
    CHECK(validateTileData(tile.data(), tile.size(), paramsOf(levelFile())) ==
          "byte " + std::to_string(details) + ": detail mesh 0 marks no boundary edge");
  }
  SECTION("Should refuse a polygon of 7 vertices") {
    put<unsigned char>(tile, polys + offsetof(dtPoly, vertCount), 7);
    CHECK(validateTileData(tile.data(), tile.size(), paramsOf(levelFile())) ==
          "byte " + std::to_string(polys) + ": polygon 0: 7 vertices");
  }
  SECTION("Should refuse a vertex outside the tile's bounds") {
    put<float>(tile, verts, h.bmax[0] + 5.f);
    CHECK(validateTileData(tile.data(), tile.size(), paramsOf(levelFile())) ==
          "byte " + std::to_string(verts) + ": a vertex lies outside the tile's bounds");
  }
  SECTION("Should refuse a tile whose bounds are not in its grid cell") {
    put<int>(tile, offsetof(dtMeshHeader, x), 3);
    CHECK(validateTileData(tile.data(), tile.size(), paramsOf(levelFile())) ==
          "byte 72: tile (3, 0) has bounds outside its cell of the mesh grid");
  }
  SECTION("Should refuse a non-finite vertex") {
    put<float>(tile, verts, std::numeric_limits<float>::infinity());
    CHECK(validateTileData(tile.data(), tile.size(), paramsOf(levelFile())) ==
          "byte " + std::to_string(verts) + ": a vertex is not finite");
  }
}
