#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "base/json_reader.h"

using namespace npc;
using nlohmann::json;

TEST_CASE("JsonReader reports syntax errors with line and column", "[base][json]") {
  JsonReader r("cfg.json");
  json j;
  REQUIRE_FALSE(r.parse("{\n  \"a\": 1,\n  \"b\": ]\n}", j));
  REQUIRE(r.errors().size() == 1);
  REQUIRE_THAT(r.errors()[0], Catch::StartsWith("cfg.json:3:8: "));
}

TEST_CASE("JsonReader checks keys and types by JSON path", "[base][json]") {
  JsonReader r("w.json");
  json j = json::parse(R"({"name": 3, "pos": [1, "x", 2], "extra": true, "on": "yes"})");
  SECTION("Should name an unknown key") {
    r.onlyKeys(j, "", {"name", "pos", "on"});
    REQUIRE(r.errors() == std::vector<std::string>{"w.json: /extra: unknown key"});
  }
  SECTION("Should name a wrong type and a missing required key") {
    REQUIRE_FALSE(r.string(j, "", "name", true));
    REQUIRE_FALSE(r.boolean(j, "", "on", false));
    REQUIRE_FALSE(r.number(j, "/x", "missing", true));
    REQUIRE_FALSE(r.number(j, "", "absent", false));
    REQUIRE(r.errors() == std::vector<std::string>{
                              "w.json: /name: expected a string, got number",
                              "w.json: /on: expected true or false, got string",
                              "w.json: /x/missing: missing required key"});
  }
  SECTION("Should accept only three finite numbers as a vector") {
    REQUIRE_FALSE(r.vec3(j, "", "pos", true));
    REQUIRE(r.errors().back() == "w.json: /pos: expected [x, y, z] of numbers");
  }
}

TEST_CASE("JsonReader reads a missing file as an error naming it", "[base][json]") {
  JsonReader r("/nonexistent/npcd.json");
  json j;
  REQUIRE_FALSE(r.parseFile(j));
  REQUIRE(r.report() == "/nonexistent/npcd.json: cannot open file");
}
