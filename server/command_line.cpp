#include "command_line.h"

#include <cstdlib>

#include <CLI/CLI.hpp>

namespace npc {

namespace {

const std::vector<std::string> kLogLevels = {"trace", "debug", "info", "warn", "error", "off"};

// One definition of the flags serves parsing and the help text, so they cannot drift.
void defineFlags(CLI::App& app, CommandLine& out) {
  app.description(
      "npcd: the NPC simulation daemon. Game servers stream their world in over gRPC and get\n"
      "back the actions their NPCs chose (README.md).");
  app.add_option("--config", out.config_path,
                 "Daemon config (JSON); keys in README.md \"Configuration\". Without it: the\n"
                 "built-in defaults, an empty world, listening on 127.0.0.1:50051")
      ->type_name("FILE")
      ->envname("NPCD_CONFIG");
  app.add_option("--listen", out.listen,
                 "gRPC address (host:port); overrides the config's \"listen\"")
      ->type_name("ADDR")
      ->default_str("config's listen, else 127.0.0.1:50051")
      ->envname("NPCD_LISTEN");
  app.add_option("--metrics-listen", out.metrics_listen,
                 "Prometheus /metrics address; overrides \"metrics_listen\"")
      ->type_name("ADDR")
      ->default_str("config's metrics_listen, else off")
      ->envname("NPCD_METRICS_LISTEN");
  app.add_option("--debug-listen", out.debug_listen,
                 "Debug page address (HTTP); overrides \"debug_listen\"")
      ->type_name("ADDR")
      ->default_str("config's debug_listen, else off")
      ->envname("NPCD_DEBUG_LISTEN");
  app.add_option("--log-level", out.log_level, "Overrides \"log_level\"")
      ->type_name("LEVEL")
      ->default_str("config's log_level, else info")
      ->check(CLI::IsMember(kLogLevels))
      ->envname("NPCD_LOG_LEVEL");
  app.add_option("--restore", out.restore,
                 "Start from a snapshot: the newest good one of snapshot.dir (falling back\n"
                 "past damaged ones) or FILE (README \"Snapshots\")")
      ->type_name("latest|FILE")
      ->default_str("config's snapshot.restore_on_start, else none")
      ->envname("NPCD_RESTORE");
  app.add_flag("--version", out.version, "Print the version and source revision, then exit");
  app.add_flag("--check", out.check,
               "Load every definition the config names, print each problem as\n"
               "file:line: message, then exit: 0 clean, 1 errors (npcd check DIR does the same)");
  app.footer(
      "Environment: NPCD_AUTH_TOKEN is the bearer token for the game and admin roles\n"
      "(overrides \"auth_token\"; kept off the command line, where ps would show it).\n"
      "\n"
      "       npcd plan DOMAIN.json|DIR [--goal NAME] [--set fact=value ...] [--json]\n"
      "       npcd replay SNAPSHOT JOURNAL [--config FILE] [--agent ID] [--quiet]\n"
      "       npcd check [CONFIG.json|DIR]\n"
      "  plan: plans a GOAP domain's goals (core/goap/plan_command.h); replay: re-runs an\n"
      "  input journal (server/replay_command.h); check: loads every definition a config\n"
      "  names and prints each problem (server/check_command.h)\n");
}

}  // namespace

bool parseCommandLine(int argc, const char* const* argv, CommandLine& out, std::string& error) {
  CLI::App app{"", "npcd"};
  defineFlags(app, out);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    out.help = true;
  } catch (const CLI::ParseError& e) {
    error = std::string(e.what()) + " (see --help)";
    return false;
  }
  return true;
}

std::string usage() {
  CommandLine unused;
  CLI::App app{"", "npcd"};
  defineFlags(app, unused);
  return app.help();
}

bool resolveConfig(const CommandLine& cli, DaemonConfig& config, std::vector<std::string>& errors) {
  if (!cli.config_path.empty() && !loadConfigFile(cli.config_path, config, errors)) return false;
  if (const char* token = std::getenv("NPCD_AUTH_TOKEN"); token && *token) {
    config.auth_token = token;
  }
  if (!cli.listen.empty()) config.listen = cli.listen;
  if (!cli.metrics_listen.empty()) config.metrics_listen = cli.metrics_listen;
  if (!cli.debug_listen.empty()) config.debug_listen = cli.debug_listen;
  if (!cli.log_level.empty()) config.log_level = cli.log_level;  // checked by the parser
  if (!cli.restore.empty()) {
    if (cli.restore == "latest" && config.snapshot.dir.empty()) {
      errors.push_back("--restore latest: the config names no snapshot.dir");
      return false;
    }
    config.snapshot.restore = cli.restore;
  }
  return true;
}

}  // namespace npc
