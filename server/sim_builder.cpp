#include "sim_builder.h"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "agent/archetype.h"
#include "base/worker_pool.h"
#include "hibernation/long_action.h"
#include "logging.h"
#include "sim/simulation.h"
#include "sim/world_file.h"

namespace npc {

namespace {

SimConfig simConfig(const DaemonConfig& config) {
  SimConfig sim_config;
  sim_config.tick_dt_s = 1.0 / config.tick_hz;
  sim_config.seed = config.seed;
  sim_config.max_agents = config.max_agents;
  sim_config.world.grid_cell_size_m = static_cast<float>(config.grid_cell_m);
  sim_config.world.bounds = config.world_bounds;
  sim_config.perception = config.perception;
  sim_config.derive_footsteps = config.derive_footsteps;
  sim_config.threads = config.tick_threads != 0 ? config.tick_threads : WorkerPool::hardwareThreads();
  sim_config.hibernation = config.hibernation;
  sim_config.detail = config.detail;
  sim_config.max_plans_per_tick = config.max_plans_per_tick;
  sim_config.leased_places = config.cluster.enabled;
  return sim_config;
}

void checkClusterPlaces(const DaemonConfig& config, const WorldFile& world,
                        std::vector<std::string>& errors) {
  for (const std::string& place : config.cluster.places) {
    const bool known = std::any_of(world.places.begin(), world.places.end(),
                                   [&](const Place& p) { return p.name == place; });
    if (!known) {
      errors.push_back(config.source + ": /cluster/places: \"" + place + "\" is not a place of " +
                       (config.world.empty() ? std::string("the (empty) world") : config.world));
    }
  }
}

// Running, the definitions' warnings and the errors that leave a kind running are logged;
// a kind that loaded nothing stops the start.
bool takeDefinitionReport(const DefinitionReport& report, SimBuildMode mode,
                          std::vector<std::string>& errors, std::vector<std::string>* warnings) {
  if (mode == SimBuildMode::kCheck) {
    errors.insert(errors.end(), report.errors.begin(), report.errors.end());
    if (warnings) warnings->insert(warnings->end(), report.warnings.begin(), report.warnings.end());
    return report.ok();
  }
  for (const std::string& w : report.warnings) spdlog::warn(logText(w));
  if (!report.refused.empty()) {
    errors.insert(errors.end(), report.errors.begin(), report.errors.end());
    return false;
  }
  for (const std::string& e : report.errors) spdlog::error(logText(e));  // the rest run
  return true;
}

}  // namespace

DefinitionSources definitionSources(const DaemonConfig& config) {
  DefinitionSources sources;
  sources.behavior_trees_dir = config.behavior_trees_dir;
  sources.goap_dir = config.goap_dir;
  sources.goap_statistics_dir = config.goap_statistics_dir;
  sources.selection_trees_dir = config.selection_trees_dir;
  sources.archetypes_dir = config.archetypes_dir;
  sources.long_actions_file = config.long_actions;
  sources.influences_file = config.influences;
  return sources;
}

bool buildSimulation(const DaemonConfig& config, std::unique_ptr<Simulation>& sim, WorldFile& world,
                     std::vector<std::string>& errors, SimBuildMode mode,
                     std::vector<std::string>* warnings) {
  const bool check = mode == SimBuildMode::kCheck;
  // Running stops at the first part that fails; checking goes on to hear the rest.
  auto stop = [&] { return !check && !errors.empty(); };
  ArchetypeSet archetypes;
  if (!config.archetypes_dir.empty()) archetypes.loadDirectory(config.archetypes_dir, errors);
  const size_t before_world = errors.size();
  if (!config.world.empty()) loadWorldFile(config.world, world, errors, config.world_bounds);
  const bool world_ok = errors.size() == before_world;
  if (stop()) return false;
  checkClusterPlaces(config, world, errors);
  if (stop()) return false;
  LongActionLibrary long_actions;
  if (!config.long_actions.empty()) long_actions.loadFile(config.long_actions, errors);
  if (stop()) return false;
  InfluenceSet influences;
  const size_t before_influences = errors.size();
  if (!config.influences.empty()) influences.loadFile(config.influences, errors);
  const bool influences_ok = errors.size() == before_influences;
  if (stop()) return false;

  sim = std::make_unique<Simulation>(simConfig(config), std::move(archetypes));
  for (std::string& e : sim->setLongActions(std::move(long_actions))) errors.push_back(std::move(e));
  if (influences_ok) {
    for (std::string& e : sim->setInfluences(influences)) errors.push_back(config.influences + ": " + e);
  }
  if (stop()) return false;
  sim->setDefinitionSources(definitionSources(config));
  const bool definitions_ok = takeDefinitionReport(sim->loadDefinitions(DefinitionLoad::kFirst),
                                                   mode, errors, warnings);
  if (!check && !definitions_ok) return false;
  if (world_ok && !applyWorldFile(world, *sim, errors) && !check) return false;
  return errors.empty();
}

}  // namespace npc
