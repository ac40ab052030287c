// Scale worlds: N agents of the demo archetypes over many places, with players and objects,
// loadable by npcd as a world file.
#include <catch2/catch.hpp>

#include <map>

#include "demo/demo_game.h"
#include "sim/scale_world.h"
#include "sim/simulation.h"

using namespace npc;

namespace {

std::map<std::string, size_t> countByArchetype(const WorldFile& w) {
  std::map<std::string, size_t> n;
  for (const EntityState& s : w.entities) {
    if (s.kind == EntityKind::kNpc) ++n[s.archetype];
  }
  return n;
}

}  // namespace

TEST_CASE("makeScaleWorld spreads the agents over places by the archetype mix", "[sim][scale]") {
  ScaleWorldSpec spec;
  spec.agents = 1200;
  spec.agents_per_place = 500;
  const WorldFile w = makeScaleWorld(spec);

  SECTION("Should make one place per agents_per_place, the last one partial") {
    REQUIRE(w.places.size() == 3);
    CHECK(w.places[2].name == "p2");
    CHECK(w.obstacles.size() == 3 * 8);
    CHECK(w.players.size() == 3 * spec.players_per_place);
  }
  SECTION("Should follow the mix's weights (per 100: 40 villagers ... 1 pyromaniac)") {
    const auto n = countByArchetype(w);
    CHECK(n.at("villager") == 480);
    CHECK(n.at("woodcutter") == 240);
    CHECK(n.at("guard") == 300);
    CHECK(n.at("wolf") == 168);
    CHECK(n.at("pyromaniac") == 12);
  }
  SECTION("Should give every pyromaniac an object to burn and keep everything in its place") {
    size_t objects = 0;
    size_t agents = 0;
    for (const EntityState& s : w.entities) {
      objects += s.kind == EntityKind::kObject;
      if (s.kind != EntityKind::kNpc) continue;
      const Place& place = w.places[agents++ / spec.agents_per_place];
      INFO(raw(s.id));
      CHECK(place.bounds.contains(*s.position));
    }
    CHECK(objects == 12);
    CHECK(agents == 1200);
    CHECK(raw(w.entities.front().id) == spec.first_agent_id);
  }
  SECTION("Should give the same world for the same spec") {
    CHECK(worldFileJson(makeScaleWorld(spec)) == worldFileJson(w));
  }
}

TEST_CASE("A scale world survives a round trip through world-file JSON", "[sim][scale]") {
  ScaleWorldSpec spec;
  spec.agents = 300;
  spec.agents_per_place = 100;
  const WorldFile w = makeScaleWorld(spec);
  WorldFile back;
  std::vector<std::string> errors;
  REQUIRE(parseWorldFile("scale.json", worldFileJson(w), back, errors));
  REQUIRE(errors.empty());
  CHECK(back.places.size() == w.places.size());
  CHECK(back.obstacles.size() == w.obstacles.size());
  REQUIRE(back.entities.size() == w.entities.size());
  CHECK(back.entities[7].archetype == w.entities[7].archetype);
  CHECK(back.entities[7].position->x == w.entities[7].position->x);
  REQUIRE(back.players.size() == w.players.size());
  CHECK(back.players[1].route.size() == 4);
  CHECK(worldFileJson(back) == worldFileJson(w));
}

TEST_CASE("A scale world runs with the demo's definitions and keeps every phase busy",
          "[sim][scale]") {
  ScaleWorldSpec spec;
  spec.agents = 400;
  spec.agents_per_place = 100;
  const WorldFile w = makeScaleWorld(spec);
  std::vector<std::string> errors;
  ArchetypeSet archetypes;
  REQUIRE(archetypes.loadDirectory(NPCD_SOURCE_DIR "/config/archetypes", errors));
  SimConfig config;
  config.hibernation.enabled = false;
  Simulation sim(config, std::move(archetypes));
  sim.setDefinitionSources({NPCD_SOURCE_DIR "/config/behavior_trees", NPCD_SOURCE_DIR "/config/goap",
                            "", NPCD_SOURCE_DIR "/config/selection_trees"});
  REQUIRE(sim.loadDefinitions(DefinitionLoad::kFirst).ok());
  REQUIRE(applyWorldFile(w, sim, errors));
  DemoGame game(w.players);
  std::vector<Command> commands;
  for (int t = 0; t < 100; ++t) {
    sim.tick();
    game.step(sim, commands);
    REQUIRE(sim.submit(commands));
  }
  const SimStats s = sim.stats();
  CHECK(s.agents == 400);
  CHECK(s.places == 4);
  CHECK(s.actions_emitted > 400);     // built-in behaviors and trees program actions
  CHECK(s.behavior_changes > 0);      // players walk by: selection trees switch
  CHECK(s.perception_rays > 0);
  CHECK(s.plans > 0);                 // the pyromaniacs plan
}
