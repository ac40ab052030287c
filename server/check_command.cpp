#include "check_command.h"

#include <filesystem>
#include <memory>

#include "command_line.h"
#include "sim/simulation.h"
#include "sim/world_file.h"
#include "sim_builder.h"

namespace npc {

namespace {

namespace fs = std::filesystem;

constexpr const char* kUsage = "usage: npcd check [CONFIG.json|DIR]\n";

// "/srv/npc/config/goap/guard.json: ..." reads "goap/guard.json: ..." for a config in
// /srv/npc/config: the designer's view of the files, wherever the check runs.
std::string relativeToConfig(const std::string& config_dir, const std::string& message) {
  if (config_dir.empty()) return message;
  const std::string prefix = config_dir + "/";
  if (message.compare(0, prefix.size(), prefix) == 0) return message.substr(prefix.size());
  return message;
}

// A directory stands for the npcd.json in it.
std::string configPath(const std::string& arg) {
  std::error_code ec;
  if (fs::is_directory(arg, ec)) return (fs::path(arg) / "npcd.json").string();
  return arg;
}

std::string plural(size_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace

CheckCommandResult checkConfig(const DaemonConfig& config) {
  CheckCommandResult result;
  std::unique_ptr<Simulation> sim;
  WorldFile world;
  std::vector<std::string> errors, warnings;
  const bool built = buildSimulation(config, sim, world, errors, SimBuildMode::kCheck, &warnings);
  // One tick applies the world file's entities: what the simulation refuses of them (an
  // npc its archetype cannot place, say) is an error of the world file too.
  if (built) {
    sim->tick();
    for (const EventOut& e : sim->output().events) {
      if (e.kind == EventKind::kError) errors.push_back(config.world + ": " + e.text);
    }
  }
  std::string config_dir;
  if (!config.source.empty()) {
    config_dir = fs::path(config.source).parent_path().lexically_normal().string();
  }
  for (const std::string& e : errors) result.err += relativeToConfig(config_dir, e) + "\n";
  for (const std::string& w : warnings) {
    result.err += relativeToConfig(config_dir, w) + " (warning)\n";
  }
  const std::string what = config.source.empty() ? "the built-in config" : config.source;
  result.out = what + ": " + plural(errors.size(), "error") + ", " +
               plural(warnings.size(), "warning");
  if (built && errors.empty()) {
    const SimStats stats = sim->stats();
    result.out += " (" + plural(world.places.size(), "place") + ", " +
                  plural(stats.agents, "agent") + " in the world file)";
  }
  result.out += "\n";
  result.exit_code = errors.empty() ? 0 : 1;
  return result;
}

CheckCommandResult checkCommandMain(const std::vector<std::string>& args) {
  if (args.size() > 1 || (args.size() == 1 && (args[0] == "-h" || args[0] == "--help"))) {
    return {args.size() == 1 ? 0 : 2, args.size() == 1 ? kUsage : "", args.size() == 1 ? "" : kUsage};
  }
  CommandLine cli;
  if (!args.empty()) cli.config_path = configPath(args[0]);
  DaemonConfig config;
  std::vector<std::string> errors;
  if (!resolveConfig(cli, config, errors)) {
    CheckCommandResult result;
    result.exit_code = 2;
    for (const std::string& e : errors) result.err += e + "\n";
    return result;
  }
  return checkConfig(config);
}

}  // namespace npc
