#include <cstdlib>

#include <catch2/catch.hpp>

#include "command_line.h"
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
      "max_agents": 10, "grid_cell_m": 4, "shutdown_grace_s": 1, "max_inbox_commands": 4096})",
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
  REQUIRE(c.max_inbox_commands == 4096);
  REQUIRE(c.grid_cell_m == 4);
}

TEST_CASE("Config errors stop start-up and name the key", "[config]") {
  DaemonConfig c;
  SECTION("Should name an unknown key, suggesting the key it is close to") {
    REQUIRE(parseErrors(R"({"tick_rate": 10})", c) ==
            std::vector<std::string>{"npcd.json:1:2: /tick_rate: unknown key"});
    REQUIRE(parseErrors(R"({"tick_hs": 10})", c) ==
            std::vector<std::string>{
                "npcd.json:1:2: /tick_hs: unknown key (did you mean \"tick_hz\"?)"});
  }
  SECTION("Should name a key of the wrong type") {
    REQUIRE(parseErrors(R"({"tick_hz": "fast", "simulated_players": 1})", c) ==
            std::vector<std::string>{
                "npcd.json:1:13: /tick_hz: expected a number, got a string",
                "npcd.json:1:42: /simulated_players: expected true or false, got an integer"});
  }
  SECTION("Should name out-of-range values, in the order of the file") {
    REQUIRE(parseErrors(R"({"tick_hz": 0, "log_level": "loud", "seed": -1})", c) ==
            std::vector<std::string>{
                "npcd.json:1:13: /tick_hz: must be > 0",
                "npcd.json:1:29: /log_level: must be one of trace|debug|info|warn|error|off",
                "npcd.json:1:45: /seed: must be >= 0"});
    REQUIRE(parseErrors(R"({"tick_hz": 1001, "log_format": "xml", "listen": ""})", c) ==
            std::vector<std::string>{"npcd.json:1:13: /tick_hz: must be <= 1000",
                                     "npcd.json:1:33: /log_format: must be one of text|json",
                                     "npcd.json:1:50: /listen: must not be empty"});
    REQUIRE(parseErrors(R"({"grid_cell_m": 0.25, "max_message_bytes": 1023,
                            "outbox_max_messages": 0, "max_agents": 4294967296})", c) ==
            std::vector<std::string>{
                "npcd.json:1:17: /grid_cell_m: must be >= 0.5",
                "npcd.json:1:44: /max_message_bytes: must be >= 1024",
                "npcd.json:2:52: /outbox_max_messages: must be >= 1",
                "npcd.json:2:69: /max_agents: must be <= 4294967295"});
    REQUIRE(parseErrors(R"({"max_inbox_commands": 1000})", c) ==
            std::vector<std::string>{"npcd.json:1:24: /max_inbox_commands: must be >= 1024"});
    REQUIRE(parseErrors(R"({"max_inbox_commands": 2000000})", c) ==
            std::vector<std::string>{"npcd.json:1:24: /max_inbox_commands: must be <= 1048576"});
  }
  SECTION("Should stop at a schema error, before the checks across keys") {
    REQUIRE(parseErrors(R"({"tls_cert": "s.pem", "tick_hz": -1})", c) ==
            std::vector<std::string>{"npcd.json:1:34: /tick_hz: must be > 0"});
    REQUIRE(parseErrors(R"({"tls_cert": "s.pem"})", c) ==
            std::vector<std::string>{"npcd.json:1:1: /tls_key: tls_cert and tls_key go together"});
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

TEST_CASE("The debug page's address comes from debug_listen or --debug-listen", "[config][debug]") {
  DaemonConfig c;
  REQUIRE(c.debug_listen.empty());  // off by default
  REQUIRE(parseErrors(R"({"debug_listen": "127.0.0.1:9470"})", c).empty());
  REQUIRE(c.debug_listen == "127.0.0.1:9470");
  REQUIRE(parseErrors(R"({"debug_listen": 9470})", c) ==
          std::vector<std::string>{"npcd.json:1:18: /debug_listen: expected a string, got an integer"});

  CommandLine cli;
  std::string error;
  const char* argv[] = {"npcd", "--debug-listen", "127.0.0.1:9471"};
  REQUIRE(parseCommandLine(3, argv, cli, error));
  std::vector<std::string> errors;
  REQUIRE(resolveConfig(cli, c, errors));
  REQUIRE(c.debug_listen == "127.0.0.1:9471");
  REQUIRE_THAT(usage(), Catch::Contains("--debug-listen ADDR"));
}

TEST_CASE("world_bounds_m sets the box positions must lie in", "[config][bounds]") {
  DaemonConfig c;
  SECTION("Should default to +-100 km and -10..10 km") {
    REQUIRE(c.world_bounds.half_extent_m == 100000.0);
    REQUIRE(c.world_bounds.min_z_m == -10000.0);
    REQUIRE(c.world_bounds.max_z_m == 10000.0);
  }
  SECTION("Should read every key") {
    REQUIRE(parseErrors(R"({"world_bounds_m": {"half_extent": 5000, "min_z": -50, "max_z": 500}})", c)
                .empty());
    REQUIRE(c.world_bounds.half_extent_m == 5000.0);
    REQUIRE(c.world_bounds.min_z_m == -50.0);
    REQUIRE(c.world_bounds.max_z_m == 500.0);
  }
  SECTION("Should refuse an empty or absurd box, naming the key") {
    REQUIRE(parseErrors(R"({"world_bounds_m": {"half_extent": 1e30, "min_z": -2e7, "max_z": 0,
                                               "depth": 3}})",
                        c) == std::vector<std::string>{
                                  "npcd.json:1:36: /world_bounds_m/half_extent: must be <= 10000000",
                                  "npcd.json:1:51: /world_bounds_m/min_z: must be >= -10000000",
                                  "npcd.json:2:48: /world_bounds_m/depth: unknown key"});
    REQUIRE(parseErrors(R"({"world_bounds_m": {"half_extent": 0}})", c) ==
            std::vector<std::string>{"npcd.json:1:36: /world_bounds_m/half_extent: must be > 0"});
  }
  SECTION("Should refuse an inverted box") {
    REQUIRE(parseErrors(R"({"world_bounds_m": {"min_z": 10, "max_z": 0}})", c) ==
            std::vector<std::string>{"npcd.json:1:20: /world_bounds_m: min_z must be < max_z"});
    REQUIRE(parseErrors(R"({"world_bounds_m": {"min_z": 20000}})", c) ==
            std::vector<std::string>{"npcd.json:1:20: /world_bounds_m: min_z must be < max_z"});
  }
}

