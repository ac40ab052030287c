// `npcd check [CONFIG.json|DIR]` and `npcd --config FILE --check`: loads everything a
// config names — archetypes, the world file, long actions, influences, behavior trees,
// planner domains, selection trees — as the daemon does at start (server/sim_builder.h),
// without listening or ticking, and prints every diagnostic, errors then warnings, one per
// line as "file:line: message" with paths relative to the config's directory. A DIR is a
// definitions directory holding npcd.json. Exit 0 when nothing is wrong (warnings
// allowed), 1 when there are errors, 2 when the config itself cannot be read.
#pragma once

#include <string>
#include <vector>

#include "config.h"

namespace npc {

struct CheckCommandResult {
  int exit_code = 0;
  std::string out;  // the summary line
  std::string err;  // the diagnostics
};

CheckCommandResult checkCommandMain(const std::vector<std::string>& args);
// The check of a config already resolved (npcd --check).
CheckCommandResult checkConfig(const DaemonConfig& config);

}  // namespace npc
