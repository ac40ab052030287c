#include <catch2/catch.hpp>

#include "sim/simulation.h"
#include "sim/world_file.h"
#include "sim_fixture.h"

using namespace npc;

TEST_CASE("World files load places, obstacles, entities and players", "[sim][world_file]") {
  const std::string text = R"({
    "places": [ { "name": "square", "min": [0, 0, -1], "max": [20, 20, 10] } ],
    "obstacles": [ { "id": 1, "min": [5, 5, 0], "max": [6, 6, 2], "cover": "soft" } ],
    "entities": [ { "id": 100, "kind": "npc", "archetype": "villager", "position": [1, 1, 0],
                    "group": "square_watch" },
                  { "id": 200, "kind": "object", "position": [2, 2, 0], "species": "crate" } ],
    "simulated_players": [ { "id": 1, "route": [[0, 0, 0], [10, 0, 0]], "speed_mps": 2 } ]
  })";
  WorldFile file;
  std::vector<std::string> errors;
  REQUIRE(parseWorldFile("w.json", text, file, errors));
  REQUIRE(errors.empty());
  REQUIRE(file.places.size() == 1);
  REQUIRE(file.obstacles[0].cover == Cover::kSoft);
  REQUIRE(file.entities.size() == 2);
  REQUIRE(file.players[0].route.size() == 2);

  SECTION("Should populate a simulation on the next tick") {
    Simulation sim(SimConfig{}, test::testArchetypes());
    REQUIRE(applyWorldFile(file, sim, errors));
    sim.tick();
    REQUIRE(sim.stats().agents == 1);
    REQUIRE(sim.stats().entities == 2);
    REQUIRE(sim.world().entities().get(EntityId{100})->place == sim.world().findPlace("square"));
    std::string agent;
    REQUIRE(sim.describeAgent(EntityId{100}, agent).isOk());
    REQUIRE(agent.find(R"("group":"square_watch")") != std::string::npos);
  }
  SECTION("Should refuse an entity whose archetype the simulation does not know") {
    file.entities[0].archetype = "dragon";
    Simulation sim(SimConfig{}, test::testArchetypes());
    REQUIRE_FALSE(applyWorldFile(file, sim, errors));
    REQUIRE(errors == std::vector<std::string>{
                          "w.json: /entities/0/archetype: \"dragon\" is not a known archetype"});
  }
}

TEST_CASE("World file errors name the file, line:col and JSON path, all at once",
          "[sim][world_file]") {
  const std::string text = R"({
    "places": [ { "name": "a", "min": [0, 0, 0], "max": [-1, 1, 1] } ],
    "entities": [ { "id": 6, "kind": "npc", "position": [0, 0, 0] },
                  { "id": 7, "kind": "object", "position": [0, 0, 0], "group": "crates" } ]
  })";
  WorldFile file;
  std::vector<std::string> errors;
  REQUIRE_FALSE(parseWorldFile("w.json", text, file, errors));
  REQUIRE(errors == std::vector<std::string>{
                        "w.json:2:17: /places/0: min must be <= max on every axis",
                        "w.json:3:19: /entities/0/archetype: is required for an npc",
                        "w.json:4:80: /entities/1/group: is for npcs only",
                    });
}

// The schema (config/schema/world.schema.json) checks keys, types and enums first; a file
// that fails it stops there, so its semantic checks do not add errors about the same keys.
TEST_CASE("World file shape errors come from the schema, in file order", "[sim][world_file]") {
  const std::string text = R"({
    "places": [ { "name": "a", "min": [0, 0, 0], "max": [-1, 1, 1] } ],
    "obstacles": [ { "id": 0, "min": [0, 0, 0], "max": [1, 1, 1], "cover": "glass" } ],
    "entities": [ { "id": 5, "kind": "dragon", "position": [0, 0] },
                  { "id": 6, "kind": "npc", "position": [0, 0, 0] },
                  { "id": 7, "kind": "object", "position": [0, 0, 0], "group": "crates" } ],
    "simulated_players": [ { "id": 1, "route": [[0, 0, 0]] } ],
    "wether": "rain"
  })";
  WorldFile file;
  std::vector<std::string> errors;
  REQUIRE_FALSE(parseWorldFile("w.json", text, file, errors));
  REQUIRE(errors == std::vector<std::string>{
                        "w.json:3:28: /obstacles/0/id: must be > 0",
                        "w.json:3:76: /obstacles/0/cover: must be one of hard|soft",
                        "w.json:4:38: /entities/0/kind: must be one of npc|player|object|attribute",
                        "w.json:4:60: /entities/0/position: must have at least 3 items",
                        "w.json:7:48: /simulated_players/0/route: must have at least 2 items",
                        "w.json:8:5: /wether: unknown key",
                    });
}