// The schema repeats world/limits.h's bounds on the config's own numbers; these keep them equal.
TEST_CASE("The config schema bounds world_bounds_m and grid_cell_m as world/limits.h does",
          "[config][bounds]") {
  DaemonConfig c;
  auto with = [&](const std::string& key_value) { return parseErrors("{" + key_value + "}", c); };
  const std::string extent = formatNumber(kMaxWorldHalfExtentM);
  CHECK(with("\"world_bounds_m\": {\"half_extent\": " + extent + ", \"min_z\": -" + extent +
             ", \"max_z\": " + extent + "}")
            .empty());
  CHECK(c.world_bounds.half_extent_m == kMaxWorldHalfExtentM);
  CHECK(with("\"world_bounds_m\": {\"max_z\": " + formatNumber(kMaxWorldHalfExtentM * 1.01) + "}") ==
        std::vector<std::string>{"npcd.json:1:30: /world_bounds_m/max_z: must be <= 10000000"});
  CHECK(with("\"grid_cell_m\": " + formatNumber(kMinGridCellM)).empty());
  CHECK(with("\"grid_cell_m\": " + formatNumber(kMaxGridCellM)).empty());
  CHECK(c.grid_cell_m == kMaxGridCellM);
  CHECK(with("\"grid_cell_m\": " + formatNumber(kMaxGridCellM * 1.01)) ==
        std::vector<std::string>{"npcd.json:1:17: /grid_cell_m: must be <= 1000"});
}

