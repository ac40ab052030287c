// LevelGeometry (core/nav/level_geometry.h): the OBJ subset accepted, and bad files refused
// with the file and line.
#include <catch2/catch.hpp>

#include "nav/level_geometry.h"

using namespace npc::nav;

TEST_CASE("LevelGeometry reads vertices and fan-triangulates faces of any reference form") {
  LevelGeometry g;
  REQUIRE(g.parseObj("quad.obj", R"(# a quad, with normals and texture coordinates
o ground
v 0 0 0
v 4 0 0
v 4 0 -4
v 0 0 -4
vn 0 1 0
vt 0 0
usemtl grass
f 1/1/1 2/1/1 3//1 -1
)") == "");
  CHECK(g.vertexCount() == 4);
  CHECK(g.triangleCount() == 2);
  CHECK(g.triangles() == std::vector<int>{0, 1, 2, 0, 2, 3});
  float lo[3], hi[3];
  g.bounds(lo, hi);
  CHECK(lo[0] == 0.f);
  CHECK(lo[2] == -4.f);
  CHECK(hi[0] == 4.f);
  CHECK(hi[2] == 0.f);
}

TEST_CASE("LevelGeometry refuses bad OBJ text naming the file and line") {
  LevelGeometry g;
  SECTION("Should refuse a face naming a vertex that does not exist") {
    CHECK(g.parseObj("level.obj", "v 0 0 0\nv 1 0 0\nv 1 0 1\nf 1 2 9\n") ==
          "level.obj:4: face vertex 9 does not exist (3 vertices so far)");
  }
  SECTION("Should refuse a coordinate that is not a finite number") {
    CHECK(g.parseObj("level.obj", "v 0 0 0\nv 1 abc 0\n") ==
          "level.obj:2: vertex coordinate \"abc\" is not a finite number");
    CHECK(g.parseObj("level.obj", "v 0 0 nan\n") ==
          "level.obj:1: vertex coordinate \"nan\" is not a finite number");
  }
  SECTION("Should refuse a vertex with too few coordinates and a face with too few vertices") {
    CHECK(g.parseObj("level.obj", "v 0 0\n") == "level.obj:1: a vertex needs 3 coordinates");
    CHECK(g.parseObj("level.obj", "v 0 0 0\nv 1 0 0\n\nf 1 2\n") ==
          "level.obj:4: a face needs at least 3 vertices");
    CHECK(g.parseObj("level.obj", "v 0 0 0\nf 1 x 1\n") ==
          "level.obj:2: face vertex \"x\" is not a vertex number");
  }
  SECTION("Should refuse geometry without faces, and keep nothing of a refused file") {
    CHECK(g.parseObj("empty.obj", "v 0 0 0\n") == "empty.obj: no faces (the level geometry is empty)");
    CHECK(g.triangleCount() == 0);
  }
  SECTION("Should name a file it cannot read") {
    CHECK(g.loadObj("/nonexistent/level.obj") == "/nonexistent/level.obj: cannot read");
  }
}
