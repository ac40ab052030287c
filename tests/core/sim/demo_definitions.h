// The demo daemon's definitions from config/ (archetypes, behavior trees, planner domains,
// selection trees) loaded into a new Simulation the way npcd does at start, for tests and
// test programs. No test framework here: problems are returned as text.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sim/simulation.h"

namespace npc::test {

// A simulation with config/'s definitions; `problems` gets every load error and selection
// tree warning (empty: all loaded). Null only when the archetypes did not load.
inline std::unique_ptr<Simulation> makeDemoSimulation(const SimConfig& config,
                                                      std::vector<std::string>& problems) {
  ArchetypeSet archetypes;
  if (!archetypes.loadDirectory(NPCD_SOURCE_DIR "/config/archetypes", problems)) return nullptr;
  auto sim = std::make_unique<Simulation>(config, std::move(archetypes));
  const MbtLoadReport trees = sim->loadBehaviorTrees(NPCD_SOURCE_DIR "/config/behavior_trees");
  if (!trees.ok()) problems.push_back(trees.text());
  const PlannerLoadReport planners = sim->loadPlannerDomains(NPCD_SOURCE_DIR "/config/goap");
  if (!planners.ok()) problems.push_back(planners.text());
  const BstLoadReport selection = sim->loadSelectionTrees(NPCD_SOURCE_DIR "/config/selection_trees");
  if (!selection.ok() || !selection.warnings.empty()) problems.push_back(selection.text());
  return sim;
}

}  // namespace npc::test
