// The demo daemon's definitions from config/ — archetypes, behavior and selection trees,
// GOAP domains and the demo world — loaded into a Simulation the way npcd does at start,
// for tests that run the demo.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "sim/simulation.h"
#include "sim/world_file.h"

namespace npc::test {

struct DemoWorld {
  WorldFile world;
  std::unique_ptr<Simulation> sim;

  // `edit` changes the world file before it is applied (a test's extra wall).
  explicit DemoWorld(const SimConfig& config = {}, const std::function<void(WorldFile&)>& edit = {}) {
    std::vector<std::string> errors;
    ArchetypeSet archetypes;
    REQUIRE(archetypes.loadDirectory(NPCD_SOURCE_DIR "/config/archetypes", errors));
    REQUIRE(loadWorldFile(NPCD_SOURCE_DIR "/config/demo.json", world, errors));
    if (edit) edit(world);
    sim = std::make_unique<Simulation>(config, std::move(archetypes));
    const MbtLoadReport behavior_trees = sim->loadBehaviorTrees(NPCD_SOURCE_DIR "/config/behavior_trees");
    INFO(behavior_trees.text());
    REQUIRE(behavior_trees.ok());
    const PlannerLoadReport planners = sim->loadPlannerDomains(NPCD_SOURCE_DIR "/config/goap");
    INFO(planners.text());
    REQUIRE(planners.ok());
    const BstLoadReport selection = sim->loadSelectionTrees(NPCD_SOURCE_DIR "/config/selection_trees");
    INFO(selection.text());
    REQUIRE(selection.ok());
    REQUIRE(selection.warnings.empty());
    REQUIRE(applyWorldFile(world, *sim, errors));
    INFO(errors.size());
    REQUIRE(errors.empty());
  }
};

}  // namespace npc::test
