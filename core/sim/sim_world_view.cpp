// Simulation: the map of the world for the debug page (DescribeWorld). Off the hot path:
// built on the tick thread between ticks when a debug client asks, bounded by the query's
// limits so a world of 100,000 agents still answers with a small document.
#include <cmath>

#include <nlohmann/json.hpp>

#include "nav/nav_mesh_outline.h"
#include "sim/sim_navigation.h"
#include "sim/simulation.h"

namespace npc {

namespace {

// Only x and y (the ground plane; z is up) matter on the top-down map.
bool inView(const std::optional<Aabb>& viewport, Vec3 p) {
  if (!viewport) return true;
  return p.x >= viewport->min.x && p.x <= viewport->max.x && p.y >= viewport->min.y &&
         p.y <= viewport->max.y;
}

bool boxInView(const std::optional<Aabb>& viewport, const Aabb& box) {
  if (!viewport) return true;
  return box.max.x >= viewport->min.x && box.min.x <= viewport->max.x &&
         box.max.y >= viewport->min.y && box.min.y <= viewport->max.y;
}

nlohmann::json vec(Vec3 v) { return nlohmann::json::array({v.x, v.y, v.z}); }

nlohmann::json box(const Aabb& b) { return {{"min", vec(b.min)}, {"max", vec(b.max)}}; }

// Rounded to the centimetre: the map needs no more and the document stays short.
nlohmann::json position(Vec3 v) {
  auto cm = [](float f) { return std::round(static_cast<double>(f) * 100.0) / 100.0; };
  return nlohmann::json::array({cm(v.x), cm(v.y), cm(v.z)});
}

}  // namespace

// "navmesh": {"generation", "polygons": [[[x, y, z], ...], ...], "matched"}, or null when
// the world has none.
void Simulation::describeNavMesh(const DescribeWorld& query, nlohmann::json& out) const {
  if (!navigation_) {
    out["navmesh"] = nullptr;
    return;
  }
  const nav::NavPolygonOutlines outlines = nav::outlinePolygons(navigation_->mesh, query.viewport, query.max_polygons);
  nlohmann::json polygons = nlohmann::json::array();
  for (const std::vector<Vec3>& polygon : outlines.polygons) {
    nlohmann::json corners = nlohmann::json::array();
    for (const Vec3& c : polygon) corners.push_back(position(c));
    polygons.push_back(std::move(corners));
  }
  out["navmesh"] = {{"generation", navigation_->mesh.generation()},
                    {"polygons", std::move(polygons)},
                    {"matched", outlines.matched}};
}

Status Simulation::describeWorld(const DescribeWorld& query, std::string& json_out) const {
  nlohmann::json j;
  j["tick"] = tick_;
  j["time_s"] = timeS();
  if (query.viewport) j["viewport"] = box(*query.viewport);

  nlohmann::json places = nlohmann::json::array();
  for (size_t i = 0; i < world_.places().size(); ++i) {
    const Place& p = world_.places()[i];
    const auto index = static_cast<PlaceIndex>(i);
    if (!boxInView(query.viewport, p.bounds)) continue;
    nlohmann::json place = {{"name", p.name},
                            {"bounds", box(p.bounds)},
                            {"state", toString(places_.state(index))},
                            {"sleeping_agents", i < dormant_.size() ? dormant_[i].size() : 0}};
    if (places_.asleep(index)) place["asleep_for_s"] = timeS() - places_.asleepSince(index);
    places.push_back(std::move(place));
  }
  j["places"] = std::move(places);

  nlohmann::json obstacles = nlohmann::json::array();
  for (const Obstacle& o : world_.obstacles()) {
    if (!boxInView(query.viewport, o.box)) continue;
    obstacles.push_back({{"id", raw(o.id)}, {"box", box(o.box)}, {"cover", toString(o.cover)}});
  }
  j["obstacles"] = std::move(obstacles);

  nlohmann::json agents = nlohmann::json::array();
  size_t agents_matched = 0;
  for (const Agent& agent : agents_.rows()) {
    const Entity* e = world_.entities().get(agent.entity);
    if (!e || !inView(query.viewport, e->position)) continue;
    if (agents_matched++ >= query.max_agents) continue;
    const Archetype& type = archetypes_.at(agent.archetype);
    const std::string_view behavior = agent.behavior_def == Agent::kNoBehaviorDef
                                          ? trees_.behaviorName(agent.bst.behavior)
                                          : std::string_view(type.behaviors[agent.behavior_def].name);
    const Place* place = world_.place(e->place);
    agents.push_back({{"id", raw(agent.id)},
                      {"archetype", type.name},
                      {"position", position(e->position)},
                      {"forward", position(e->forward)},
                      {"behavior", behavior},
                      {"place", place ? nlohmann::json(place->name) : nlohmann::json(nullptr)},
                      {"plans", !agent.planner.isNull()},
                      {"asleep", false}});
  }
  for (size_t p = 0; p < dormant_.size(); ++p) {
    for (const DormantAgent& d : dormant_[p]) {
      if (!inView(query.viewport, d.body.position)) continue;
      if (agents_matched++ >= query.max_agents) continue;
      const Archetype& type = archetypes_.at(d.archetype);
      const std::string_view behavior = d.behavior_def < type.behaviors.size()
                                            ? std::string_view(type.behaviors[d.behavior_def].name)
                                            : trees_.behaviorName(d.bst.behavior);
      agents.push_back({{"id", raw(d.body.id)},
                        {"archetype", type.name},
                        {"position", position(d.body.position)},
                        {"forward", position(d.body.forward)},
                        {"behavior", behavior},
                        {"place", world_.places()[p].name},
                        {"plans", false},
                        {"asleep", true}});
    }
  }
  j["agents"] = std::move(agents);
  j["agents_matched"] = agents_matched;

  nlohmann::json players = nlohmann::json::array();
  nlohmann::json objects = nlohmann::json::array();
  size_t entities_matched = 0;
  for (const Entity& e : world_.entities().rows()) {
    if (e.kind != EntityKind::kPlayer && e.kind != EntityKind::kObject) continue;
    if (!inView(query.viewport, e.position)) continue;
    if (entities_matched++ >= query.max_entities) continue;
    nlohmann::json entry = {{"id", raw(e.id)}, {"position", position(e.position)}};
    if (e.species != SpeciesId::kNone) entry["species"] = world_.species().name(e.species);
    if (e.kind == EntityKind::kPlayer) {
      entry["active"] = e.active;
      players.push_back(std::move(entry));
    } else {
      objects.push_back(std::move(entry));
    }
  }
  j["players"] = std::move(players);
  j["objects"] = std::move(objects);
  j["entities_matched"] = entities_matched;
  if (query.navmesh) describeNavMesh(query, j);
  json_out = j.dump();
  return {};
}

}  // namespace npc