TEST_CASE("The watchdog section sets the stall warning and the shutdown limit", "[config]") {
  DaemonConfig c;
  SECTION("Should default to 5 budgets and 5 s") {
    REQUIRE(c.watchdog.warn_budgets == 5.0);
    REQUIRE(c.watchdog.shutdown_limit_s == 5.0);
  }
  SECTION("Should read both keys") {
    REQUIRE(parseErrors(R"({"watchdog": {"warn_budgets": 3, "shutdown_limit_s": 0.5}})", c).empty());
    REQUIRE(c.watchdog.warn_budgets == 3.0);
    REQUIRE(c.watchdog.shutdown_limit_s == 0.5);
  }
  SECTION("Should name bad values and unknown keys") {
    REQUIRE(parseErrors(R"({"watchdog": {"warn_budgets": 0, "shutdown_limit_s": -1, "bark": 1}})", c) ==
            std::vector<std::string>{
                "npcd.json:1:31: /watchdog/warn_budgets: must be > 0",
                "npcd.json:1:54: /watchdog/shutdown_limit_s: must be >= 0",
                "npcd.json:1:58: /watchdog/bark: unknown key"});
    REQUIRE(parseErrors(R"({"watchdog": {"warn_budgets": 1e7, "shutdown_limit_s": 3601}})", c) ==
            std::vector<std::string>{"npcd.json:1:31: /watchdog/warn_budgets: must be <= 1000000",
                                     "npcd.json:1:56: /watchdog/shutdown_limit_s: must be <= 3600"});
  }
}

TEST_CASE("The tick section sets the threads of the per-agent phases", "[config]") {
  DaemonConfig c;
  SECTION("Should default to 0: one per hardware thread") { REQUIRE(c.tick_threads == 0); }
  SECTION("Should read tick.threads") {
    REQUIRE(parseErrors(R"({"tick": {"threads": 2}})", c).empty());
    REQUIRE(c.tick_threads == 2);
  }
  SECTION("Should name a count out of range and unknown keys") {
    REQUIRE(parseErrors(R"({"tick": {"threads": 0, "hz": 10}})", c) ==
            std::vector<std::string>{"npcd.json:1:22: /tick/threads: must be >= 1",
                                     "npcd.json:1:25: /tick/hz: unknown key"});
    REQUIRE(parseErrors(R"({"tick": {"threads": 1000}})", c) ==
            std::vector<std::string>{"npcd.json:1:22: /tick/threads: must be <= 256"});
    REQUIRE(c.tick_threads == 0);
  }
}

TEST_CASE("The tick section's lod turns on the reduced rate for agents far from players",
          "[config]") {
  DaemonConfig c;
  SECTION("Should be off without the key") { REQUIRE_FALSE(c.detail.enabled); }
  SECTION("Should read near_m and far_period_ticks") {
    REQUIRE(parseErrors(R"({"tick": {"lod": {"near_m": 80, "far_period_ticks": 5}}})", c).empty());
    REQUIRE(c.detail.enabled);
    REQUIRE(c.detail.near_m == 80.f);
    REQUIRE(c.detail.far_period_ticks == 5);
  }
  SECTION("Should name values out of range and unknown keys") {
    REQUIRE(parseErrors(R"({"tick": {"lod": {"near_m": -1, "far_period_ticks": 0, "far_m": 9}}})", c) ==
            std::vector<std::string>{"npcd.json:1:29: /tick/lod/near_m: must be > 0",
                                     "npcd.json:1:53: /tick/lod/far_period_ticks: must be >= 1",
                                     "npcd.json:1:56: /tick/lod/far_m: unknown key"});
    REQUIRE(parseErrors(R"({"tick": {"lod": {"near_m": 100001, "far_period_ticks": 1001}}})", c) ==
            std::vector<std::string>{"npcd.json:1:29: /tick/lod/near_m: must be <= 100000",
                                     "npcd.json:1:57: /tick/lod/far_period_ticks: must be <= 1000"});
    REQUIRE_FALSE(c.detail.enabled);
  }
}

