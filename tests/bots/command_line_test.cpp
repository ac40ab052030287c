#include <cstdlib>
#include <string>

#include <catch2/catch.hpp>

#include "command_line.h"

using namespace npc::bots;

TEST_CASE("npcd-bots reads its flags and says what is wrong with one", "[bots][cli]") {
  ::unsetenv("NPCD_TARGET");
  ::unsetenv("NPCD_BOTS_SCENARIO");
  std::string error;

  SECTION("Should take a scenario run's flags") {
    BotsCommandLine cli;
    const char* argv[] = {"npcd-bots", "--scenario", "smoke.json", "--target", "10.0.0.5:6000",
                          "--duration", "2.5", "--token", "t0k"};
    REQUIRE(parseBotsCommandLine(9, argv, cli, error));
    CHECK(cli.scenario_path == "smoke.json");
    CHECK(cli.options.target == "10.0.0.5:6000");
    CHECK(cli.duration_s == 2.5);
    CHECK(cli.options.token == "t0k");
    CHECK(cli.world_scale == 0);
  }
  SECTION("Should default the target and take the token from NPCD_AUTH_TOKEN") {
    ::setenv("NPCD_AUTH_TOKEN", "from-env", 1);
    BotsCommandLine cli;
    const char* argv[] = {"npcd-bots", "--scenario", "smoke.json"};
    REQUIRE(parseBotsCommandLine(3, argv, cli, error));
    ::unsetenv("NPCD_AUTH_TOKEN");
    CHECK(cli.options.target == "127.0.0.1:50051");
    CHECK(cli.options.token == "from-env");
  }
  SECTION("Should take a scale world's flags without a scenario") {
    BotsCommandLine cli;
    const char* argv[] = {"npcd-bots", "--world-scale", "5000", "--write-world", "w.json"};
    REQUIRE(parseBotsCommandLine(5, argv, cli, error));
    CHECK(cli.world_scale == 5000);
    CHECK(cli.write_world == "w.json");
  }
  SECTION("Should refuse bad values, naming the flag") {
    struct Row {
      std::vector<const char*> argv;
      const char* names;
    };
    const Row rows[] = {
        {{"npcd-bots"}, "--scenario is required"},
        {{"npcd-bots", "--scenario", "s.json", "--duration", "-1"}, "--duration"},
        {{"npcd-bots", "--scenario", "s.json", "--duration", "soon"}, "--duration"},
        {{"npcd-bots", "--scenario", "s.json", "--target", ""}, "--target"},
        {{"npcd-bots", "--world-scale", "0", "--write-world", "w.json"}, "--world-scale"},
        {{"npcd-bots", "--world-scale", "20000000", "--write-world", "w.json"}, "--world-scale"},
        {{"npcd-bots", "--world-scale", "10"}, "--write-world"},
        {{"npcd-bots", "--write-world", "w.json"}, "--world-scale"},
        {{"npcd-bots", "--scenario", "s.json", "--ports", "3"}, "--ports"},
    };
    for (const Row& row : rows) {
      BotsCommandLine cli;
      INFO(row.names);
      CHECK_FALSE(parseBotsCommandLine(static_cast<int>(row.argv.size()), row.argv.data(), cli,
                                       error));
      CHECK_THAT(error, Catch::Contains(row.names));
    }
  }
  SECTION("Should generate a help that lists every flag, its default and variable") {
    BotsCommandLine cli;
    const char* argv[] = {"npcd-bots", "--help"};
    REQUIRE(parseBotsCommandLine(2, argv, cli, error));
    REQUIRE(cli.help);
    for (const char* text : {"--scenario FILE", "--target HOST:PORT", "127.0.0.1:50051",
                             "--duration S", "--token TOKEN", "NPCD_AUTH_TOKEN",
                             "--world-scale N", "--write-world FILE", "Exit code"}) {
      CHECK_THAT(cli.help_text, Catch::Contains(text));
    }
    CHECK(cli.help_text == botsUsage());
  }
}
