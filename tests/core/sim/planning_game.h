// A stand-in game for planning tests: it performs one agent's actions (moves it where
// MoveTo says, completes the rest or fails the ones it is told to) and records them.
#pragma once

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "base/json_reader.h"
#include "sim_fixture.h"

namespace npc::test {

// Plays the game for one agent: moves it where MoveTo says, completes every other action
// (or fails the ones named in `fail`), and records what it was asked to do.
struct Game {
  Simulation& sim;
  uint64_t agent;
  std::vector<std::string> done;         // action names, in order
  std::vector<EntityId> objects;         // the "object" argument of each action (or none)
  std::map<std::string, int> fail;       // name -> failures left to report

  void tick() {
    sim.tick();
    for (const ActionOut& a : sim.output().actions) {
      if (a.agent != EntityId{agent}) continue;
      const std::string name = sim.names().name(a.name);
      EntityId object = EntityId::kNone;
      for (uint8_t i = 0; i < a.param_count; ++i) {
        const ActionParam& p = a.params[i];
        if (p.type == ActionParam::Type::kPosition && name == "MoveTo") {
          REQUIRE(sim.submit(upsert(agent, EntityKind::kNpc, p.position)));
        }
        if (p.type == ActionParam::Type::kEntity && sim.names().name(p.name) == "object") object = p.entity;
      }
      done.push_back(name);
      objects.push_back(object);
      ActionOutcome outcome = ActionOutcome::kCompleted;
      if (fail[name] > 0) {
        --fail[name];
        outcome = ActionOutcome::kFailed;
      }
      REQUIRE(sim.submit(result(agent, a.intention, outcome)));
    }
  }
  void run(int ticks) {
    for (int i = 0; i < ticks; ++i) tick();
  }
  int count(const std::string& name) const {
    return static_cast<int>(std::count(done.begin(), done.end(), name));
  }
};

// Archetypes from JSON text, which must load cleanly.
inline ArchetypeSet archetypesFrom(const char* text) {
  ArchetypeSet set;
  JsonReader reader("archetypes.json");
  nlohmann::json j;
  REQUIRE(reader.parse(text, j));
  set.loadObject(j, reader);
  INFO(reader.errors().size());
  REQUIRE(reader.ok());
  return set;
}

// 10 ticks a second, no footsteps, no hibernation unless a test turns it on.
inline SimConfig planningConfig() {
  SimConfig c;
  c.tick_dt_s = 0.1;
  c.derive_footsteps = false;
  c.hibernation.enabled = false;
  return c;
}

inline nlohmann::json describe(Simulation& sim, uint64_t id) {
  std::string json;
  REQUIRE(sim.describeAgent(EntityId{id}, json).isOk());
  return nlohmann::json::parse(json);
}

}  // namespace npc::test
