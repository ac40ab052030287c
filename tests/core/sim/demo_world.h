// The demo daemon's definitions from config/ — archetypes, behavior and selection trees,
// GOAP domains and the demo world — loaded into a Simulation the way npcd does at start,
// for tests that run the demo.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "demo_definitions.h"
#include "sim/simulation.h"
#include "sim/world_file.h"

namespace npc::test {

struct DemoWorld {
  WorldFile world;
  std::unique_ptr<Simulation> sim;

  // `edit` changes the world file before it is applied (a test's extra wall).
  explicit DemoWorld(const SimConfig& config = {}, const std::function<void(WorldFile&)>& edit = {}) {
    std::vector<std::string> errors;
    sim = makeDemoSimulation(config, errors);
    std::string problems;
    for (const std::string& e : errors) problems += e + "\n";
    INFO(problems);
    REQUIRE(sim);
    REQUIRE(errors.empty());
    REQUIRE(loadWorldFile(NPCD_SOURCE_DIR "/config/demo.json", world, errors));
    if (edit) edit(world);
    REQUIRE(applyWorldFile(world, *sim, errors));
    INFO(errors.size());
    REQUIRE(errors.empty());
  }
};

}  // namespace npc::test
