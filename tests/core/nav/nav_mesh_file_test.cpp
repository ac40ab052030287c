// Navmesh files (core/nav/nav_mesh_file.h): the MSET layout read back as written, and
// truncated, foreign, wrong-version or absurd files refused with the file and byte offset.
#include <cstring>
#include <fstream>

#include <catch2/catch.hpp>

#include "nav/nav_mesh_file.h"
#include "nav/nav_query.h"
#include "nav_test_support.h"

using namespace npc;
using namespace npc::nav;
using namespace npc::nav::test;

namespace {

void putInt(std::vector<uint8_t>& bytes, size_t offset, int32_t v) {
  std::memcpy(&bytes[offset], &v, 4);
}

std::string load(const std::vector<uint8_t>& bytes) {
  NavMesh mesh;
  std::string e = parseNavMeshFile("village.navmesh", bytes, mesh);
  if (!e.empty()) CHECK(mesh.empty());
  return e;
}

}  // namespace

TEST_CASE("A saved navmesh loads back and answers the same queries") {
  NavMesh built = buildMesh(kLevelObj);
  const std::vector<uint8_t> bytes = saveNavMeshFile(built);
  REQUIRE(bytes.size() > 40);
  NavMesh loaded;
  REQUIRE(parseNavMeshFile("village.navmesh", bytes, loaded) == "");
  CHECK(loaded.tileCount() == built.tileCount());
  CHECK(loaded.memoryBytes() == built.memoryBytes());
  NavQuery a(built), b(loaded);
  const NavPath pa = a.path({10, 5, 0}, {30, 5, 0});
  const NavPath pb = b.path({10, 5, 0}, {30, 5, 0});
  REQUIRE(pb.result == NavResult::kOk);
  CHECK(pb.length_m == pa.length_m);
  CHECK(b.path({10, 5, 0}, {55, 5, 0}).result == NavResult::kUnreachable);
}

TEST_CASE("A navmesh file is refused with the file name and the byte offset") {
  const std::vector<uint8_t> good = saveNavMeshFile(buildMesh(kLevelObj));
  SECTION("Should refuse a truncated header") {
    CHECK(load({good.begin(), good.begin() + 20}) ==
          "village.navmesh: byte 20: truncated: the header needs 40 bytes, the file has 20");
  }
  SECTION("Should refuse a file cut inside a tile") {
    int32_t first_size;
    std::memcpy(&first_size, &good[44], 4);
    const std::vector<uint8_t> cut(good.begin(), good.begin() + 48 + 10);
    CHECK(load(cut) == "village.navmesh: byte 48: tile 0: truncated: dataSize " +
                           std::to_string(first_size) + ", 10 bytes left");
    const std::vector<uint8_t> cut_header(good.begin(), good.begin() + 43);
    CHECK(load(cut_header) ==
          "village.navmesh: byte 40: tile 0: truncated: the tile header needs 8 bytes, 3 left");
  }
  SECTION("Should refuse another format and another version") {
    std::vector<uint8_t> bytes = good;
    bytes[0] = 'X';
    CHECK(load(bytes) == "village.navmesh: byte 0: not a navmesh file (magic is not MSET)");
    bytes = good;
    putInt(bytes, 4, 2);
    CHECK(load(bytes) == "village.navmesh: byte 4: version 2, expected 1");
    bytes = good;
    putInt(bytes, 48 + 4, 6);  // the first tile's Detour version
    CHECK(load(bytes) == "village.navmesh: byte 48: tile 0: byte 4: tile version 6, expected 7");
  }
  SECTION("Should refuse absurd parameters by field") {
    std::vector<uint8_t> bytes = good;
    putInt(bytes, 32, 1 << 30);
    CHECK(load(bytes) == "village.navmesh: byte 32: maxTiles 1073741824 must be in [1, 65536]");
    bytes = good;
    putInt(bytes, 8, 100000);
    CHECK(load(bytes).starts_with("village.navmesh: byte 8: numTiles 100000 must be in [0, maxTiles "));
    bytes = good;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::memcpy(&bytes[24], &nan, 4);
    CHECK(load(bytes) == "village.navmesh: byte 24: tileWidth must be in (0, 100000] m");
    bytes = good;
    const float huge = 1.7e38f;  // found by the fuzzer: Detour's tile arithmetic breaks down
    std::memcpy(&bytes[12], &huge, 4);
    CHECK(load(bytes) == "village.navmesh: byte 12: orig must be within +-10000000 m");
    bytes = good;
    putInt(bytes, 44, -5);
    CHECK(load(bytes) == "village.navmesh: byte 44: tile 0: dataSize -5 must be in [1, 67108864]");
  }
  SECTION("Should refuse bytes after the last tile") {
    std::vector<uint8_t> bytes = good;
    bytes.push_back(0);
    CHECK(load(bytes) == "village.navmesh: byte " + std::to_string(good.size()) +
                             ": 1 bytes after the last tile");
  }
  SECTION("Should name a file it cannot read") {
    NavMesh mesh;
    CHECK(loadNavMeshFile("/nonexistent/village.navmesh", mesh) ==
          "/nonexistent/village.navmesh: cannot read");
  }
}

TEST_CASE("The sample navmesh file (the fuzz target's seed) loads and joins floor A") {
  NavMesh mesh;
  REQUIRE(loadNavMeshFile(NPCD_SOURCE_DIR "/tests/core/nav/data/level.navmesh", mesh) == "");
  NavQuery query(mesh);
  CHECK(query.path({10, 5, 0}, {30, 5, 0}).length_m > 50.f);  // round the wall
}
