// Shared helpers for simulation tests: a small archetype set and command builders.
#pragma once

#include <string>
#include <vector>

#include "sim/simulation.h"

namespace npc::test {

inline ArchetypeSet testArchetypes() {
  ArchetypeSet set;
  Archetype villager;
  villager.name = "villager";
  villager.species = "human";
  villager.sensors.sight_range_m = 6.f;
  villager.behaviors.push_back({"Ambient", BehaviorMode::kAmbient});
  villager.behavior = "Ambient";
  villager.action_timeout_s = 3.f;
  villager.greet.action = "Greet";
  villager.greet.duration_s = 1.f;
  villager.greet.cooldown_s = 10.f;
  villager.wander.radius_m = 5.f;
  villager.wander.pause_min_s = 0.5f;
  villager.wander.pause_max_s = 1.f;
  set.add(villager);
  Archetype statue = villager;
  statue.name = "statue";
  statue.wander.radius_m = 0.f;
  statue.sensors.vision = false;  // perceives nothing, so never turns to face anything
  statue.sensors.hearing = false;
  set.add(statue);
  return set;
}

// A new npc's state: what a spawn or an upsert of it carries.
inline EntityState npcAt(uint64_t id, Vec3 at, std::string archetype = "villager") {
  EntityState s;
  s.id = EntityId{id};
  s.kind = EntityKind::kNpc;
  s.position = at;
  s.archetype = std::move(archetype);
  return s;
}

inline Command upsert(uint64_t id, EntityKind kind, Vec3 pos, std::string archetype = {},
                      ClientId origin = ClientId{7}, uint64_t seq = 0) {
  EntityState s;
  s.id = EntityId{id};
  s.kind = kind;
  s.position = pos;
  s.archetype = std::move(archetype);
  return {origin, seq, UpsertEntity{s}};
}

inline Command result(uint64_t agent, IntentionId intention, ActionOutcome outcome,
                      ClientId origin = ClientId{7}) {
  ActionResult r;
  r.agent = EntityId{agent};
  r.intention = intention;
  r.outcome = outcome;
  return {origin, 0, r};
}

inline const ActionOut* findAction(const TickOutput& out, uint64_t agent) {
  for (const auto& a : out.actions) {
    if (a.agent == EntityId{agent}) return &a;
  }
  return nullptr;
}

inline std::vector<EventOut> eventsOf(const TickOutput& out, EventKind kind) {
  std::vector<EventOut> got;
  for (const auto& e : out.events) {
    if (e.kind == kind) got.push_back(e);
  }
  return got;
}

// An archetype with no senses whose one behavior runs behavior tree `tree` (named like it).
inline Archetype treeRunner(const std::string& name, const std::string& tree) {
  Archetype type;
  type.name = name;
  type.species = "human";
  type.sensors.vision = false;
  type.sensors.hearing = false;
  BehaviorDef behavior;
  behavior.name = tree;
  behavior.tree = tree;
  type.behaviors.push_back(behavior);
  type.behavior = tree;
  return type;
}

}  // namespace npc::test
