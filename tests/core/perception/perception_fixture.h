// A small world driven tick by tick for perception tests: entities, agents with their
// PerceptionState, a PerceptionSystem built on first use (so a test may edit `config`
// first), and every signal emitted since the last clearSignals().
// Time: tick k happens at k × dt_s; dt_s = 0.125 s is exact in binary, so timer edges
// (3 s of soft cover = 24 intervals of 0.125 s) are exact.
#pragma once

#include <deque>
#include <memory>
#include <vector>

#include "perception/perception_system.h"
#include "world/world.h"

namespace npc::test {

struct PerceptionFixture {
  World world;
  PerceptionConfig config;
  std::unique_ptr<PerceptionSystem> system;
  std::deque<PerceptionState> states;  // stable addresses
  std::vector<Perceiver> perceivers;
  std::vector<Signal> signals;
  SignalQueue out{4096};
  uint64_t tick = 0;
  double dt_s = 0.125;

  PerceptionSystem& sys() {
    if (!system) system = std::make_unique<PerceptionSystem>(config, world.species());
    return *system;
  }
  double now() const { return static_cast<double>(tick) * dt_s; }
  SpeciesId species(std::string_view name) { return world.species().intern(name); }

  Entity& entity(uint64_t id) { return *world.entities().get(EntityId{id}); }

  Entity& add(uint64_t id, EntityKind kind, std::string_view species_name, Vec3 position,
              float eye_height_m = 1.7f) {
    const EntityHandle h = world.entities().insert(EntityId{id});
    Entity& e = *world.entities().get(h);
    e.kind = kind;
    e.species = species(species_name);
    e.position = position;
    e.eye_height_m = eye_height_m;
    world.markMoved();
    return e;
  }

  // An NPC agent at `position` facing `forward`.
  PerceptionState& addAgent(uint64_t id, std::string_view species_name, Vec3 position,
                            Vec3 forward = {1, 0, 0}, SensorConfig sensors = {}) {
    add(id, EntityKind::kNpc, species_name, position).forward = forward;
    states.emplace_back();
    initPerceptionState(states.back(), sensors, EntityId{id}, 42);
    perceivers.push_back({world.entities().find(EntityId{id}), &states.back()});
    return states.back();
  }

  // A moving standing player (velocity 1.5 m/s along y unless told otherwise).
  Entity& addPlayer(uint64_t id, Vec3 position, float eye_height_m = 1.7f,
                    Vec3 velocity = {0, 1.5f, 0}, std::string_view species_name = "human") {
    Entity& e = add(id, EntityKind::kPlayer, species_name, position, eye_height_m);
    e.velocity = velocity;
    return e;
  }

  void moveTo(uint64_t id, Vec3 position) {
    entity(id).position = position;
    world.markMoved();
  }

  void step(int n = 1) {
    for (int i = 0; i < n; ++i) {
      ++tick;
      world.refreshSpatialIndex();
      out.clear();
      sys().update(world, perceivers, tick, now(), out);
      signals.insert(signals.end(), out.signals().begin(), out.signals().end());
    }
  }

  void clearSignals() { signals.clear(); }
  size_t count(SignalId id, uint64_t receiver) const {
    size_t n = 0;
    for (const Signal& s : signals) n += s.id == id && s.receiver == EntityId{receiver};
    return n;
  }
  const Signal* last(SignalId id, uint64_t receiver) const {
    const Signal* found = nullptr;
    for (const Signal& s : signals) {
      if (s.id == id && s.receiver == EntityId{receiver}) found = &s;
    }
    return found;
  }

  static const TargetTrack* track(const PerceptionState& st, uint64_t target) {
    const int i = findTrack(st, EntityId{target});
    return i < 0 ? nullptr : &st.tracks[i];
  }
  static bool sees(const PerceptionState& st, uint64_t target) {
    const TargetTrack* t = track(st, target);
    return t && t->state == TrackState::kVisible;
  }
  static bool remembers(const PerceptionState& st, uint64_t target) {
    const TargetTrack* t = track(st, target);
    return t && t->state == TrackState::kMemory;
  }
  static float coefficient(const PerceptionState& st, uint64_t target) {
    const TargetTrack* t = track(st, target);
    return t ? t->coefficient : 0.f;
  }
};

}  // namespace npc::test
