// Builds the simulation a daemon config describes: archetypes, the world file, long
// actions, influences, then the behavior definitions (core/sim/definition_set.h: behavior
// trees, planner domains, selection trees) and the world's entities. The daemon runs it;
// `npcd replay` rebuilds the same one to replay a journal against; `npcd check` builds it
// only to hear every diagnostic.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "config.h"
#include "sim/definition_set.h"

namespace npc {

class Simulation;
struct WorldFile;

enum class SimBuildMode : uint8_t {
  // Stops at the first part that does not load. Definition warnings, and errors in tree
  // files that leave healthy trees running, are logged; the rest are returned.
  kRun,
  // Goes on past every error, as far as the parts that loaded allow, and logs nothing:
  // every error and warning is returned ("file:line: message"), for `npcd check`.
  kCheck,
};

// False with `errors` when a part does not load (kCheck: when anything has an error).
bool buildSimulation(const DaemonConfig& config, std::unique_ptr<Simulation>& sim, WorldFile& world,
                     std::vector<std::string>& errors, SimBuildMode mode = SimBuildMode::kRun,
                     std::vector<std::string>* warnings = nullptr);

// The definition sources a config names, for Simulation::setDefinitionSources.
DefinitionSources definitionSources(const DaemonConfig& config);

}  // namespace npc
