// The demo daemon's whole definition set (config/npcd.json: archetypes, trees, domains,
// long actions, influences, hibernation after 20 quiet seconds, the demo world), loaded the
// way npcd loads it, with the daemon's stand-in game; for the snapshot tests.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "agent/archetype.h"
#include "demo/demo_game.h"
#include "hibernation/long_action.h"
#include "sim/simulation.h"
#include "sim/world_file.h"

namespace npc::test {

struct DemoStateWorld {
  WorldFile world;
  std::unique_ptr<Simulation> sim;
  std::unique_ptr<DemoGame> game;
  std::vector<Command> pending;

  DemoStateWorld() : DemoStateWorld(nullptr) {}
  static SimConfig demoConfig() {
    SimConfig config;
    config.hibernation.quiet_s = 20.0;
    return config;
  }
  // The same definitions with another world (a generated scale world, say), or config.
  explicit DemoStateWorld(const WorldFile* other, SimConfig config = demoConfig()) {
    std::vector<std::string> errors;
    ArchetypeSet archetypes;
    REQUIRE(archetypes.loadDirectory(NPCD_SOURCE_DIR "/config/archetypes", errors));
    if (other) {
      world = *other;
    } else {
      REQUIRE(loadWorldFile(NPCD_SOURCE_DIR "/config/demo.json", world, errors));
    }
    LongActionLibrary long_actions;
    REQUIRE(long_actions.loadFile(NPCD_SOURCE_DIR "/config/long_actions.json", errors));
    InfluenceSet influences;
    REQUIRE(influences.loadFile(NPCD_SOURCE_DIR "/config/actions/influences.json", errors));
    sim = std::make_unique<Simulation>(config, std::move(archetypes));
    REQUIRE(sim->setLongActions(std::move(long_actions)).empty());
    REQUIRE(sim->setInfluences(influences).empty());
    sim->setDefinitionSources({NPCD_SOURCE_DIR "/config/behavior_trees",
                               NPCD_SOURCE_DIR "/config/goap", "",
                               NPCD_SOURCE_DIR "/config/selection_trees"});
    REQUIRE(sim->loadDefinitions(DefinitionLoad::kFirst).ok());
    REQUIRE(applyWorldFile(world, *sim, errors));
    REQUIRE(errors.empty());
    game = std::make_unique<DemoGame>(world.players);
  }

  // Ticks with the stand-in game playing the players and completing client actions.
  void run(int ticks) {
    for (int t = 0; t < ticks; ++t) {
      sim->tick();
      game->step(*sim, pending);
      REQUIRE(sim->submit(pending));
    }
  }
};

}  // namespace npc::test
