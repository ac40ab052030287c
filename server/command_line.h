// npcd's command line, parsed by CLI11: every flag, its default and the environment
// variable that can set it in one table (the generated --help), and the config overrides
// the flags make.
//
// Precedence, lowest first: the built-in defaults, the config file, the environment
// (NPCD_LISTEN, ...), the flags. `npcd plan ...` is a separate tool (main.cpp hands its
// arguments to core/goap/plan_command.h) and only named here in the help's footer.
#pragma once

#include <string>
#include <vector>

#include "config.h"

namespace npc {

struct CommandLine {
  std::string config_path;
  std::string listen;
  std::string metrics_listen;
  std::string debug_listen;
  std::string log_level;
  std::string restore;  // --restore latest|FILE
  bool help = false;     // --help / -h: print usage() and exit 0
  bool version = false;  // --version: print versionLine() (build_info.h) and exit 0
  bool check = false;    // --check: load every definition, print diagnostics, exit (check_command.h)
};

// False with `error` naming the flag (CLI11's message, then "(see --help)"). Reads the
// environment for flags not given.
bool parseCommandLine(int argc, const char* const* argv, CommandLine& out, std::string& error);
// The generated help: every flag with its value name, environment variable and description.
std::string usage();

// Loads the file named on the command line (if any) and applies flag overrides.
bool resolveConfig(const CommandLine& cli, DaemonConfig& config, std::vector<std::string>& errors);

}  // namespace npc
