#include "sim/scale_world.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include <nlohmann/json.hpp>

#include "base/rng.h"

namespace npc {

namespace {

constexpr const char* kObjectSpecies[] = {"torch", "brazier", "haystack", "cart", "oil_lamp"};

// Archetype of the k-th agent: weights laid out in a repeating cycle.
const std::string& archetypeAt(const ScaleWorldSpec& spec, uint64_t k, uint32_t cycle) {
  uint64_t slot = k % cycle;
  for (const auto& [name, weight] : spec.mix) {
    if (slot < weight) return name;
    slot -= weight;
  }
  return spec.mix.back().first;
}

void addScenery(const Aabb& box, uint64_t& obstacle_id, Rng& rng, WorldFile& world) {
  const float size = box.max.x - box.min.x;
  for (int i = 0; i < 8; ++i) {
    const bool wall = i < 4;
    const float w = wall ? rng.range(4.f, 12.f) : rng.range(2.f, 5.f);
    const float d = wall ? 0.5f : rng.range(2.f, 5.f);
    const float x = box.min.x + rng.range(0.1f * size, 0.9f * size - w);
    const float y = box.min.y + rng.range(0.1f * size, 0.9f * size - d);
    Obstacle o;
    o.id = static_cast<ObstacleId>(obstacle_id++);
    o.box = {{x, y, 0.f}, {x + (i % 2 ? d : w), y + (i % 2 ? w : d), wall ? 3.f : 1.4f}};
    o.cover = wall ? Cover::kHard : Cover::kSoft;
    world.obstacles.push_back(o);
  }
}

Vec3 pointIn(const Aabb& box, Rng& rng) {
  return {rng.range(box.min.x + 1.f, box.max.x - 1.f), rng.range(box.min.y + 1.f, box.max.y - 1.f), 0.f};
}

}  // namespace

WorldFile makeScaleWorld(const ScaleWorldSpec& spec) {
  WorldFile world;
  world.source = "scale world (" + std::to_string(spec.agents) + " agents)";
  const uint32_t per_place = std::max<uint32_t>(1, spec.agents_per_place);
  const uint32_t places = (spec.agents + per_place - 1) / per_place;
  const auto columns = static_cast<uint32_t>(std::ceil(std::sqrt(static_cast<double>(places))));
  const float pitch = spec.place_size_m + spec.gap_m;
  uint32_t cycle = 0;
  for (const auto& entry : spec.mix) cycle += entry.second;
  Rng rng(spec.seed);
  uint64_t agent_id = spec.first_agent_id;
  uint64_t object_id = spec.first_object_id;
  uint64_t player_id = spec.first_player_id;
  uint64_t obstacle_id = 1;
  world.entities.reserve(spec.agents + spec.agents / std::max<uint32_t>(1, cycle));
  for (uint32_t p = 0; p < places; ++p) {
    const float x0 = static_cast<float>(p % columns) * pitch;
    const float y0 = static_cast<float>(p / columns) * pitch;
    const Aabb box{{x0, y0, -2.f}, {x0 + spec.place_size_m, y0 + spec.place_size_m, 20.f}};
    world.places.push_back({"p" + std::to_string(p), box});
    addScenery(box, obstacle_id, rng, world);
    const uint32_t here = std::min(per_place, spec.agents - p * per_place);
    for (uint32_t i = 0; i < here; ++i) {
      EntityState s;
      s.id = static_cast<EntityId>(agent_id);
      s.kind = EntityKind::kNpc;
      s.archetype = cycle > 0 ? archetypeAt(spec, agent_id - spec.first_agent_id, cycle) : "villager";
      // One squad per archetype and place: a guard calls his own village's guards.
      s.group = s.archetype + "@" + world.places.back().name;
      s.position = pointIn(box, rng);
      world.entities.push_back(s);
      ++agent_id;
      if (s.archetype == "pyromaniac") {  // something to set on fire nearby
        EntityState o;
        o.id = static_cast<EntityId>(object_id);
        o.kind = EntityKind::kObject;
        o.species = kObjectSpecies[(object_id - spec.first_object_id) % std::size(kObjectSpecies)];
        o.position = *s.position + Vec3{rng.range(-8.f, 8.f), rng.range(-8.f, 8.f), 0.f};
        o.position->x = std::clamp(o.position->x, box.min.x, box.max.x);
        o.position->y = std::clamp(o.position->y, box.min.y, box.max.y);
        world.entities.push_back(o);
        ++object_id;
      }
    }
    for (uint32_t k = 0; k < spec.players_per_place; ++k) {
      ScriptedPlayer player;
      player.id = static_cast<EntityId>(player_id++);
      player.speed_mps = spec.player_speed_mps;
      for (int w = 0; w < 4; ++w) player.route.push_back(pointIn(box, rng));
      world.players.push_back(std::move(player));
    }
  }
  return world;
}

std::string worldFileJson(const WorldFile& world) {
  using nlohmann::json;
  auto vec = [](Vec3 v) { return json::array({v.x, v.y, v.z}); };
  json root = json::object();
  json& places = root["places"] = json::array();
  for (const Place& p : world.places) {
    places.push_back({{"name", p.name}, {"min", vec(p.bounds.min)}, {"max", vec(p.bounds.max)}});
  }
  json& obstacles = root["obstacles"] = json::array();
  for (const Obstacle& o : world.obstacles) {
    obstacles.push_back({{"id", raw(o.id)},
                         {"min", vec(o.box.min)},
                         {"max", vec(o.box.max)},
                         {"cover", o.cover == Cover::kSoft ? "soft" : "hard"}});
  }
  json& entities = root["entities"] = json::array();
  for (const EntityState& s : world.entities) {
    json e = {{"id", raw(s.id)}, {"kind", std::string(toString(s.kind))}};
    if (s.position) e["position"] = vec(*s.position);
    if (!s.archetype.empty()) e["archetype"] = s.archetype;
    if (!s.group.empty()) e["group"] = s.group;
    if (!s.species.empty()) e["species"] = s.species;
    if (!s.place.empty()) e["place"] = s.place;
    entities.push_back(std::move(e));
  }
  json& players = root["simulated_players"] = json::array();
  for (const ScriptedPlayer& p : world.players) {
    json route = json::array();
    for (Vec3 v : p.route) route.push_back(vec(v));
    players.push_back(
        {{"id", raw(p.id)}, {"species", p.species}, {"speed_mps", p.speed_mps}, {"route", route}});
  }
  return root.dump();
}

}  // namespace npc
