// The demo daemon's definitions from config/ (archetypes, long actions, behavior trees,
// planner domains, selection trees) loaded into a new Simulation the way npcd does at start, for tests and
// test programs. No test framework here: problems are returned as text.
#pragma once

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/json_reader.h"
#include "perception/perception_config.h"
#include "sim/simulation.h"

namespace npc::test {

// The demo daemon's perception tuning (config/npcd.json's "perception": the flowers Raoul
// must have seen to take them are registered there); `problems` gets its errors.
inline SimConfig demoSimConfig(std::vector<std::string>& problems) {
  SimConfig config;
  std::ifstream in(NPCD_SOURCE_DIR "/config/npcd.json");
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.contains("perception")) {
    problems.push_back("config/npcd.json: no perception section");
    return config;
  }
  JsonReader r("config/npcd.json");
  readPerceptionConfig(j["perception"], "/perception", r, config.perception);
  for (const std::string& e : r.errors()) problems.push_back(e);
  return config;
}

// A simulation with config/'s definitions; `problems` gets every load error and selection
// tree warning (empty: all loaded). Null only when the archetypes did not load.
inline std::unique_ptr<Simulation> makeDemoSimulation(const SimConfig& config,
                                                      std::vector<std::string>& problems) {
  ArchetypeSet archetypes;
  if (!archetypes.loadDirectory(NPCD_SOURCE_DIR "/config/archetypes", problems)) return nullptr;
  auto sim = std::make_unique<Simulation>(config, std::move(archetypes));
  LongActionLibrary long_actions;
  if (!long_actions.loadFile(NPCD_SOURCE_DIR "/config/long_actions.json", problems)) return nullptr;
  for (std::string& e : sim->setLongActions(std::move(long_actions))) problems.push_back(std::move(e));
  sim->setDefinitionSources({NPCD_SOURCE_DIR "/config/behavior_trees", NPCD_SOURCE_DIR "/config/goap",
                             "", NPCD_SOURCE_DIR "/config/selection_trees"});
  const DefinitionReport report = sim->loadDefinitions(DefinitionLoad::kFirst);
  if (!report.ok() || !report.warnings.empty()) problems.push_back(report.text());
  return sim;
}

}  // namespace npc::test
