#include "world_codec.h"

#include <algorithm>

#include "base/dense_table.h"
#include "world/world.h"

namespace npc {

void encodeVec3(Vec3 v, pb::Vec3& out) {
  out.set_x(v.x);
  out.set_y(v.y);
  out.set_z(v.z);
}

Vec3 decodeVec3(const pb::Vec3& v) { return {v.x(), v.y(), v.z()}; }

void encodeEntity(const Entity& e, NameList species, pb::EntityState& out) {
  out.set_id(raw(e.id));
  out.set_kind(static_cast<uint32_t>(e.kind));
  if (e.species != SpeciesId::kNone) out.set_species(nameAt(species, raw(e.species)));
  out.set_place(raw(e.place));
  out.set_active(e.active);
  out.set_place_from_client(e.place_from_client);
  out.set_owner(static_cast<uint32_t>(e.owner));
  encodeVec3(e.position, *out.mutable_position());
  encodeVec3(e.forward, *out.mutable_forward());
  encodeVec3(e.velocity, *out.mutable_velocity());
  out.set_eye_height_m(e.eye_height_m);
  out.set_takeable(e.takeable);
  out.set_expires_s(e.expires_s);
}

Entity decodeEntity(const pb::EntityState& in, SimStateAccess& access) {
  Entity e;
  e.id = EntityId{in.id()};
  e.kind = static_cast<EntityKind>(in.kind());
  e.species = in.species().empty() ? SpeciesId::kNone : access.internSpecies(in.species());
  e.place = static_cast<PlaceIndex>(in.place());
  e.active = in.active();
  e.place_from_client = in.place_from_client();
  e.owner = static_cast<ClientId>(in.owner());
  e.position = decodeVec3(in.position());
  e.forward = decodeVec3(in.forward());
  e.velocity = decodeVec3(in.velocity());
  e.eye_height_m = in.eye_height_m();
  e.takeable = in.takeable();
  e.expires_s = in.expires_s();
  return e;
}

void encodeWorld(std::span<const Entity> entities, std::span<const Obstacle> obstacles,
                 uint64_t next_dropped_object, NameList species, pb::WorldState& out) {
  for (const Entity& e : entities) {
    if (e.kind == EntityKind::kNpc) continue;  // agents carry their body (AgentState)
    encodeEntity(e, species, *out.add_entities());
  }
  for (const Obstacle& o : obstacles) {
    pb::ObstacleState& s = *out.add_obstacles();
    s.set_id(raw(o.id));
    encodeVec3(o.box.min, *s.mutable_min());
    encodeVec3(o.box.max, *s.mutable_max());
    s.set_cover(static_cast<uint32_t>(o.cover));
  }
  out.set_next_dropped_object(next_dropped_object);
}

namespace {

void encodeNavChange(const nav::NavObstacleChange& c, pb::NavObstacleChange& out) {
  out.set_id(raw(c.id));
  out.set_remove(c.remove);
  if (c.remove) return;
  encodeVec3(c.box.min, *out.mutable_min());
  encodeVec3(c.box.max, *out.mutable_max());
}

nav::NavObstacleChange decodeNavChange(const pb::NavObstacleChange& in) {
  nav::NavObstacleChange c;
  c.id = ObstacleId{in.id()};
  c.remove = in.remove();
  c.box.min = decodeVec3(in.min());
  c.box.max = decodeVec3(in.max());
  return c;
}

}  // namespace

void encodeNavObstacles(std::span<const nav::NavObstacleChange> held,
                        std::span<const nav::NavObstacleChange> queued, pb::NavObstaclesState& out) {
  for (const nav::NavObstacleChange& c : held) encodeNavChange(c, *out.add_held());
  for (const nav::NavObstacleChange& c : queued) encodeNavChange(c, *out.add_queued());
}

void encodeNavLongSearches(std::span<const nav::SlicedPathRequest> waiting, int open_iterations,
                           pb::NavLongSearchesState& out) {
  for (const nav::SlicedPathRequest& r : waiting) {
    pb::NavLongSearch& s = *out.add_waiting();
    s.set_agent(r.key);
    s.set_intention(r.tag);
    encodeVec3(r.from, *s.mutable_from());
    encodeVec3(r.to, *s.mutable_to());
  }
  out.set_open_iterations(static_cast<uint32_t>(std::max(open_iterations, 0)));
}

void restoreWorld(const pb::WorldState& in, SimStateAccess& access) {
  for (const pb::EntityState& e : in.entities()) access.addEntity(decodeEntity(e, access));
  for (const pb::ObstacleState& s : in.obstacles()) {
    Obstacle o;
    o.id = ObstacleId{s.id()};
    o.box.min = decodeVec3(s.min());
    o.box.max = decodeVec3(s.max());
    o.cover = static_cast<Cover>(s.cover());
    access.addObstacle(o);
  }
  if (in.has_navmesh()) {
    std::vector<nav::NavObstacleChange> held, queued;
    for (const pb::NavObstacleChange& c : in.navmesh().held()) held.push_back(decodeNavChange(c));
    for (const pb::NavObstacleChange& c : in.navmesh().queued()) queued.push_back(decodeNavChange(c));
    access.setNavObstacles(std::move(held), std::move(queued));
  }
  std::vector<nav::SlicedPathRequest> waiting;
  for (const pb::NavLongSearch& s : in.long_searches().waiting())
    waiting.push_back({s.agent(), s.intention(), decodeVec3(s.from()), decodeVec3(s.to())});
  // Bounded like the config's iterations: a damaged count cannot make a restore search forever.
  const int open = static_cast<int>(std::min<uint32_t>(in.long_searches().open_iterations(), 1u << 24));
  access.setNavLongSearches(std::move(waiting), open);
}

}  // namespace npc
