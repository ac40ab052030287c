#include <cstdlib>
#include <string>

#include <catch2/catch.hpp>

#include "command_line.h"
#include "config.h"

using namespace npc;

namespace {

// Sets an environment variable for one scope, restoring its absence after.
struct ScopedEnv {
  const char* name;
  ScopedEnv(const char* n, const char* value) : name(n) { ::setenv(n, value, 1); }
  ~ScopedEnv() { ::unsetenv(name); }
};

}  // namespace

TEST_CASE("Command-line flags override the config file", "[config][cli]") {
  CommandLine cli;
  std::string error;
  const char* argv[] = {"npcd", "--config", NPCD_SOURCE_DIR "/config/npcd.json", "--listen",
                        "127.0.0.1:7777", "--log-level", "warn"};
  REQUIRE(parseCommandLine(7, argv, cli, error));
  DaemonConfig c;
  std::vector<std::string> errors;
  REQUIRE(resolveConfig(cli, c, errors));
  REQUIRE(c.listen == "127.0.0.1:7777");
  REQUIRE(c.log_level == "warn");
  REQUIRE(c.simulated_players);  // from the file

  SECTION("Should refuse unknown flags and missing values, naming the flag") {
    CommandLine fresh;
    const char* bad[] = {"npcd", "--port", "1"};
    REQUIRE_FALSE(parseCommandLine(3, bad, fresh, error));
    CHECK_THAT(error, Catch::Contains("--port") && Catch::EndsWith("(see --help)"));
    const char* dangling[] = {"npcd", "--listen"};
    REQUIRE_FALSE(parseCommandLine(2, dangling, fresh, error));
    CHECK_THAT(error, Catch::Contains("--listen") && Catch::EndsWith("(see --help)"));
  }
  SECTION("Should refuse a log level outside the list in the parser") {
    CommandLine fresh;
    const char* loud[] = {"npcd", "--log-level", "loud"};
    REQUIRE_FALSE(parseCommandLine(3, loud, fresh, error));
    CHECK_THAT(error, Catch::Contains("--log-level") && Catch::Contains("loud"));
  }
  SECTION("Should list every flag, its environment variable and its default in --help") {
    const std::string help = usage();
    for (const char* flag : {"--config FILE", "--listen ADDR", "--metrics-listen ADDR",
                             "--debug-listen ADDR", "--log-level LEVEL",
                             "--restore latest|FILE", "--help", "--version", "npcd plan"}) {
      CHECK_THAT(help, Catch::Contains(flag));
    }
    for (const char* env : {"NPCD_CONFIG", "NPCD_LISTEN", "NPCD_METRICS_LISTEN",
                            "NPCD_DEBUG_LISTEN", "NPCD_LOG_LEVEL", "NPCD_RESTORE",
                            "NPCD_AUTH_TOKEN"}) {
      CHECK_THAT(help, Catch::Contains(env));
    }
    CHECK_THAT(help, Catch::Contains("else 127.0.0.1:50051"));
    CHECK_THAT(help, Catch::Contains("else info"));
  }
  SECTION("Should ask for help with --help and -h, and for the version with --version") {
    REQUIRE_FALSE(cli.version);
    REQUIRE_FALSE(cli.help);
    for (const char* flag : {"--help", "-h"}) {
      CommandLine asked;
      const char* help[] = {"npcd", flag};
      REQUIRE(parseCommandLine(2, help, asked, error));
      CHECK(asked.help);
    }
    CommandLine asked;
    const char* version[] = {"npcd", "--version"};
    REQUIRE(parseCommandLine(2, version, asked, error));
    REQUIRE(asked.version);
    REQUIRE_FALSE(asked.help);
  }
}

TEST_CASE("Environment variables set the flags not given", "[config][cli]") {
  const ScopedEnv listen("NPCD_LISTEN", "127.0.0.1:7001");
  const ScopedEnv level("NPCD_LOG_LEVEL", "debug");
  const ScopedEnv config("NPCD_CONFIG", NPCD_SOURCE_DIR "/config/npcd.json");
  std::string error;

  CommandLine from_env;
  const char* none[] = {"npcd"};
  REQUIRE(parseCommandLine(1, none, from_env, error));
  CHECK(from_env.listen == "127.0.0.1:7001");
  CHECK(from_env.log_level == "debug");
  DaemonConfig c;
  std::vector<std::string> errors;
  REQUIRE(resolveConfig(from_env, c, errors));
  CHECK(c.listen == "127.0.0.1:7001");
  CHECK(c.simulated_players);  // the file NPCD_CONFIG named

  SECTION("Should let a flag win over its variable") {
    CommandLine flagged;
    const char* argv[] = {"npcd", "--listen", "127.0.0.1:7002"};
    REQUIRE(parseCommandLine(3, argv, flagged, error));
    CHECK(flagged.listen == "127.0.0.1:7002");
    CHECK(flagged.log_level == "debug");
  }
  SECTION("Should check a variable's value as it checks the flag's") {
    const ScopedEnv bad("NPCD_LOG_LEVEL", "loud");
    CommandLine refused;
    REQUIRE_FALSE(parseCommandLine(1, none, refused, error));
    CHECK_THAT(error, Catch::Contains("loud"));
  }
}
