#include "command_line.h"

#include <cmath>
#include <cstdlib>

#include <CLI/CLI.hpp>

namespace npc::bots {

namespace {

void defineFlags(CLI::App& app, BotsCommandLine& out) {
  app.description(
      "Runs simulated game clients against npcd: each opens a Connect stream, streams its\n"
      "players and NPCs at the scenario's rate, executes the actions it receives and reports\n"
      "their results. Prints a line every second and a final report.");
  app.add_option("--scenario", out.scenario_path, "Scenario JSON (config/bots/*.json)")
      ->type_name("FILE")
      ->envname("NPCD_BOTS_SCENARIO");
  app.add_option("--target", out.options.target, "npcd address")
      ->type_name("HOST:PORT")
      ->capture_default_str()
      ->check([](const std::string& v) { return v.empty() ? "must not be empty" : ""; })
      ->envname("NPCD_TARGET");
  app.add_option("--duration", out.duration_s,
                 "Measured seconds, overriding the scenario's duration_s")
      ->type_name("S")
      ->default_str("the scenario's")
      ->check([](const std::string& v) {
        char* end = nullptr;
        const double d = std::strtod(v.c_str(), &end);
        const bool ok = end != v.c_str() && *end == '\0' && std::isfinite(d) && d > 0.0;
        return ok ? std::string() : "expected seconds > 0, got \"" + v + "\"";
      });
  app.add_option("--token", out.options.token, "Bearer token for npcd's auth")
      ->type_name("TOKEN")
      ->default_str("none")
      ->envname("NPCD_AUTH_TOKEN");
  CLI::Option* write = app.add_option("--write-world", out.write_world,
                                      "Where --world-scale writes")
                           ->type_name("FILE");
  app.add_option("--world-scale", out.world_scale,
                 "Write a world file for npcd (\"world\") with N agents of the demo archetypes\n"
                 "over N/500 places, 2 scripted players per place and objects for the\n"
                 "planners (core/sim/scale_world.h) to --write-world, then exit")
      ->type_name("N")
      ->check(CLI::Range(1u, 10000000u))
      ->needs(write);
  app.footer(
      "Exit code: 0 the scenario's expectations held, 1 they did not or npcd was unreachable,\n"
      "2 bad arguments or scenario.\n");
}

}  // namespace

bool parseBotsCommandLine(int argc, const char* const* argv, BotsCommandLine& out,
                          std::string& error) {
  CLI::App app{"", "npcd-bots"};
  defineFlags(app, out);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    out.help = true;
    out.help_text = app.help();
    return true;
  } catch (const CLI::ParseError& e) {
    error = e.what();
    return false;
  }
  if (!out.write_world.empty() && out.world_scale == 0) {
    error = "--write-world needs --world-scale N";
    return false;
  }
  if (out.world_scale == 0 && out.scenario_path.empty()) {
    error = "--scenario is required";
    return false;
  }
  return true;
}

std::string botsUsage() {
  BotsCommandLine unused;
  CLI::App app{"", "npcd-bots"};
  defineFlags(app, unused);
  return app.help();
}

}  // namespace npc::bots
