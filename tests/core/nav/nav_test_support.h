// The small level the navigation tests share, in world coordinates (Z up):
//   floor A: x 0..40, y 0..40; a wall x 19.5..20.5, y 0..30, 3 m high (a gap at y 30..40);
//   floor B: x 50..60, y 0..10, an island 10 m east of A (unreachable from it).
// OBJ is Y up (Recast's convention): world (x, y, z) is OBJ (x, z, -y).
#pragma once

#include <filesystem>
#include <fstream>
#include <span>
#include <string>

#include <unistd.h>

#include <catch2/catch.hpp>

#include "nav/level_geometry.h"
#include "nav/nav_mesh.h"
#include "nav/nav_mesh_builder.h"

namespace npc::nav::test {

inline const char* kLevelObj = R"(# floor A
v 0 0 0
v 40 0 0
v 40 0 -40
v 0 0 -40
f 1 2 3
f 1 3 4
# wall: x 19.5..20.5, world y 0..30 (OBJ z 0..-30), 3 m high
v 19.5 0 0
v 20.5 0 0
v 20.5 0 -30
v 19.5 0 -30
v 19.5 3 0
v 20.5 3 0
v 20.5 3 -30
v 19.5 3 -30
f 9 10 11 12
f 5 6 10 9
f 6 7 11 10
f 7 8 12 11
f 8 5 9 12
# floor B
v 50 0 0
v 60 0 0
v 60 0 -10
v 50 0 -10
f 13 14 15
f 13 15 16
)";

// The shared level without the wall (floor A and B only).
inline const char* kFloorsObj = R"(v 0 0 0
v 40 0 0
v 40 0 -40
v 0 0 -40
v 50 0 0
v 60 0 0
v 60 0 -10
v 50 0 -10
f 1 2 3
f 1 3 4
f 5 6 7
f 5 7 8
)";

// Writes `obj` as level.obj into the temporary folder `dir_name` (for world files that name
// their geometry relative to themselves); returns the folder.
// Test cases run as processes of their own, several at once (ctest -j), and each writes the
// level before it reads it: written beside it and renamed over it, a reader never sees a
// half-written file.
inline std::string writeLevel(const char* dir_name, const char* obj = kLevelObj) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / dir_name;
  std::filesystem::create_directories(dir);
  const std::filesystem::path part = dir / ("level.obj." + std::to_string(::getpid()));
  std::ofstream(part) << obj;
  std::filesystem::rename(part, dir / "level.obj");
  return dir.string();
}

inline NavMesh buildMesh(const char* obj, std::span<const Aabb> blockers = {},
                         const NavBuildConfig& config = {}) {
  LevelGeometry geometry;
  REQUIRE(geometry.parseObj("level.obj", obj) == "");
  NavMesh mesh;
  REQUIRE(NavMeshBuilder(config).build(geometry, blockers, mesh) == "");
  return mesh;
}

}  // namespace npc::nav::test
