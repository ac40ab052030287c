// Builds the simulation a daemon config describes: archetypes, long actions, influences,
// behavior trees, planner domains, selection trees and the world file, loaded in that order
// and reported as at start-up (warnings logged, errors returned). The daemon runs it; `npcd
// replay` rebuilds the same one to replay a journal against.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "config.h"

namespace npc {

class Simulation;
struct WorldFile;

// False with `errors` when a definition or the world does not load.
bool buildSimulation(const DaemonConfig& config, std::unique_ptr<Simulation>& sim, WorldFile& world,
                     std::vector<std::string>& errors);

}  // namespace npc
