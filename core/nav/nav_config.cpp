#include "nav/nav_config.h"

#include <algorithm>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "base/json_reader.h"
#include "nav/level_geometry.h"
#include "nav/nav_mesh.h"
#include "nav/nav_mesh_builder.h"
#include "nav/nav_mesh_file.h"
#include "nav/nav_tile_cache_builder.h"

namespace npc::nav {
namespace {

constexpr std::string_view kPath = "/navmesh";

template <class T>
void readNumber(const nlohmann::json& j, JsonReader& r, const std::string& path, const char* key,
                T& field) {
  if (auto v = r.number(j, path, key, false)) field = static_cast<T>(*v);
}

// An integer field within [lo, hi]; out of it is an error naming the field.
void readCount(const nlohmann::json& j, JsonReader& r, const std::string& path, const char* key,
               int& field, int64_t lo, int64_t hi) {
  if (auto v = r.integer(j, path, key, false)) {
    if (*v < lo || *v > hi)
      r.error(joinPath(path, key), "must be in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                                       "] (got " + std::to_string(*v) + ")");
    else
      field = static_cast<int>(*v);
  }
}

// The object at `key` when the block has one (its JSON path in `at`); null when absent, or
// when not an object (reported).
const nlohmann::json* block(const nlohmann::json& j, JsonReader& r, const std::string& path,
                            const char* key, std::string& at) {
  if (!j.contains(key)) return nullptr;
  at = joinPath(path, key);
  const nlohmann::json& b = j[key];
  return r.isObject(b, at) ? &b : nullptr;
}

void readBuild(const nlohmann::json& b, JsonReader& r, const std::string& bpath, NavBuildConfig& c) {
  readNumber(b, r, bpath, "agent_radius_m", c.agent_radius_m);
  readNumber(b, r, bpath, "agent_height_m", c.agent_height_m);
  readNumber(b, r, bpath, "agent_climb_m", c.agent_climb_m);
  readNumber(b, r, bpath, "max_slope_deg", c.max_slope_deg);
  readNumber(b, r, bpath, "cell_size_m", c.cell_size_m);
  readNumber(b, r, bpath, "cell_height_m", c.cell_height_m);
  // Clamped only to fit an int: validate() says what is out of range.
  auto count = [&](const char* key, int& field) {
    if (auto v = r.integer(b, bpath, key, false)) field = static_cast<int>(std::clamp<int64_t>(*v, -1, 1 << 30));
  };
  count("tile_size_cells", c.tile_size_cells);
  readNumber(b, r, bpath, "max_edge_length_m", c.max_edge_length_m);
  readNumber(b, r, bpath, "min_region_area_m2", c.min_region_area_m2);
  count("max_tiles", c.max_tiles);
  count("max_obstacles", c.max_obstacles);
  count("max_obstacle_tiles", c.max_obstacle_tiles);
  for (const std::string& e : c.validate()) {
    const size_t colon = e.find(':');
    r.error(joinPath(bpath, e.substr(0, colon)), e.substr(colon + 2));
  }
}

void readQueryLimits(const nlohmann::json& q, JsonReader& r, const std::string& path, NavQueryLimits& l) {
  readCount(q, r, path, "max_nodes", l.max_nodes, 16, 65535);
  readCount(q, r, path, "max_path_polys", l.max_path_polys, 1, 4096);
  auto extent = [&](const char* key, float& field) {
    if (auto v = r.number(q, path, key, false)) {
      if (!(*v > 0 && *v <= 100)) r.error(joinPath(path, key), "must be in (0, 100] m");
      else field = static_cast<float>(*v);
    }
  };
  extent("snap_horizontal_m", l.snap_horizontal_m);
  extent("snap_vertical_m", l.snap_vertical_m);
}

void readLongSearch(const nlohmann::json& q, JsonReader& r, const std::string& path, SlicedPathConfig& l) {
  readCount(q, r, path, "max_nodes", l.max_nodes, 16, 65535);
  readCount(q, r, path, "max_path_polys", l.max_path_polys, 1, 4096);
  readCount(q, r, path, "iterations_per_tick", l.iterations_per_tick, 1, 1 << 20);
  readCount(q, r, path, "capacity", l.capacity, 1, 4096);
}

std::string resolve(const std::string& dir, const std::string& name) {
  const std::filesystem::path p(name);
  return p.is_absolute() || dir.empty() ? name : (std::filesystem::path(dir) / p).string();
}

}  // namespace

void readNavConfig(const nlohmann::json& j, JsonReader& r, const std::string& dir, NavConfig& out) {
  const std::string path(kPath);
  if (!r.isObject(j, path)) return;
  const auto file = r.string(j, path, "file", false);
  const auto geometry = r.string(j, path, "geometry", false);
  if (file.has_value() == geometry.has_value()) {
    r.error(path, "needs exactly one of \"file\" (a Detour navmesh) or \"geometry\" (an OBJ to build from)");
    return;
  }
  out.present = true;
  if (file) out.file = resolve(dir, *file);
  if (geometry) out.geometry = resolve(dir, *geometry);
  if (auto v = r.boolean(j, path, "obstacles_block", false)) out.obstacles_block = *v;
  readCount(j, r, path, "max_tile_rebuilds_per_tick", out.max_tile_rebuilds_per_tick, 1, 4096);
  std::string bpath;
  if (const nlohmann::json* b = block(j, r, path, "build", bpath)) readBuild(*b, r, bpath, out.build);
  std::string qpath, lpath;
  if (const nlohmann::json* q = block(j, r, path, "query", qpath)) readQueryLimits(*q, r, qpath, out.query);
  if (const nlohmann::json* l = block(j, r, path, "long_search", lpath))
    readLongSearch(*l, r, lpath, out.long_search);
}

std::string makeNavMesh(const NavConfig& config, std::span<const Obstacle> obstacles, NavMesh& out) {
  if (!config.file.empty()) return loadNavMeshFile(config.file, out);
  LevelGeometry geometry;
  if (std::string e = geometry.loadObj(config.geometry); !e.empty()) return e;
  // Obstacles that block are tile-cache obstacles (they can move and go); otherwise the
  // mesh never changes and needs no layers.
  std::string e = config.obstacles_block ? NavTileCacheBuilder(config.build).build(geometry, obstacles, out)
                                         : NavMeshBuilder(config.build).build(geometry, {}, out);
  return e.empty() ? e : config.geometry + ": " + e;
}

}  // namespace npc::nav
