// JSON Schema checks (core/base/json_schema.h): plain messages, one per root cause.
#include "base/json_schema.h"

#include <catch2/catch.hpp>

#include "base/json_reader.h"

namespace npc {
namespace {

const char* kSchema = R"({
  "type": "object",
  "additionalProperties": false,
  "required": ["name", "effects"],
  "properties": {
    "name": { "type": "string", "minLength": 1 },
    "effects": { "type": "array", "items": { "$ref": "#/definitions/effect" } },
    "kind": { "enum": ["bool", "enum", "int"] },
    "weight": { "type": "number", "minimum": 1 },
    "radius_m": { "type": "number", "exclusiveMinimum": 0 },
    "max": { "type": "integer", "maximum": 16 },
    "tags": { "type": "array", "minItems": 1, "maxItems": 2 },
    "entry": {
      "if": { "required": ["template"] },
      "then": { "type": "object", "additionalProperties": false,
                "properties": { "template": { "type": "string" } } },
      "else": { "type": "object", "additionalProperties": false,
                "properties": { "label": { "type": "string" } } }
    }
  },
  "definitions": {
    "effect": {
      "type": "object",
      "additionalProperties": false,
      "required": ["fact"],
      "properties": { "fact": { "type": "string" }, "set": { "type": ["boolean", "integer"] } }
    }
  }
})";

// "pointer: message" lines, in the order reported.
std::string check(const std::string& doc) {
  const JsonSchema schema(kSchema);
  REQUIRE(schema.error().empty());
  std::string out;
  for (const auto& v : schema.validate(nlohmann::json::parse(doc))) {
    if (!out.empty()) out += '\n';
    out += (v.pointer.empty() ? "/" : v.pointer) + ": " + v.message;
  }
  return out;
}

}  // namespace

TEST_CASE("JsonSchema turns violations into short plain messages", "[json][schema]") {
  SECTION("Should accept a conforming document") {
    CHECK(check(R"({"name": "a", "effects": [{"fact": "f", "set": true}]})").empty());
  }
  SECTION("Should name an unknown key with a did-you-mean") {
    CHECK(check(R"({"name": "a", "effects": [], "wieght": 2})") ==
          "/wieght: unknown key (did you mean \"weight\"?)");
  }
  SECTION("Should name every unknown key of an object, not only the first") {
    CHECK(check(R"({"name": "a", "effects": [], "colour": 1, "size": 2})") ==
          "/colour: unknown key\n/size: unknown key");
  }
  SECTION("Should report a missing required key") {
    CHECK(check(R"({"effects": []})") == "/: missing required key \"name\"");
  }
  SECTION("Should report a misspelt required key once, as the unknown key") {
    CHECK(check(R"({"name": "a", "effects": [{"fcat": "f"}]})") ==
          "/effects/0/fcat: unknown key (did you mean \"fact\"?)");
  }
  SECTION("Should still report a missing key when the unknown one is not close to it") {
    CHECK(check(R"({"name": "a", "effects": [{"colour": "red"}]})") ==
          "/effects/0/colour: unknown key\n/effects/0: missing required key \"fact\"");
  }
  SECTION("Should say which type was expected and which was found") {
    CHECK(check(R"({"name": 3, "effects": {}})") ==
          "/effects: expected an array, got an object\n/name: expected a string, got an integer");
    CHECK(check(R"({"name": "a", "effects": [{"fact": "f", "set": "yes"}]})") ==
          "/effects/0/set: expected true or false or an integer, got a string");
    CHECK(check(R"({"name": "a", "effects": [], "weight": "heavy"})") ==
          "/weight: expected a number, got a string");
  }
  SECTION("Should list an enum's values with a did-you-mean") {
    CHECK(check(R"({"name": "a", "effects": [], "kind": "enm"})") ==
          "/kind: must be one of bool|enum|int (did you mean \"enum\"?)");
    CHECK(check(R"({"name": "a", "effects": [], "kind": "float"})") ==
          "/kind: must be one of bool|enum|int");
  }
  SECTION("Should state bounds as comparisons") {
    CHECK(check(R"({"name": "a", "effects": [], "weight": 0.5})") == "/weight: must be >= 1");
    CHECK(check(R"({"name": "a", "effects": [], "radius_m": 0})") == "/radius_m: must be > 0");
    CHECK(check(R"({"name": "a", "effects": [], "max": 17})") == "/max: must be <= 16");
    CHECK(check(R"({"name": "", "effects": []})") == "/name: must not be empty");
    CHECK(check(R"({"name": "a", "effects": [], "tags": []})") ==
          "/tags: must have at least 1 items");
    CHECK(check(R"({"name": "a", "effects": [], "tags": [1, 2, 3]})") ==
          "/tags: must have at most 2 items");
  }
  SECTION("Should follow if/then/else to the branch the document takes") {
    CHECK(check(R"({"name": "a", "effects": [], "entry": {"template": "t", "lable": 1}})") ==
          "/entry/lable: unknown key");
    CHECK(check(R"({"name": "a", "effects": [], "entry": {"lable": 1}})") ==
          "/entry/lable: unknown key (did you mean \"label\"?)");
  }
  SECTION("Should report a schema that is not JSON") {
    const JsonSchema broken("{ nope");
    CHECK(broken.error() == "schema is not valid JSON");
    REQUIRE(broken.validate(nlohmann::json::object()).size() == 1);
  }
}

TEST_CASE("Every built-in schema compiles", "[json][schema]") {
  for (SchemaId id : {SchemaId::kDaemonConfig, SchemaId::kWorld, SchemaId::kArchetype,
                      SchemaId::kLongActions, SchemaId::kInfluences, SchemaId::kActionExamples,
                      SchemaId::kGoapDomain, SchemaId::kBotsScenario}) {
    INFO(schemaFileStem(id));
    CHECK(JsonSchema::get(id).error().empty());
    CHECK(schemaIdFromStem(schemaFileStem(id)) == id);
  }
  CHECK_FALSE(schemaIdFromStem("nope").has_value());
}

TEST_CASE("JsonReader::validate gives line:col beside the pointer", "[json][schema]") {
  JsonReader reader("guard.json");
  nlohmann::json doc;
  REQUIRE(reader.parse(R"({
  "domain": "guard",
  "facts": [],
  "search": { "heuristic": "lmcat" },
  "actions": [ { "nmae": "Patrol" } ]
})",
                       doc));
  CHECK_FALSE(reader.validate(doc, SchemaId::kGoapDomain));
  CHECK(reader.report() ==
        "guard.json:4:28: /search/heuristic: must be one of auto|lmcut|blind (did you mean "
        "\"lmcut\"?)\n"
        "guard.json:5:18: /actions/0/nmae: unknown key (did you mean \"name\"?)");
}

}  // namespace npc