TEST_CASE("Client credentials name a client, a secret and a role", "[config][auth]") {
  DaemonConfig c;
  SECTION("Should read tokens, token_env, certificates, roles and the TLS client keys") {
    ::setenv("NPCD_TEST_EU_TOKEN", "from-env", 1);
    auto errors = parseErrors(R"({"tls_cert": "s.pem", "tls_key": "s.key",
        "tls_client_ca": "ca.pem", "tls_client_auth": "require",
        "handshake_timeout_s": 2, "max_connection_idle_s": 0, "keepalive_s": 30,
        "max_memory_mb": 64, "max_clients": 12,
        "clients": [{"name": "eu", "token_env": "NPCD_TEST_EU_TOKEN", "role": "game"},
                    {"name": "ops", "certificate": "ops.example", "role": "admin"},
                    {"name": "dash", "token": "t-o", "role": "observer"}]})",
                              c);
    REQUIRE(errors.empty());
    REQUIRE(c.clients.size() == 3);
    CHECK(c.clients[0].name == "eu");
    CHECK(c.clients[0].token == "from-env");
    CHECK(c.clients[0].role == Role::kGame);
    CHECK(c.clients[1].certificate == "ops.example");
    CHECK(c.clients[1].role == Role::kAdmin);
    CHECK(c.clients[2].role == Role::kObserver);
    CHECK(c.tls_client_ca == "/etc/npcd/ca.pem");
    CHECK(c.tls_client_auth == "require");
    CHECK(c.handshake_timeout_s == 2);
    CHECK(c.max_connection_idle_s == 0);
    CHECK(c.max_memory_mb == 64);
    CHECK(c.max_clients == 12);
  }
  SECTION("Should bound max_clients by kMaxClientsLimit") {
    CHECK(parseErrors(R"({"max_clients": 0})", c) ==
          std::vector<std::string>{"npcd.json:1:17: /max_clients: must be >= 1"});
    CHECK(parseErrors(R"({"max_clients": 4294967297})", c) ==
          std::vector<std::string>{"npcd.json:1:17: /max_clients: must be <= 1000000"});
    CHECK(parseErrors("{\"max_clients\": " + std::to_string(kMaxClientsLimit) + "}", c).empty());
    CHECK(c.max_clients == kMaxClientsLimit);
    CHECK(parseErrors("{\"max_clients\": " + std::to_string(kMaxClientsLimit + 1) + "}", c) ==
          std::vector<std::string>{"npcd.json:1:17: /max_clients: must be <= " +
                                   std::to_string(kMaxClientsLimit)});
  }
  SECTION("Should name the entry and field of each badly formed client") {
    auto errors = parseErrors(R"({"tls_client_auth": "always",
        "clients": [{"name": "a", "token": "x", "role": "boss"},
                    {"name": "", "token": "y", "role": "game", "tokn": "z"},
                    {"token": "w", "role": "game"}]})",
                              c);
    CHECK(errors == std::vector<std::string>{
                        "npcd.json:1:21: /tls_client_auth: must be one of none|request|require",
                        "npcd.json:2:57: /clients/0/role: must be one of game|admin|observer",
                        "npcd.json:3:30: /clients/1/name: must not be empty",
                        "npcd.json:3:64: /clients/1/tokn: unknown key (did you mean \"token\"?)",
                        "npcd.json:4:21: /clients/2: missing required key \"name\""});
  }
  SECTION("Should name the entry and field of each problem across keys") {
    ::unsetenv("NPCD_TEST_MISSING");
    auto errors = parseErrors(R"({"tls_client_auth": "request",
        "clients": [{"name": "a", "token": "x", "role": "admin"},
                    {"name": "a", "token": "x", "role": "game"},
                    {"name": "b", "role": "game"},
                    {"name": "c", "token_env": "NPCD_TEST_MISSING", "role": "game"}]})",
                              c);
    CHECK(errors == std::vector<std::string>{
                        "npcd.json:3:30: /clients/1/name: \"a\" is used twice",
                        "npcd.json:3:44: /clients/1/token: same token as client \"a\"",
                        "npcd.json:4:21: /clients/2: needs token, token_env or certificate",
                        "npcd.json:5:48: /clients/3/token_env: environment variable "
                        "NPCD_TEST_MISSING is not set",
                        "npcd.json:1:21: /tls_client_auth: needs tls_client_ca, tls_cert and tls_key"});
  }
}

