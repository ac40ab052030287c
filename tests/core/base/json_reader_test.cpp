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

// Regression: "1e400" made nlohmann throw out_of_range past the loader, with no location,
// and aborted the daemon.
TEST_CASE("JsonReader reports a number that overflows a double at its line and column",
          "[base][json]") {
  JsonReader r("cfg.json");
  json j = 7;
  REQUIRE_FALSE(r.parse("{\n  \"radius\": 1e400\n}", j));
  REQUIRE(r.errors() == std::vector<std::string>{"cfg.json:2:17: number overflow parsing '1e400'"});
  REQUIRE(j == 7);  // the target is untouched
  SECTION("Should say the same for a huge negative number inside an array") {
    JsonReader a("a.json");
    REQUIRE_FALSE(a.parse("[1, -1e999]", j));
    REQUIRE(a.errors() == std::vector<std::string>{"a.json:1:10: number overflow parsing '-1e999'"});
  }
  SECTION("Should still accept the largest finite double") {
    JsonReader b("b.json");
    REQUIRE(b.parse("[1.7976931348623157e308]", j));
    REQUIRE(j[0].get<double>() == 1.7976931348623157e308);
  }
}

TEST_CASE("JsonReader checks types by JSON path", "[base][json]") {
  JsonReader r("w.json");
  json j = json::parse(R"({"name": 3, "pos": [1, "x", 2], "extra": true, "on": "yes"})");
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

// Definition numbers are read into floats: beyond a float's range the conversion was
// undefined behaviour (UBSan: float-cast-overflow), e.g. "sight_range_m": 1e300.
TEST_CASE("JsonReader refuses numbers beyond a float's range", "[base][json]") {
  JsonReader r("w.json");
  const json j = json::parse(R"({"r": 1e300, "p": [0, -1e39, 0], "ok": 3.4e38})");
  REQUIRE_FALSE(r.number(j, "/x", "r", true));
  REQUIRE_FALSE(r.vec3(j, "/x", "p", true));
  REQUIRE(r.number(j, "/x", "ok", true) == 3.4e38);
  REQUIRE(r.errors() == std::vector<std::string>{
                            "w.json: /x/r: is too large (beyond +-3.4e38)",
                            "w.json: /x/p: coordinates are too large (beyond +-3.4e38)",
                        });
}

TEST_CASE("JsonReader errors carry line:col beside the pointer", "[base][json]") {
  JsonReader r("w.json");
  json j;
  REQUIRE(r.parse("{\n  \"name\": 3,\n  \"spot\": { \"extra\": true }\n}", j));
  SECTION("Should locate a value where it starts") {
    REQUIRE_FALSE(r.string(j, "", "name", true));
    REQUIRE(r.errors() == std::vector<std::string>{"w.json:2:11: /name: expected a string, got number"});
  }
  SECTION("Should locate an error about a key at the key, not its value") {
    r.keyError("/spot/extra", "unknown key");
    REQUIRE(r.errors() == std::vector<std::string>{"w.json:3:13: /spot/extra: unknown key"});
  }
  SECTION("Should locate a missing key at the object that lacks it") {
    REQUIRE_FALSE(r.number(j["spot"], "/spot", "radius", true));
    REQUIRE(r.errors() == std::vector<std::string>{"w.json:3:11: /spot/radius: missing required key"});
  }
  SECTION("Should keep the pointer alone for documents it did not parse") {
    JsonReader other("x.json");
    other.error("/a", "bad");
    REQUIRE(other.errors() == std::vector<std::string>{"x.json: /a: bad"});
  }
}
