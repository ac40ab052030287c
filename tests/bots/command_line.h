// npcd-bots' command line, parsed by CLI11 (the generated --help lists every flag, its
// default and its environment variable).
#pragma once

#include <cstdint>
#include <string>

#include "runner.h"

namespace npc::bots {

struct BotsCommandLine {
  std::string scenario_path;
  RunOptions options;          // --target, --token
  double duration_s = 0.0;     // 0: the scenario's duration_s
  uint32_t world_scale = 0;    // with write_world: write a scale world and exit
  std::string write_world;
  bool help = false;
  std::string help_text;       // the generated help, when `help`
};

// False with `error` naming the flag and what is wrong with its value.
bool parseBotsCommandLine(int argc, const char* const* argv, BotsCommandLine& out,
                          std::string& error);
std::string botsUsage();

}  // namespace npc::bots
