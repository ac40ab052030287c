// A simulation on the demo's definitions (config/: archetypes, long actions, behavior trees,
// planner domains, selection trees) with any world, played by the daemon's stand-in game:
// the set-up the state benchmarks share.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>

#include "agent/archetype.h"
#include "demo/demo_game.h"
#include "hibernation/long_action.h"
#include "sim/simulation.h"
#include "sim/world_file.h"

namespace npc::bench {

struct DemoSim {
  std::unique_ptr<Simulation> sim;
  std::unique_ptr<DemoGame> game;
  std::vector<Command> pending;

  // False (and `state` skipped with an error) when the definitions or the world do not load.
  bool load(const WorldFile& world, const SimConfig& config, benchmark::State& state) {
    std::vector<std::string> errors;
    ArchetypeSet archetypes;
    archetypes.loadDirectory(NPCD_SOURCE_DIR "/config/archetypes", errors);
    LongActionLibrary long_actions;
    long_actions.loadFile(NPCD_SOURCE_DIR "/config/long_actions.json", errors);
    sim = std::make_unique<Simulation>(config, std::move(archetypes));
    sim->setLongActions(std::move(long_actions));
    sim->setDefinitionSources({NPCD_SOURCE_DIR "/config/behavior_trees",
                               NPCD_SOURCE_DIR "/config/goap", "",
                               NPCD_SOURCE_DIR "/config/selection_trees"});
    const bool loaded = errors.empty() &&
                        sim->loadDefinitions(DefinitionLoad::kFirst).ok() &&
                        applyWorldFile(world, *sim, errors);
    if (!loaded) {
      state.SkipWithError("the demo definitions or the world did not load");
      return false;
    }
    game = std::make_unique<DemoGame>(world.players);
    return true;
  }

  // Ticks with the game playing the players and completing client actions.
  void run(int ticks) {
    for (int t = 0; t < ticks; ++t) {
      sim->tick();
      game->step(*sim, pending);
      sim->submit(pending);
    }
  }
};

}  // namespace npc::bench
