#include "nav/level_geometry.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace npc::nav {
namespace {

std::string_view nextToken(std::string_view& line) {
  const size_t start = line.find_first_not_of(" \t\r");
  if (start == std::string_view::npos) {
    line = {};
    return {};
  }
  line.remove_prefix(start);
  const size_t end = line.find_first_of(" \t\r");
  std::string_view token = line.substr(0, end);
  line.remove_prefix(end == std::string_view::npos ? line.size() : end);
  return token;
}

bool parseFloat(std::string_view token, float& out) {
  const auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), out);
  return ec == std::errc() && ptr == token.data() + token.size() && std::isfinite(out);
}

}  // namespace

std::string LevelGeometry::parseObj(std::string_view name, std::string_view text) {
  std::vector<float> verts;
  std::vector<int> tris;
  std::vector<int> face;
  int line_no = 0;
  auto fail = [&](std::string_view message) {
    std::ostringstream s;
    s << name << ":" << line_no << ": " << message;
    return s.str();
  };
  while (!text.empty()) {
    ++line_no;
    const size_t eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
    const std::string_view kind = nextToken(line);
    if (kind == "v") {
      float xyz[3];
      for (float& c : xyz) {
        const std::string_view t = nextToken(line);
        if (t.empty()) return fail("a vertex needs 3 coordinates");
        if (!parseFloat(t, c)) return fail("vertex coordinate \"" + std::string(t) + "\" is not a finite number");
      }
      if (verts.size() / 3 >= kMaxVertices)
        return fail("more than " + std::to_string(kMaxVertices) + " vertices");
      verts.insert(verts.end(), xyz, xyz + 3);
    } else if (kind == "f") {
      face.clear();
      for (std::string_view t = nextToken(line); !t.empty(); t = nextToken(line)) {
        const std::string_view index = t.substr(0, t.find('/'));
        long long i = 0;
        const auto [ptr, ec] = std::from_chars(index.data(), index.data() + index.size(), i);
        if (ec != std::errc() || ptr != index.data() + index.size() || i == 0)
          return fail("face vertex \"" + std::string(t) + "\" is not a vertex number");
        const long long count = static_cast<long long>(verts.size() / 3);
        const long long zero_based = i > 0 ? i - 1 : count + i;
        if (zero_based < 0 || zero_based >= count)
          return fail("face vertex " + std::to_string(i) + " does not exist (" +
                      std::to_string(count) + " vertices so far)");
        face.push_back(static_cast<int>(zero_based));
      }
      if (face.size() < 3) return fail("a face needs at least 3 vertices");
      for (size_t k = 2; k < face.size(); ++k) {
        if (tris.size() / 3 >= kMaxTriangles)
          return fail("more than " + std::to_string(kMaxTriangles) + " triangles");
        tris.insert(tris.end(), {face[0], face[k - 1], face[k]});
      }
    }
  }
  if (tris.empty()) {
    return std::string(name) + ": no faces (the level geometry is empty)";
  }
  verts_ = std::move(verts);
  tris_ = std::move(tris);
  return "";
}

std::string LevelGeometry::loadObj(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return path + ": cannot read";
  if (std::filesystem::file_size(path, ec) > kMaxFileBytes)
    return path + ": more than " + std::to_string(kMaxFileBytes) + " bytes";
  std::ifstream in(path, std::ios::binary);
  if (!in) return path + ": cannot read";
  std::ostringstream text;
  text << in.rdbuf();
  return parseObj(path, text.str());
}

int LevelGeometry::addVertex(float x, float y, float z) {
  verts_.insert(verts_.end(), {x, y, z});
  return vertexCount() - 1;
}

void LevelGeometry::addTriangle(int a, int b, int c) { tris_.insert(tris_.end(), {a, b, c}); }

void LevelGeometry::bounds(float* bmin, float* bmax) const {
  for (int k = 0; k < 3; ++k) bmin[k] = bmax[k] = verts_.empty() ? 0.f : verts_[k];
  for (size_t i = 0; i < verts_.size(); i += 3) {
    for (int k = 0; k < 3; ++k) {
      bmin[k] = std::min(bmin[k], verts_[i + k]);
      bmax[k] = std::max(bmax[k], verts_[i + k]);
    }
  }
}

}  // namespace npc::nav
