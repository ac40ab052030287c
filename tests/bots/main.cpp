// npcd-bots: simulated game clients against a running npcd. See tests/bots/README.md.
//
// Exit codes: 0 the run met the scenario's expectations, 1 it did not (or npcd could not be
// reached), 2 bad arguments or a bad scenario file.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "runner.h"
#include "sim/scale_world.h"
#include "scenario.h"

namespace {

constexpr const char* kUsage =
    "usage: npcd-bots --scenario FILE [--target HOST:PORT] [--duration S] [--token TOKEN]\n"
    "       npcd-bots --world-scale N --write-world FILE\n"
    "\n"
    "Runs simulated game clients against npcd: each opens a Connect stream, streams its\n"
    "players and NPCs at the scenario's rate, executes the actions it receives and reports\n"
    "their results. Prints a line every second and a final report.\n"
    "\n"
    "  --scenario FILE     scenario JSON (config/bots/*.json); required\n"
    "  --target HOST:PORT  npcd address (default 127.0.0.1:50051)\n"
    "  --duration S        measured seconds, overriding the scenario's duration_s\n"
    "  --token TOKEN       bearer token for npcd's auth (default: $NPCD_AUTH_TOKEN)\n"
    "  --world-scale N     with --write-world: write a world file for npcd (\"world\") with N\n"
    "                      agents of the demo archetypes over N/500 places, 2 scripted\n"
    "                      players per place and objects for the planners (core/sim/\n"
    "                      scale_world.h), then exit\n"
    "  --write-world FILE  where --world-scale writes\n"
    "  --help              this text\n"
    "\n"
    "Exit code: 0 the scenario's expectations held, 1 they did not or npcd was unreachable,\n"
    "2 bad arguments or scenario.\n";

int usageError(const std::string& message) {
  std::fprintf(stderr, "npcd-bots: %s\n%s", message.c_str(), kUsage);
  return 2;
}

int writeScaleWorld(const std::string& scale_text, const std::string& path) {
  char* end = nullptr;
  const unsigned long long n = std::strtoull(scale_text.c_str(), &end, 10);
  if (scale_text.empty() || end == scale_text.c_str() || *end != '\0' || n < 1 || n > 10000000) {
    return usageError("--world-scale: expected an agent count in [1, 10000000], got \"" +
                      scale_text + "\"");
  }
  if (path.empty()) return usageError("--world-scale needs --write-world FILE");
  npc::ScaleWorldSpec spec;
  spec.agents = static_cast<uint32_t>(n);
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
  npc::bots::RunOptions options;
  if (const char* token = std::getenv("NPCD_AUTH_TOKEN"); token != nullptr) options.token = token;
  std::string scenario_path;
  std::string duration_text;
  std::string scale_text;
  std::string world_path;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    std::string* target = nullptr;
    if (arg == "--scenario") {
      target = &scenario_path;
    } else if (arg == "--target") {
      target = &options.target;
    } else if (arg == "--duration") {
      target = &duration_text;
    } else if (arg == "--token") {
      target = &options.token;
    } else if (arg == "--world-scale") {
      target = &scale_text;
    } else if (arg == "--write-world") {
      target = &world_path;
    } else {
      return usageError("unknown argument " + std::string(arg));
    }
    if (i + 1 >= argc) return usageError(std::string(arg) + " needs a value");
    *target = argv[++i];
  }
  if (!scale_text.empty() || !world_path.empty()) return writeScaleWorld(scale_text, world_path);
  if (scenario_path.empty()) return usageError("--scenario is required");
  if (options.target.empty()) return usageError("--target must not be empty");

  npc::bots::Scenario scenario;
  std::vector<std::string> errors;
  if (!npc::bots::loadScenario(scenario_path, scenario, errors)) {
    for (const std::string& e : errors) std::fprintf(stderr, "npcd-bots: %s\n", e.c_str());
    return 2;
  }
  if (!duration_text.empty()) {
    char* end = nullptr;
    const double d = std::strtod(duration_text.c_str(), &end);
    if (end == duration_text.c_str() || *end != '\0' || !std::isfinite(d) || d <= 0.0) {
      return usageError("--duration: expected seconds > 0, got \"" + duration_text + "\"");
    }
    scenario.duration_s = d;
  }
  return npc::bots::runBots(scenario, options);
}
