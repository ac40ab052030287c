// Level geometry for building a navmesh: a triangle soup in Recast coordinates (Y up, see
// nav_coords.h), read from a Wavefront OBJ file as level editors and the Recast toolchain
// export it.
//
// OBJ subset accepted: "v x y z" vertices and "f" faces of 3 or more vertices (fan
// triangulated), with "i", "i/t", "i//n" or "i/t/n" references, 1-based or negative
// (relative). Every other statement (vn, vt, o, g, s, usemtl, mtllib, comments) is ignored.
// Bad input is refused with "file.obj:12: ..." and nothing is kept; limits: kMaxVertices
// vertices and kMaxTriangles triangles.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace npc::nav {

class LevelGeometry {
 public:
  static constexpr size_t kMaxVertices = 4'000'000;
  static constexpr size_t kMaxTriangles = 8'000'000;
  static constexpr uintmax_t kMaxFileBytes = uintmax_t{1} << 30;  // regular files only

  // Parses OBJ text; `name` is used in messages. Returns "" or the first error.
  std::string parseObj(std::string_view name, std::string_view text);
  // Reads and parses an OBJ file. Returns "" or the error ("file.obj: cannot read").
  std::string loadObj(const std::string& path);

  // For generated geometry (tests, benchmarks): Recast coordinates, indices 0-based.
  int addVertex(float x, float y, float z);
  void addTriangle(int a, int b, int c);

  const std::vector<float>& vertices() const { return verts_; }  // x, y, z per vertex
  const std::vector<int>& triangles() const { return tris_; }     // 3 indices per triangle
  int vertexCount() const { return static_cast<int>(verts_.size() / 3); }
  int triangleCount() const { return static_cast<int>(tris_.size() / 3); }
  // Bounds of all vertices (Recast coordinates); zero when empty.
  void bounds(float* bmin, float* bmax) const;

 private:
  std::vector<float> verts_;
  std::vector<int> tris_;
};

}  // namespace npc::nav
