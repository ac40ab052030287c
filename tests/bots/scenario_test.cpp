#include "scenario.h"

#include <catch2/catch.hpp>

namespace npc::bots {
namespace {

std::vector<std::string> errorsOf(std::string_view text) {
  Scenario s;
  std::vector<std::string> errors;
  parseScenario("test.json", text, s, errors);
  return errors;
}

TEST_CASE("Scenario files") {
  SECTION("Should read every key") {
    Scenario s;
    std::vector<std::string> errors;
    REQUIRE(parseScenario("test.json", R"({
      "description": "d", "clients": 3, "duration_s": 5, "warmup_s": 1, "rate_hz": 20,
      "seed": 7, "area": { "min": [-10, -20, 0], "max": [10, 20, 0] },
      "players": { "per_client": 4, "species": "elf", "walk_mps": 1, "run_mps": 4,
                   "run_fraction": 0.5, "footstep_hz": 1, "footstep_radius_m": 5,
                   "gunshot_hz": 0.1, "gunshot_radius_m": 30, "fight_hz": 0.2,
                   "fight_radius_m": 10, "fight_signal": "OnFight" },
      "npcs": { "total": 10, "archetypes": ["guard", "villager"], "updates": "all",
                "spawn_per_frame": 3 },
      "actions": { "failure_rate": 0.1, "default_duration_s": 2, "progress_interval_s": 0.5,
                   "default_speed_mps": 2 },
      "subscribe_events": ["error", "intention_failed"],
      "expect": { "max_errors": 0, "max_p99_latency_ticks": 2, "min_updates_per_s": 100,
                  "min_actions": 1 }
    })", s, errors));
    CHECK(errors.empty());
    CHECK(s.clients == 3);
    CHECK(s.rate_hz == 20.0);
    CHECK(s.area.min.y == -20.f);
    CHECK(s.players.species == "elf");
    CHECK(s.players.fight_signal == "OnFight");
    CHECK(s.npcs.updates == NpcSpec::Updates::kAll);
    CHECK(s.npcs.spawn_per_frame == 3);
    CHECK(s.npcs.archetypes == std::vector<std::string>{"guard", "villager"});
    CHECK(s.subscribe_events.size() == 2);
    CHECK(s.expect.max_p99_latency_ticks == 2.0);
    CHECK(s.expect.min_actions == 1u);
    CHECK(s.totalNpcs() == 10);
    CHECK(s.totalPlayers() == 12);
  }

  SECTION("Should spread an NPC total over the clients, the first ones taking the rest") {
    NpcSpec n;
    n.total = 10;
    CHECK(n.countFor(0, 3) == 4);
    CHECK(n.countFor(1, 3) == 3);
    CHECK(n.countFor(2, 3) == 3);
    n.total = 0;
    n.per_client = 7;
    CHECK(n.countFor(2, 3) == 7);
  }

  SECTION("Should name unknown keys and wrong types by their path") {
    const auto errors = errorsOf(R"({ "client": 2, "players": { "walk_mps": "fast" },
                                      "npcs": { "updates": "some" } })");
    REQUIRE(errors.size() == 3);
    CHECK(errors[0] == "test.json:1:3: /client: unknown key (did you mean \"clients\"?)");
    CHECK(errors[1] == "test.json:1:41: /players/walk_mps: expected a number, got a string");
    CHECK(errors[2] == "test.json:2:60: /npcs/updates: must be one of moving|all");
  }

  SECTION("Should refuse out-of-range values") {
    const auto errors = errorsOf(R"({ "clients": 0, "rate_hz": 0,
                                      "actions": { "failure_rate": 2 },
                                      "players": { "species": "", "walk_mps": 0 },
                                      "npcs": { "archetypes": [], "total": 8000001 } })");
    REQUIRE(errors.size() == 7);
    CHECK(errors[0] == "test.json:1:14: /clients: must be >= 1");
    CHECK(errors[1] == "test.json:1:28: /rate_hz: must be > 0");
    CHECK(errors[2] == "test.json:2:68: /actions/failure_rate: must be <= 1");
    CHECK(errors[3] == "test.json:3:63: /players/species: must not be empty");
    CHECK(errors[4] == "test.json:3:79: /players/walk_mps: must be > 0");
    CHECK(errors[5] == "test.json:4:63: /npcs/archetypes: must have at least 1 items");
    CHECK(errors[6] == "test.json:4:76: /npcs/total: must be <= 8000000");
    CHECK(errorsOf(R"({ "clients": 1001, "rate_hz": 1001 })") ==
          std::vector<std::string>{"test.json:1:14: /clients: must be <= 1000",
                                   "test.json:1:31: /rate_hz: must be <= 1000"});
  }

  SECTION("Should refuse unknown event kinds and rules across keys once the file conforms") {
    const auto errors = errorsOf(R"({ "area": { "min": [0, 0, 0], "max": [0, 10, 0] },
                                      "npcs": { "per_client": 1, "total": 2 },
                                      "subscribe_events": ["errors"] })");
    REQUIRE(errors.size() == 3);
    CHECK(errors[0] == "test.json:1:11: /area: min must be below max in x and y (and <= in z)");
    CHECK(errors[1] == "test.json:2:47: /npcs: give per_client or total, not both");
    CHECK(errors[2].rfind("test.json:3:60: /subscribe_events/0: \"errors\" is not an event kind", 0) == 0);
  }

  SECTION("Should refuse more entities per client than one update carries") {
    const auto errors = errorsOf(R"({ "clients": 1, "npcs": { "total": 9000 } })");
    REQUIRE(errors.size() == 1);
    CHECK(errors[0] ==
          "test.json:1:25: /npcs: players + NPCs per client (9005) exceed 8000, one WorldUpdate's "
          "worth; use more clients");
  }

  SECTION("Should report syntax errors with line and column") {
    const auto errors = errorsOf("{\n  \"clients\": ,\n}");
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].rfind("test.json:2:14:", 0) == 0);
  }

  SECTION("Should load the shipped scenarios") {
    for (const char* name : {"smoke.json", "load.json", "soak.json", "scale.json"}) {
      Scenario s;
      std::vector<std::string> errors;
      CHECK(loadScenario(std::string(NPCD_SOURCE_DIR) + "/config/bots/" + name, s, errors));
      CHECK(errors.empty());
    }
  }
}

}  // namespace
}  // namespace npc::bots