// Regression: "tick_hz": 1e400 ended start-up with an uncaught exception instead of an error.
TEST_CASE("Config numbers that overflow a double are a located error", "[config]") {
  DaemonConfig c;
  REQUIRE(parseErrors("{\n  \"tick_hz\": 1e400\n}", c) ==
          std::vector<std::string>{"npcd.json:2:18: number overflow parsing '1e400'"});
}

TEST_CASE("The snapshot keys set where, how often and how many snapshots", "[config][snapshot]") {
  DaemonConfig c;
  REQUIRE(parseErrors(R"({"snapshot": {"dir": "state", "interval_s": 60, "keep": 4,
      "restore_on_start": true}})", c).empty());
  CHECK(c.snapshot.dir == "/etc/npcd/state");
  CHECK(c.snapshot.interval_s == 60);
  CHECK(c.snapshot.keep == 4);
  CHECK(c.snapshot.restore == "latest");

  SECTION("Should name bad snapshot values") {
    DaemonConfig bad;
    CHECK(parseErrors(R"({"snapshot": {"interval_s": -1, "keep": 0, "every": 5}})", bad) ==
          std::vector<std::string>{"npcd.json:1:29: /snapshot/interval_s: must be >= 0",
                                   "npcd.json:1:41: /snapshot/keep: must be >= 1",
                                   "npcd.json:1:44: /snapshot/every: unknown key"});
    CHECK(parseErrors(R"({"snapshot": {"dir": "s", "interval_s": 86401, "keep": 10001,
                          "journal": {"sync": "always", "sync_interval_ms": 0}}})", bad) ==
          std::vector<std::string>{
              "npcd.json:1:41: /snapshot/interval_s: must be <= 86400",
              "npcd.json:1:56: /snapshot/keep: must be <= 10000",
              "npcd.json:2:47: /snapshot/journal/sync: must be one of tick|interval|none",
              "npcd.json:2:77: /snapshot/journal/sync_interval_ms: must be >= 1"});
    DaemonConfig nodir;
    CHECK(parseErrors(R"({"snapshot": {"interval_s": 30}})", nodir) ==
          std::vector<std::string>{
              "npcd.json:1:14: /snapshot/dir: is required for interval_s and restore_on_start"});
  }
}

TEST_CASE("The --restore flag names the snapshot to start from", "[config][snapshot]") {
  CommandLine cli;
  std::string error;
  const char* file[] = {"npcd", "--restore", "/var/lib/npcd/snapshot-000000000042.npcsnap"};
  REQUIRE(parseCommandLine(3, file, cli, error));
  DaemonConfig c;
  std::vector<std::string> errors;
  REQUIRE(resolveConfig(cli, c, errors));
  CHECK(c.snapshot.restore == "/var/lib/npcd/snapshot-000000000042.npcsnap");
  REQUIRE_THAT(usage(), Catch::Contains("--restore latest|FILE"));

  SECTION("Should refuse --restore latest without a snapshot directory") {
    CommandLine latest;
    const char* argv[] = {"npcd", "--restore", "latest"};
    REQUIRE(parseCommandLine(3, argv, latest, error));
    DaemonConfig none;
    std::vector<std::string> errs;
    CHECK_FALSE(resolveConfig(latest, none, errs));
    CHECK(errs == std::vector<std::string>{"--restore latest: the config names no snapshot.dir"});
  }
}

