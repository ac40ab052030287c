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

bool buildSimulation(const DaemonConfig& config, std::unique_ptr<Simulation>& sim, WorldFile& world,
                     std::vector<std::string>& errors) {
  ArchetypeSet archetypes;
  if (!config.archetypes_dir.empty()) archetypes.loadDirectory(config.archetypes_dir, errors);
  if (!config.world.empty()) loadWorldFile(config.world, world, errors, config.world_bounds);
  if (!errors.empty()) return false;

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
  for (const std::string& place : config.cluster.places) {
    const bool known = std::any_of(world.places.begin(), world.places.end(),
                                   [&](const Place& p) { return p.name == place; });
    if (!known) {
      errors.push_back(config.source + ": /cluster/places: \"" + place + "\" is not a place of " +
                       (config.world.empty() ? std::string("the (empty) world") : config.world));
    }
  }
  if (!errors.empty()) return false;
  LongActionLibrary long_actions;
  if (!config.long_actions.empty() && !long_actions.loadFile(config.long_actions, errors)) {
    return false;
  }
  InfluenceSet influences;
  if (!config.influences.empty() && !influences.loadFile(config.influences, errors)) {
    return false;
  }
  sim = std::make_unique<Simulation>(sim_config, std::move(archetypes));
  for (std::string& e : sim->setLongActions(std::move(long_actions))) errors.push_back(std::move(e));
  for (std::string& e : sim->setInfluences(influences)) errors.push_back(config.influences + ": " + e);
  if (!errors.empty()) return false;
  if (!config.behavior_trees_dir.empty()) {
    const MbtLoadReport report = sim->loadBehaviorTrees(config.behavior_trees_dir);
    for (const std::string& w : report.warnings) spdlog::warn(logText(w));
    // At start-up the trees without errors load despite a broken file (report.trees > 0).
    if (!report.ok() && report.trees == 0) {
      errors.insert(errors.end(), report.errors.begin(), report.errors.end());
      return false;
    }
    for (const std::string& e : report.errors) spdlog::error(logText(e));  // the rest run
  }
  if (!config.goap_dir.empty()) {
    const PlannerLoadReport report = sim->loadPlannerDomains(config.goap_dir, config.goap_statistics_dir);
    if (!report.ok()) {
      errors.insert(errors.end(), report.errors.begin(), report.errors.end());
      return false;
    }
  }
  if (!config.selection_trees_dir.empty()) {
    const BstLoadReport report = sim->loadSelectionTrees(config.selection_trees_dir);
    for (const std::string& w : report.warnings) spdlog::warn(logText(w));
    // At start-up the trees without errors load despite a broken file (report.trees > 0).
    if (!report.ok() && report.trees == 0) {
      errors.insert(errors.end(), report.errors.begin(), report.errors.end());
      return false;
    }
    for (const std::string& e : report.errors) spdlog::error(logText(e));  // the rest run
  }
  if (!applyWorldFile(world, *sim, errors)) return false;
  return true;
}

}  // namespace npc
