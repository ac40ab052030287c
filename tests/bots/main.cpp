// npcd-bots: simulated game clients against a running npcd. See tests/bots/README.md.
//
// Exit codes: 0 the run met the scenario's expectations, 1 it did not (or npcd could not be
// reached), 2 bad arguments or a bad scenario file.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "command_line.h"
#include "runner.h"
#include "sim/scale_world.h"
#include "scenario.h"

namespace {

int usageError(const std::string& message) {
  std::fprintf(stderr, "npcd-bots: %s (see --help)\n", message.c_str());
  return 2;
}

int writeScaleWorld(uint32_t agents, const std::string& path) {
  npc::ScaleWorldSpec spec;
  spec.agents = agents;
  const npc::WorldFile world = npc::makeScaleWorld(spec);
  std::ofstream out(path, std::ios::binary);
  out << npc::worldFileJson(world);
  if (!out.flush()) {
    std::fprintf(stderr, "npcd-bots: %s: cannot write\n", path.c_str());
    return 1;
  }
  std::printf("%s: %zu places, %zu entities, %zu scripted players\n", path.c_str(),
              world.places.size(), world.entities.size(), world.players.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  npc::bots::BotsCommandLine cli;
  std::string error;
  if (!npc::bots::parseBotsCommandLine(argc, argv, cli, error)) return usageError(error);
  if (cli.help) {
    std::fputs(cli.help_text.c_str(), stdout);
    return 0;
  }
  if (cli.world_scale > 0) return writeScaleWorld(cli.world_scale, cli.write_world);

  npc::bots::Scenario scenario;
  std::vector<std::string> errors;
  if (!npc::bots::loadScenario(cli.scenario_path, scenario, errors)) {
    for (const std::string& e : errors) std::fprintf(stderr, "npcd-bots: %s\n", e.c_str());
    return 2;
  }
  if (cli.duration_s > 0.0) scenario.duration_s = cli.duration_s;
  return npc::bots::runBots(scenario, cli.options);
}