TEST_CASE("The cluster section names Redis, the node, its lease and its places", "[config][cluster]") {
  DaemonConfig c;
  SECTION("Without it the daemon runs alone") {
    REQUIRE(parseErrors(R"({})", c).empty());
    CHECK_FALSE(c.cluster.enabled);
  }
  SECTION("Should read every key; places balanced by default") {
    REQUIRE(parseErrors(R"({"cluster": {"redis": "redis.internal:7000", "node_id": "npcd-2",
        "advertise": "10.0.0.5:50051", "lease_ttl_s": 6, "key_prefix": "eu",
        "redis_timeout_ms": 250}})", c).empty());
    CHECK(c.cluster.enabled);
    CHECK(c.cluster.redis_host == "redis.internal");
    CHECK(c.cluster.redis_port == 7000);
    CHECK(c.cluster.node_id == "npcd-2");
    CHECK(c.cluster.advertise == "10.0.0.5:50051");
    CHECK(c.cluster.lease_ttl_s == 6.0);
    CHECK(c.cluster.key_prefix == "eu");
    CHECK(c.cluster.redis_timeout_ms == 250.0);
    CHECK(c.cluster.balanced);
  }
  SECTION("Should read a static list of places") {
    REQUIRE(parseErrors(R"({"cluster": {"node_id": "a", "places": ["square", "bakery"]}})", c).empty());
    CHECK_FALSE(c.cluster.balanced);
    CHECK(c.cluster.places == std::vector<std::string>{"square", "bakery"});
  }
  SECTION("Should name each bad value") {
    CHECK(parseErrors(R"({"cluster": {"redis": "nohost", "lease_ttl_s": 0.1, "places": "fair",
        "key_prefix": "{x}", "redis_timeout_ms": 5, "ttl": 3}})", c) ==
          std::vector<std::string>{
              "npcd.json:1:13: /cluster: missing required key \"node_id\"",
              "npcd.json:1:48: /cluster/lease_ttl_s: must be >= 0.3",
              "npcd.json:1:63: /cluster/places: must match ^balanced$",
              "npcd.json:2:23: /cluster/key_prefix: must match ^[^{}]*$",
              "npcd.json:2:50: /cluster/redis_timeout_ms: must be >= 10",
              "npcd.json:2:53: /cluster/ttl: unknown key"});
    CHECK(parseErrors(R"({"cluster": {"node_id": "a|b", "advertise": "x|y:1", "places": [3, ""]}})", c) ==
          std::vector<std::string>{"npcd.json:1:25: /cluster/node_id: must match ^[^|]*$",
                                   "npcd.json:1:45: /cluster/advertise: must match ^[^|]*$",
                                   "npcd.json:1:65: /cluster/places/0: expected a string, got an integer",
                                   "npcd.json:1:68: /cluster/places/1: must not be empty"});
    CHECK(parseErrors(R"({"cluster": {"node_id": "", "places": [], "key_prefix": "",
                          "lease_ttl_s": 601, "redis_timeout_ms": 60001,
                          "snapshot_interval_s": 0.05}})", c) ==
          std::vector<std::string>{
              "npcd.json:1:25: /cluster/node_id: must not be empty",
              "npcd.json:1:39: /cluster/places: must have at least 1 items",
              "npcd.json:1:57: /cluster/key_prefix: must not be empty",
              "npcd.json:2:42: /cluster/lease_ttl_s: must be <= 600",
              "npcd.json:2:67: /cluster/redis_timeout_ms: must be <= 60000",
              "npcd.json:3:50: /cluster/snapshot_interval_s: must be >= 0.1"});
    CHECK(parseErrors("{\"cluster\": {\"node_id\": \"" + std::string(257, 'n') + "\"}}", c) ==
          std::vector<std::string>{
              "npcd.json:1:25: /cluster/node_id: must be at most 256 characters long"});
  }
  SECTION("Should name an address it cannot use") {
    CHECK(parseErrors(R"({"cluster": {"node_id": "a", "redis": "nohost"}})", c) ==
          std::vector<std::string>{"npcd.json:1:39: /cluster/redis: expected host:port, got \"nohost\""});
    CHECK(parseErrors(R"({"cluster": {"node_id": "a", "redis": "h:70000"}})", c) ==
          std::vector<std::string>{"npcd.json:1:39: /cluster/redis: expected host:port, got \"h:70000\""});
  }
}
