// Two seed rules checked through the simulation: the vision shortcut for a single species
// (seed 000: "where the player is facing a single species, no visibility determination is
// performed between AI enemy objects, only against the player") and an agent with no
// selection tree facing its attention target (seed 001: "No Behavior").
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "sim/simulation.h"
#include "sim_fixture.h"

using namespace npc;

namespace {

ArchetypeSet lookouts() {
  ArchetypeSet set;
  for (const char* species : {"human", "wolf"}) {
    Archetype a;
    a.name = species;
    a.species = species;
    a.sensors.sight_range_m = 30.f;
    a.sensors.fov_deg = 360.f;
    set.add(a);  // no selection tree, no behavior: "No Behavior", faces its target
  }
  return set;
}

void spawn(Simulation& sim, uint64_t id, const char* archetype, Vec3 at) {
  sim.submit(test::upsert(id, EntityKind::kNpc, at, archetype, ClientId{1}));
}

void player(Simulation& sim, uint64_t id, Vec3 at) {
  sim.submit(test::upsert(id, EntityKind::kPlayer, at, "", ClientId{1}));
}

struct Looked {
  uint64_t full_updates = 0;
  uint64_t candidates = 0;
};

Looked look(Simulation& sim, int ticks) {
  Looked l;
  for (int t = 0; t < ticks; ++t) {
    sim.tick();
    l.full_updates += sim.perception().lastTick().full_updates;
    l.candidates += sim.perception().lastTick().candidates;
  }
  return l;
}

// The ids in the agent's visibility list, ascending.
std::vector<uint64_t> visible(Simulation& sim, uint64_t agent) {
  std::string json;
  REQUIRE(sim.describeAgent(EntityId{agent}, json).isOk());
  const nlohmann::json view = nlohmann::json::parse(json);
  std::vector<uint64_t> ids;
  for (const auto& t : view["perception"]["visible"]) {
    ids.push_back(t["target"].get<uint64_t>());
  }
  return ids;
}

}  // namespace

TEST_CASE("Vision skips NPCs of the only species that perceives", "[sim][perception]") {
  SimConfig config;
  config.derive_footsteps = false;
  Simulation sim(config, lookouts());
  for (uint64_t id = 10; id < 16; ++id) spawn(sim, id, "human", {static_cast<float>(id), 0, 0});
  player(sim, 1, {12, 5, 0});
  sim.tick();

  SECTION("Should examine only the player when every perceiver is human") {
    const Looked l = look(sim, 20);
    REQUIRE(l.full_updates > 0);
    REQUIRE(l.candidates == l.full_updates);  // one candidate each: the player
    REQUIRE(visible(sim, 10) == std::vector<uint64_t>{1});  // the player only
  }
  SECTION("Should make the humans targets again once a wolf perceives too") {
    spawn(sim, 20, "wolf", {12, -5, 0});
    sim.tick();
    const Looked l = look(sim, 20);
    // Candidates per full update: each human the player and the wolf (never another human,
    // the grid keeps them from its query); the wolf the player and all six humans.
    REQUIRE(l.full_updates > 0);
    REQUIRE(l.candidates * 7 == l.full_updates * (6 * 2 + 7));
    // The wolf sees the six humans at once (the player it notices gradually)...
    const std::vector<uint64_t> by_wolf = visible(sim, 20);
    REQUIRE(by_wolf.size() >= 6);
    REQUIRE(std::vector<uint64_t>(by_wolf.end() - 6, by_wolf.end()) ==
            std::vector<uint64_t>{10, 11, 12, 13, 14, 15});
    // ...while a human still sees no other human: the player and the wolf.
    REQUIRE(visible(sim, 10) == std::vector<uint64_t>{1, 20});
  }
}

TEST_CASE("An agent with no selection tree turns to face its attention target",
          "[sim][behavior]") {
  SimConfig config;
  config.derive_footsteps = false;
  Simulation sim(config, lookouts());
  spawn(sim, 10, "human", {0, 0, 0});
  sim.tick();
  player(sim, 1, {5, 0, 0});
  std::vector<ActionOut> turns;
  for (int t = 0; t < 40; ++t) {
    sim.tick();
    for (const ActionOut& a : sim.output().actions) {
      if (sim.names().name(a.name) != "TurnTo") continue;
      turns.push_back(a);
      ActionResult r;
      r.agent = a.agent;
      r.intention = a.intention;
      sim.submit({ClientId{1}, 0, r});
    }
  }

  SECTION("Should turn once towards the player it sees") {
    REQUIRE(turns.size() == 1);
    REQUIRE(turns[0].agent == EntityId{10});
    REQUIRE(turns[0].params[0].entity == EntityId{1});
    std::string json;
    REQUIRE(sim.describeAgent(EntityId{10}, json).isOk());
    REQUIRE(nlohmann::json::parse(json)["behavior"]["mode"] == "face_target");
  }
}
