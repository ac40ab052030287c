#include <catch2/catch.hpp>

#include "config.h"

using namespace npc;

namespace {

std::vector<std::string> parseErrors(const std::string& text, DaemonConfig& config) {
  std::vector<std::string> errors;
  parseConfig("npcd.json", text, "/etc/npcd", config, errors);
  return errors;
}

}  // namespace

TEST_CASE("Config files set every key and resolve relative paths", "[config]") {
  DaemonConfig c;
  auto errors = parseErrors(R"({"listen": "0.0.0.0:6000", "tick_hz": 20, "seed": 9,
      "archetypes_dir": "archetypes", "world": "/abs/world.json", "simulated_players": true,
      "log_level": "debug", "log_format": "json", "status_interval_s": 2,
      "max_message_bytes": 65536, "outbox_max_messages": 8, "max_items_per_update": 50,
      "max_agents": 10, "grid_cell_m": 4, "shutdown_grace_s": 1})",
                            c);
  REQUIRE(errors.empty());
  REQUIRE(c.listen == "0.0.0.0:6000");
  REQUIRE(c.tick_hz == 20);
  REQUIRE(c.seed == 9);
  REQUIRE(c.archetypes_dir == "/etc/npcd/archetypes");
  REQUIRE(c.world == "/abs/world.json");
  REQUIRE(c.simulated_players);
  REQUIRE(c.log_format == "json");
  REQUIRE(c.max_message_bytes == 65536);
  REQUIRE(c.outbox_max_messages == 8);
  REQUIRE(c.grid_cell_m == 4);
}

TEST_CASE("Config errors stop start-up and name the key", "[config]") {
  DaemonConfig c;
  SECTION("Should name an unknown key") {
    REQUIRE(parseErrors(R"({"tick_rate": 10})", c) ==
            std::vector<std::string>{"npcd.json: /tick_rate: unknown key"});
  }
  SECTION("Should name a key of the wrong type") {
    REQUIRE(parseErrors(R"({"tick_hz": "fast", "simulated_players": 1})", c) ==
            std::vector<std::string>{"npcd.json: /tick_hz: expected a number, got string",
                                     "npcd.json: /simulated_players: expected true or false, got number"});
  }
  SECTION("Should name out-of-range values") {
    REQUIRE(parseErrors(R"({"tick_hz": 0, "log_level": "loud", "seed": -1})", c) ==
            std::vector<std::string>{
                "npcd.json: /seed: must be >= 0",
                "npcd.json: /tick_hz: must be within (0, 1000]",
                "npcd.json: /log_level: expected trace, debug, info, warn, error or off"});
  }
  SECTION("Should report a syntax error with its line") {
    auto errors = parseErrors("{\n\"listen\": \n}", c);
    REQUIRE(errors.size() == 1);
    REQUIRE_THAT(errors[0], Catch::StartsWith("npcd.json:3:"));
  }
  SECTION("Should report a missing file") {
    std::vector<std::string> errors;
    REQUIRE_FALSE(loadConfigFile("/nonexistent/npcd.json", c, errors));
    REQUIRE(errors == std::vector<std::string>{"/nonexistent/npcd.json: cannot open file"});
  }
}

TEST_CASE("The shipped configs load cleanly", "[config]") {
  DaemonConfig c;
  std::vector<std::string> errors;
  REQUIRE(loadConfigFile(NPCD_SOURCE_DIR "/config/npcd.json", c, errors));
  REQUIRE(errors.empty());
  REQUIRE(c.listen == "127.0.0.1:50051");
  REQUIRE(c.tick_hz == 10);
  REQUIRE(c.world == NPCD_SOURCE_DIR "/config/demo.json");
}

TEST_CASE("Command-line flags override the config file", "[config]") {
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

  SECTION("Should refuse unknown flags and missing values") {
    const char* bad[] = {"npcd", "--port", "1"};
    REQUIRE_FALSE(parseCommandLine(3, bad, cli, error));
    REQUIRE(error == "unknown argument --port (see --help)");
    const char* dangling[] = {"npcd", "--listen"};
    REQUIRE_FALSE(parseCommandLine(2, dangling, cli, error));
    REQUIRE(error == "--listen needs a value (see --help)");
  }
  SECTION("Should list every flag in --help") {
    for (const char* flag : {"--config", "--listen", "--log-level", "--help"}) {
      REQUIRE_THAT(usage(), Catch::Contains(flag));
    }
  }
}

// Regression: "tick_hz": 1e400 ended start-up with an uncaught exception instead of an error.
TEST_CASE("Config numbers that overflow a double are a located error", "[config]") {
  DaemonConfig c;
  REQUIRE(parseErrors("{\n  \"tick_hz\": 1e400\n}", c) ==
          std::vector<std::string>{"npcd.json:2:18: number overflow parsing '1e400'"});
}