TEST_CASE("World file syntax errors carry line and column", "[sim][world_file]") {
  WorldFile file;
  std::vector<std::string> errors;
  REQUIRE_FALSE(parseWorldFile("w.json", "{\n \"places\": [,]\n}", file, errors));
  REQUIRE(errors.size() == 1);
  REQUIRE_THAT(errors[0], Catch::StartsWith("w.json:2:"));
}

TEST_CASE("World files refuse repeated ids, naming where each was first used",
          "[sim][world_file][bounds]") {
  const std::string text = R"({
    "obstacles": [ { "id": 1, "min": [0, 0, 0], "max": [1, 1, 1] },
                   { "id": 1, "min": [2, 2, 0], "max": [3, 3, 1] } ],
    "entities": [ { "id": 1201, "kind": "object", "position": [0, 0, 0] },
                  { "id": 1202, "kind": "object", "position": [1, 0, 0] },
                  { "id": 1201, "kind": "object", "position": [2, 0, 0] } ],
    "simulated_players": [ { "id": 1202, "route": [[0, 0, 0], [1, 0, 0]] } ]
  })";
  WorldFile file;
  std::vector<std::string> errors;
  REQUIRE_FALSE(parseWorldFile("world.json", text, file, errors));
  REQUIRE(errors == std::vector<std::string>{
                        "world.json:3:28: /obstacles/1/id: duplicate id 1 (first at /obstacles/0)",
                        "world.json:6:27: /entities/2/id: duplicate id 1201 (first at /entities/0)",
                        "world.json:7:36: /simulated_players/0/id: duplicate id 1202 (first at "
                        "/entities/1)",
                    });
}

TEST_CASE("World files keep every position, size and speed within bounds",
          "[sim][world_file][bounds]") {
  const std::string text = R"({
    "places": [ { "name": "far", "min": [0, 0, 0], "max": [200000, 1, 1] } ],
    "obstacles": [ { "id": 1, "min": [0, 0, 0], "max": [5000, 1, 1] } ],
    "entities": [ { "id": 5, "kind": "object", "position": [3.4e38, 3.4e38, 0],
                    "eye_height": 1e30 } ],
    "simulated_players": [ { "id": 1, "speed_mps": 1e9, "route": [[0, 0, 0], [0, 0, 1e5]] } ]
  })";
  WorldFile file;
  std::vector<std::string> errors;
  REQUIRE_FALSE(parseWorldFile("w.json", text, file, errors));
  REQUIRE(errors == std::vector<std::string>{
                        "w.json:2:59: /places/0/max: x 200000 is outside the world bounds (+-100000 m)",
                        "w.json:3:20: /obstacles/0: size must be at most 1000 m (got 5000)",
                        "w.json:5:35: /entities/0/eye_height: must be within 0..100 m",
                        "w.json:4:60: /entities/0/position: x 3.4e+38 is outside the world bounds "
                        "(+-100000 m)",
                        "w.json:6:52: /simulated_players/0/speed_mps: must be within (0, 100] m/s",
                        "w.json:6:78: /simulated_players/0/route/1: z 100000 is outside the world "
                        "bounds (-10000..10000 m)",
                    });

  SECTION("Should follow the configured bounds") {
    const WorldBounds wide{1e6, -1e6, 1e6};
    const std::string ok = R"({ "entities": [ { "id": 5, "kind": "object",
                                                 "position": [500000, 0, 0] } ] })";
    std::vector<std::string> none;
    REQUIRE(parseWorldFile("w.json", ok, file, none, wide));
    REQUIRE(none.empty());
    REQUIRE_FALSE(parseWorldFile("w.json", ok, file, none));
  }
}

// Regression: a number overflowing a double aborted the daemon with no location.
TEST_CASE("World file numbers that overflow a double are a located error", "[sim][world_file]") {
  WorldFile file;
  std::vector<std::string> errors;
  REQUIRE_FALSE(parseWorldFile("w.json", "{\n \"places\": [\n  {\"name\": \"a\", \"min\": [1e400, 0, 0]}]\n}",
                               file, errors));
  REQUIRE(errors == std::vector<std::string>{"w.json:3:29: number overflow parsing '1e400'"});
}
