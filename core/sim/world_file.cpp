#include "sim/world_file.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include <nlohmann/json.hpp>

#include "base/json_reader.h"
#include "base/json_schema.h"
#include "nav/nav_mesh.h"
#include "sim/simulation.h"

namespace npc {

using nlohmann::json;

namespace {

// What one file's readers share: the world's bounds, and the first JSON path of each id so a
// repeat names where it was first used. Entities and simulated players share one id space.
struct WorldReading {
  const WorldBounds& bounds;
  std::map<int64_t, std::string> entity_ids;
  std::map<int64_t, std::string> obstacle_ids;
};

void checkInWorld(JsonReader& r, const std::string& path, Vec3 p, const WorldBounds& bounds) {
  if (std::string problem = bounds.outside(p); !problem.empty()) r.error(path, problem);
}

// Refuses an id already used in `first` ("duplicate id 1201 (first at /entities/3)").
void checkUnique(JsonReader& r, const std::string& path, int64_t id,
                 std::map<int64_t, std::string>& first) {
  const auto [it, inserted] = first.emplace(id, path);
  if (!inserted) {
    r.error(joinPath(path, "id"),
            "duplicate id " + std::to_string(id) + " (first at " + it->second + ")");
  }
}

void readPlaces(const json& arr, JsonReader& r, WorldReading& w, WorldFile& out) {
  if (!r.isArray(arr, "/places")) return;
  for (size_t i = 0; i < arr.size(); ++i) {
    const std::string path = joinPath("/places", i);
    const json& j = arr[i];
    if (!r.isObject(j, path)) continue;
    auto name = r.string(j, path, "name", true);
    auto min = r.vec3(j, path, "min", true);
    auto max = r.vec3(j, path, "max", true);
    if (!name || !min || !max) continue;
    Place p{*name, {*min, *max}};
    if (!p.bounds.isValid()) {
      r.error(path, "min must be <= max on every axis");
      continue;
    }
    checkInWorld(r, joinPath(path, "min"), *min, w.bounds);
    checkInWorld(r, joinPath(path, "max"), *max, w.bounds);
    for (const Place& other : out.places) {
      if (other.name == p.name) r.error(joinPath(path, "name"), "place \"" + p.name + "\" repeats");
    }
    out.places.push_back(std::move(p));
  }
}

void readObstacles(const json& arr, JsonReader& r, WorldReading& w, WorldFile& out) {
  if (!r.isArray(arr, "/obstacles")) return;
  for (size_t i = 0; i < arr.size(); ++i) {
    const std::string path = joinPath("/obstacles", i);
    const json& j = arr[i];
    if (!r.isObject(j, path)) continue;
    auto id = r.integer(j, path, "id", true);
    auto min = r.vec3(j, path, "min", true);
    auto max = r.vec3(j, path, "max", true);
    auto cover_text = r.string(j, path, "cover", false);
    Cover cover = Cover::kHard;
    if (cover_text) {
      if (auto c = parseCover(*cover_text)) {
        cover = *c;
      } else {
        r.error(joinPath(path, "cover"), "expected \"hard\" or \"soft\"");
      }
    }
    if (!id || !min || !max) continue;
    if (*id <= 0) r.error(joinPath(path, "id"), "must be > 0");
    checkUnique(r, path, *id, w.obstacle_ids);
    Obstacle o{static_cast<ObstacleId>(*id), {*min, *max}, cover};
    if (!o.box.isValid()) r.error(path, "min must be <= max on every axis");
    checkInWorld(r, joinPath(path, "min"), *min, w.bounds);
    checkInWorld(r, joinPath(path, "max"), *max, w.bounds);
    const double size = std::max({double{max->x} - min->x, double{max->y} - min->y,
                                  double{max->z} - min->z});
    if (std::string problem = aboveMaximum(size, kMaxObstacleSizeM, "m"); !problem.empty()) {
      r.error(path, "size " + problem);
    }
    out.obstacles.push_back(o);
  }
}

void readEntities(const json& arr, JsonReader& r, WorldReading& w, WorldFile& out) {
  if (!r.isArray(arr, "/entities")) return;
  for (size_t i = 0; i < arr.size(); ++i) {
    const std::string path = joinPath("/entities", i);
    const json& j = arr[i];
    if (!r.isObject(j, path)) continue;
    EntityState s;
    auto id = r.integer(j, path, "id", true);
    auto kind = r.string(j, path, "kind", true);
    s.position = r.vec3(j, path, "position", true);
    s.forward = r.vec3(j, path, "forward", false);
    if (auto v = r.string(j, path, "archetype", false)) s.archetype = *v;
    if (auto v = r.string(j, path, "group", false)) s.group = *v;
    if (auto v = r.string(j, path, "species", false)) s.species = *v;
    if (auto v = r.string(j, path, "place", false)) s.place = *v;
    if (auto v = r.number(j, path, "eye_height", false)) {
      if (!(*v >= 0.0 && *v <= kMaxEyeHeightM)) {
        r.error(joinPath(path, "eye_height"),
                "must be within 0.." + formatNumber(kMaxEyeHeightM) + " m");
      }
      s.eye_height_m = static_cast<float>(*v);
    }
    if (auto v = r.boolean(j, path, "takeable", false)) s.takeable = *v;
    if (!id || !kind || !s.position) continue;
    if (*id <= 0) r.error(joinPath(path, "id"), "must be > 0");
    checkUnique(r, path, *id, w.entity_ids);
    checkInWorld(r, joinPath(path, "position"), *s.position, w.bounds);
    s.id = static_cast<EntityId>(*id);
    if (auto k = parseEntityKind(*kind)) {
      s.kind = *k;
    } else {
      r.error(joinPath(path, "kind"), "expected npc, player, object or attribute");
    }
    if (s.kind == EntityKind::kNpc && s.archetype.empty()) {
      r.error(joinPath(path, "archetype"), "is required for an npc");
    }
    if (s.kind != EntityKind::kNpc && !s.group.empty()) {
      r.error(joinPath(path, "group"), "is for npcs only");
    }
    out.entities.push_back(std::move(s));
  }
}

void readPlayers(const json& arr, JsonReader& r, WorldReading& w, WorldFile& out) {
  if (!r.isArray(arr, "/simulated_players")) return;
  for (size_t i = 0; i < arr.size(); ++i) {
    const std::string path = joinPath("/simulated_players", i);
    const json& j = arr[i];
    if (!r.isObject(j, path)) continue;
    ScriptedPlayer p;
    auto id = r.integer(j, path, "id", true);
    if (auto v = r.string(j, path, "species", false)) p.species = *v;
    if (auto v = r.number(j, path, "speed_mps", false)) p.speed_mps = static_cast<float>(*v);
    if (!(p.speed_mps > 0.f && p.speed_mps <= kMaxAgentSpeedMps)) {
      r.error(joinPath(path, "speed_mps"),
              "must be within (0, " + formatNumber(kMaxAgentSpeedMps) + "] m/s");
    }
    const std::string route_path = joinPath(path, "route");
    if (!j.contains("route")) {
      r.error(route_path, "missing required key");
    } else if (r.isArray(j["route"], route_path)) {
      for (size_t k = 0; k < j["route"].size(); ++k) {
        const std::string waypoint = joinPath(route_path, k);
        if (auto v = r.vec3Value(j["route"][k], waypoint)) {
          checkInWorld(r, waypoint, *v, w.bounds);
          p.route.push_back(*v);
        }
      }
      if (j["route"].size() < 2) r.error(route_path, "needs at least two waypoints");
    }
    if (!id) continue;
    if (*id <= 0) r.error(joinPath(path, "id"), "must be > 0");
    checkUnique(r, path, *id, w.entity_ids);
    p.id = static_cast<EntityId>(*id);
    out.players.push_back(std::move(p));
  }
}

bool readWorld(JsonReader& r, const json* root, const WorldBounds& bounds, WorldFile& out,
               std::vector<std::string>& errors) {
  out.source = r.file();
  if (root && r.validate(*root, SchemaId::kWorld)) {
    WorldReading w{bounds, {}, {}};
    if (root->contains("places")) readPlaces((*root)["places"], r, w, out);
    if (root->contains("obstacles")) readObstacles((*root)["obstacles"], r, w, out);
    if (root->contains("entities")) readEntities((*root)["entities"], r, w, out);
    if (root->contains("simulated_players")) readPlayers((*root)["simulated_players"], r, w, out);
    if (root->contains("navmesh")) {
      nav::readNavConfig((*root)["navmesh"], r,
                         std::filesystem::path(r.file()).parent_path().string(), out.navmesh);
    }
  }
  errors.insert(errors.end(), r.errors().begin(), r.errors().end());
  return r.ok();
}

}  // namespace

bool parseWorldFile(const std::string& name, const std::string& text, WorldFile& out,
                    std::vector<std::string>& errors, const WorldBounds& bounds) {
  JsonReader r(name);
  json root;
  const bool parsed = r.parse(text, root);
  return readWorld(r, parsed ? &root : nullptr, bounds, out, errors);
}

bool loadWorldFile(const std::string& path, WorldFile& out, std::vector<std::string>& errors,
                   const WorldBounds& bounds) {
  JsonReader r(path);
  json root;
  const bool parsed = r.parseFile(root);
  return readWorld(r, parsed ? &root : nullptr, bounds, out, errors);
}

bool applyWorldFile(const WorldFile& file, Simulation& sim, std::vector<std::string>& errors) {
  bool ok = true;
  for (const Place& p : file.places) {
    if (!sim.world().addPlace(p.name, p.bounds)) {
      errors.push_back("place \"" + p.name + "\" already exists");
      ok = false;
    }
  }
  for (const Obstacle& o : file.obstacles) sim.world().upsertObstacle(o);
  if (file.navmesh.present) {
    nav::NavMesh mesh;
    if (std::string e = nav::makeNavMesh(file.navmesh, file.obstacles, mesh); !e.empty()) {
      errors.push_back(file.source + ": /navmesh: " + e);
      ok = false;
    } else {
      sim.setNavMesh(std::move(mesh), file.navmesh);
    }
  }
  std::vector<Command> commands;
  for (size_t i = 0; i < file.entities.size(); ++i) {
    const EntityState& s = file.entities[i];
    if (s.kind == EntityKind::kNpc && !sim.archetypes().find(s.archetype)) {
      errors.push_back(file.source + ": " + joinPath("/entities", i) + "/archetype: \"" +
                       s.archetype + "\" is not a known archetype");
      ok = false;
      continue;
    }
    // Leased places (a cluster) start held by nobody: their npcs come with the place.
    if (s.kind == EntityKind::kNpc && sim.config().leased_places) continue;
    commands.push_back({ClientId::kDaemon, 0, UpsertEntity{s}});
  }
  if (!sim.submit(commands)) {
    errors.push_back("command queue full while loading the world");
    ok = false;
  }
  return ok;
}

PlaceIndex startingPlace(const EntityState& s, const World& world) {
  if (!s.place.empty()) return world.findPlace(s.place);
  return s.position ? world.placeAt(*s.position) : PlaceIndex::kNone;
}

size_t queuePlaceNpcs(const WorldFile& file, std::string_view place, Simulation& sim) {
  const World& world = sim.world();
  const PlaceIndex wanted = world.findPlace(place);
  if (wanted == PlaceIndex::kNone) return 0;
  std::vector<Command> commands;
  for (const EntityState& s : file.entities) {
    if (s.kind != EntityKind::kNpc) continue;
    if (startingPlace(s, world) == wanted) {
      commands.push_back({ClientId::kDaemon, 0, UpsertEntity{s}});
    }
  }
  const size_t count = commands.size();
  return sim.submit(commands) ? count : 0;
}

}  // namespace npc
