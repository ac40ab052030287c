// Domain loading (core/goap/domain_loader.h): the schema, resolution to ids, templates and
// fragments, and located diagnostics ("file: /json/path: message").
#include <algorithm>
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "goap_test_support.h"

using namespace npc::goap;
using namespace npc::goap::test;

namespace {

const char* kFull = R"({
  "domain": "full",
  "search": { "weight": 1.5, "max_nodes": 512, "max_candidates": 2, "at_tolerance_m": 1,
              "node_lmcut_after": 300 },
  "goal_selection": { "hysteresis": 2, "retry_s": 4, "replan_cooldown_s": 1 },
  "facts": [
    { "name": "armed", "type": "bool", "initial": true },
    { "name": "stance", "type": "enum", "values": ["standing", "crouched", "prone"], "initial": "crouched" },
    { "name": "wood", "type": "int", "min": 0, "max": 2 }
  ],
  "targets": ["enemy"],
  "blackboard": { "in_position": "bool", "threat": "float" },
  "conditions": {
    "standing": [{ "fact": "stance", "value": "standing" }],
    "near": { "params": ["r"], "all": [{ "distance_to": "enemy", "op": "<", "value": "$r" }] }
  },
  "effects": { "stand": [{ "fact": "stance", "set": "standing" }] },
  "costs": { "walk": { "params": ["k"], "cost": { "base": 1, "travel_per_m": "$k" } } },
  "templates": {
    "chop": { "params": ["n", "c"], "action": {
      "name": "chop_$n", "pre": [{ "fact": "wood", "op": "<", "value": 2 }],
      "effects": [{ "fact": "wood", "add": "$n" }], "cost": "$c" } }
  },
  "actions": [
    { "name": "Stand", "pre": [{ "fact": "stance", "op": "!=", "value": "standing" }],
      "effects": [{ "use": "stand" }], "cost": 0.5 },
    { "template": "chop", "for_each": [{ "n": 1, "c": 2 }, { "n": 2, "c": 3 }] },
    { "name": "Approach", "pre": [{ "use": "standing" }],
      "effects": [{ "move_near": "enemy", "range": 2 }], "cost": { "use": "walk", "args": { "k": 0.5 } } },
    { "name": "Strike", "pre": [{ "use": "near", "args": { "r": 2.5 } }, { "fact": "armed", "value": true },
                               { "blackboard": "in_position", "value": true }],
      "effects": [{ "fact": "wood", "sub": 1 }], "cost": [1, { "base": 2 }],
      "pacing": { "agent_penalty": 3, "half_life_s": 5 }, "records": ["violence"],
      "on_success": [{ "blackboard": "in_position", "set": false }],
      "params": { "animation": "strike", "reach_m": 2.5 } },
    { "name": "Burn", "object": { "max_distance_m": 12, "max_candidates": 1 },
      "pre": [{ "at": "$object" }], "cost": { "base": 1, "distance_to": "$object", "distance_per_m": 2 } },
    { "name": "Wait", "cost": { "base": 1, "by_fact": "stance",
                                "table": { "standing": 1, "crouched": 2, "prone": 4 } } }
  ],
  "smart_objects": [ { "species": "haystack", "actions": ["Burn"] } ],
  "goals": [
    { "name": "stock", "priority": 2, "desired": [{ "fact": "wood", "op": ">=", "value": 2 }],
      "relevant": [{ "fact": "armed", "value": true }], "end_with": "Wait" },
    { "name": "fight", "priority": 5, "desired": [{ "fact": "wood", "value": 0 }] }
  ],
  "buckets": [
    { "name": "Work", "actions": ["chop_*", "Wait"], "goals": ["stock"], "fallback": "Wait" },
    { "name": "Fight", "actions": ["Stand", "Approach", "Strike", "Burn"], "goals": ["fight"] }
  ]
})";

std::string errorsOf(const std::string& json, const std::string& file = "bad.json") {
  GoapLibrary lib;
  const GoapLoadReport r = lib.loadText(file, json);
  return r.text();
}

}  // namespace

TEST_CASE("A domain loads, resolves names to ids and compiles its actions", "[goap][loader]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDomain(lib, kFull, "config/goap/full.json");

  SECTION("Should read facts with their types, ranges and initial values") {
    REQUIRE(d.facts().size() == 4);  // + the hidden @location (Approach moves)
    CHECK(d.locationFact() == FactId{3});
    CHECK(d.fact(d.findFact("stance")).type == FactType::kEnum);
    CHECK(d.get(d.initialState(), d.findFact("armed")) == 1);
    CHECK(d.formatValue(d.findFact("stance"), d.get(d.initialState(), d.findFact("stance"))) ==
          "crouched");
    CHECK(d.fact(d.findFact("wood")).max == 2);
    CHECK(d.formatState(d.initialState()) == "armed=true stance=crouched wood=0 @location=#0");
  }
  SECTION("Should expand templates and fragments with their arguments") {
    const ActionId chop2 = d.findAction("chop_2");
    REQUIRE(chop2 != ActionId::kNone);
    CHECK(d.action(chop2).effects[0].value == 2);
    CHECK(d.action(chop2).cost.base == 3);
    const ActionDef& strike = d.action(d.findAction("Strike"));
    REQUIRE(strike.conditions.size() == 3);
    CHECK(strike.conditions[0].text == "distance_to(enemy) < 2.5");
    CHECK(strike.conditions[2].text == "blackboard.in_position = 1");
    CHECK(strike.cost.base == 3);  // [1, {base 2}] summed
    CHECK(strike.effects[0].value == -1);
    CHECK(lib.pacingTagName(strike.pacing.tag) == "Strike");
    CHECK(strike.records.size() == 1);
    CHECK(strike.on_success.size() == 1);
    REQUIRE(strike.params.size() == 2);
    CHECK(strike.params[1].name == "reach_m");
    CHECK(strike.params[1].number == 2.5f);
    const ActionDef& approach = d.action(d.findAction("Approach"));
    CHECK(approach.cost.travel_per_m == 0.5f);
    CHECK(approach.moves);
    CHECK(d.action(d.findAction("Stand")).effects[0].value == 0);
  }
  SECTION("Should resolve smart objects, buckets with wildcards and goals") {
    CHECK(d.findSmartObjectType("haystack") == SmartObjectTypeId{0});
    const ActionDef& burn = d.action(d.findAction("Burn"));
    CHECK(burn.needs_object);
    CHECK(burn.object_max_distance_m == 12);
    CHECK(burn.max_candidates == 1);
    CHECK(burn.conditions[0].metres == 1);  // at_tolerance_m
    const BucketDef& work = d.bucket(d.findBucket("Work"));
    CHECK(work.actions.size() == 3);  // chop_1, chop_2, Wait
    CHECK(work.fallback == d.findAction("Wait"));
    CHECK(d.goal(d.findGoal("stock")).end_with == d.findAction("Wait"));
    CHECK(d.search().weight == 1.5f);
    CHECK(d.search().max_candidates == 2);
    CHECK(d.search().node_lmcut_after == 300);
    CHECK(d.goalSelection().hysteresis == 2);
    CHECK(lib.blackboard().type(lib.blackboard().find("threat")) == BlackboardType::kFloat);
  }
  SECTION("Should build a default bucket when none is declared") {
    GoapLibrary l2;
    const GoapDomain& b0 = loadDataDomain(l2, "b0_gpgoap.json");
    REQUIRE(b0.buckets().size() == 1);
    CHECK(b0.bucket(BucketId{0}).name == "default");
    CHECK(b0.bucket(BucketId{0}).actions.size() == 7);
    CHECK(b0.bucket(BucketId{0}).goals.size() == 2);
    CHECK(b0.search().node_lmcut_after == kNeverLmcutPerNode);  // LM-cut per node: opt-in
  }
  SECTION("Should locate a negative node_lmcut_after") {
    CHECK(errorsOf(R"({ "domain": "d", "search": { "node_lmcut_after": -1 }, "facts": [],
                        "actions": [] })") ==
          "bad.json:1:50: /search/node_lmcut_after: must be >= 0");
  }
}

TEST_CASE("Errors name the file and the JSON path, all of them at once", "[goap][loader]") {
  SECTION("Should report every problem of a file") {
    const std::string errors = errorsOf(R"({
      "domain": "bad",
      "facts": [ { "name": "ok", "type": "bool" },
                 { "name": "level", "type": "int", "min": 0, "max": 99 },
                 { "name": "mood", "type": "enum", "values": ["calm", "angry"], "initial": "sad" } ],
      "actions": [
        { "name": "a", "pre": [{ "fact": "missing", "value": true }], "effects": [{ "fact": "ok", "set": 3 }] },
        { "name": "b", "pre": [{ "fact": "ok", "op": "<", "value": true }], "cost": -1 },
        { "name": "c", "effects": [{ "move_to": "$object" }] }
      ],
      "goals": [ { "name": "g", "desired": [{ "distance_to": "x", "op": "<", "value": 1 }] } ]
    })");
    CHECK(errors ==
          "bad.json:4:69: /facts/1/max: an int fact needs min ≤ max and at most 64 values\n"
          "bad.json:5:92: /facts/2/initial: \"sad\" is not a value of enum fact \"mood\" (calm, angry)\n"
          "bad.json:7:42: /actions/0/pre/0/fact: unknown fact \"missing\"\n"
          "bad.json:7:106: /actions/0/effects/0/set: expected true or false for bool fact \"ok\"\n"
          "bad.json:8:54: /actions/1/pre/0/op: a bool fact is compared with = or != only\n"
          "bad.json:8:85: /actions/1/cost: costs must be ≥ 0\n"
          "bad.json:9:49: /actions/2/effects/0/move_to: \"$object\" is only available to actions "
          "with \"object\"\n"
          "bad.json:11:45: /goals/0/desired/0: goal conditions may only test facts\n"
          "bad.json:11:44: /goals/0/desired: a goal desires at least one fact");
  }
  SECTION("Should stop at a key the schema does not know, before the checks it would confuse") {
    CHECK(errorsOf(R"({ "domain": "bad", "facts": [ { "name": "ok", "type": "bool" } ],
      "actions": [ { "name": "b", "pre": [{ "fact": "missing", "value": true }], "colour": "red" } ] })") ==
          "bad.json:2:82: /actions/0/colour: unknown key");
  }
  SECTION("Should locate errors inside templates and name where they were used") {
    const std::string errors = errorsOf(R"({
      "domain": "tpl",
      "facts": [ { "name": "at", "type": "enum", "values": ["a", "b"] } ],
      "templates": { "go": { "params": ["to"], "action": {
        "name": "go_$to", "effects": [{ "fact": "at", "set": "$to" }] } } },
      "actions": [ { "template": "go", "for_each": [{ "to": "a" }, { "to": "c" }, { "too": "b" }] } ]
    })");
    CHECK(errors ==
          "bad.json:5:62: /templates/go/action/effects/0/set: \"c\" is not a value of enum fact "
          "\"at\" (a, b) (in template \"go\" used at /actions/0/for_each/1)\n"
          "bad.json:6:83: /actions/0/for_each/2/args: missing argument \"to\" for template \"go\"\n"
          "bad.json:6:83: /actions/0/for_each/2/args/too: \"go\" has no parameter \"too\"");
  }
  SECTION("Should refuse unknown references between sections") {
    const std::string errors = errorsOf(R"({
      "domain": "refs",
      "facts": [ { "name": "f", "type": "bool" } ],
      "actions": [ { "name": "use_it", "object": true, "pre": [{ "at": "$object" }] },
                   { "name": "idle", "pre": [{ "fact": "f", "value": true }] } ],
      "smart_objects": [ { "species": "rock", "actions": ["nope"] } ],
      "goals": [ { "name": "g", "desired": [{ "fact": "f", "value": true }], "end_with": "later" } ],
      "buckets": [ { "name": "B", "actions": ["x*"], "goals": ["h"], "fallback": "idle" } ]
    })");
    CHECK(errors ==
          "bad.json:6:59: /smart_objects/0/actions/0: unknown action \"nope\"\n"
          "bad.json:4:20: /actions/0: action \"use_it\" needs an object but no smart object "
          "advertises it\n"
          "bad.json:7:90: /goals/0/end_with: unknown action \"later\"\n"
          "bad.json:8:47: /buckets/0/actions/0: no action matches \"x*\"\n"
          "bad.json:8:64: /buckets/0/goals/0: unknown goal \"h\"\n"
          "bad.json:8:82: /buckets/0/fallback: fallback action \"idle\" must be always available "
          "(no conditions, no object)");
  }
  SECTION("Should locate misused \"any\", \"in\" and \"clamp\"") {
    const std::string errors = errorsOf(R"({
      "domain": "forms",
      "facts": [ { "name": "has_axe", "type": "bool" },
                 { "name": "location", "type": "enum", "values": ["home", "woodshed", "forest"] },
                 { "name": "coins", "type": "int", "min": 0, "max": 3 } ],
      "actions": [
        { "name": "one", "pre": [{ "any": [{ "fact": "has_axe", "value": true }] }] },
        { "name": "nested", "pre": [{ "any": [{ "fact": "has_axe", "value": true },
            { "any": [{ "fact": "coins", "value": 1 }, { "fact": "coins", "value": 2 }] }] }] },
        { "name": "in_int", "pre": [{ "fact": "coins", "in": [1, 2] }] },
        { "name": "in_unknown", "pre": [{ "fact": "location", "in": ["home", "castle"] }] },
        { "name": "in_empty", "pre": [{ "fact": "location", "in": [] }] },
        { "name": "clamp_set", "effects": [{ "fact": "coins", "set": 1, "clamp": true }] },
        { "name": "clamp_bool", "effects": [{ "fact": "has_axe", "set": true, "clamp": true }] },
        { "name": "add_bool", "effects": [{ "fact": "has_axe", "add": 1, "clamp": true }] }
      ],
      "goals": [ { "name": "g", "desired": [{ "fact": "has_axe", "value": true }],
                   "relevant": [{ "any": [{ "fact": "has_axe", "value": true },
                                          { "fact": "coins", "value": 3 }] }] } ]
    })");
    CHECK(errors ==
          "bad.json:7:43: /actions/0/pre/0/any: expected an array of at least 2 alternative "
          "conditions\n"
          "bad.json:9:13: /actions/1/pre/0/any/1: \"any\" cannot be nested (list the alternatives in "
          "one \"any\")\n"
          "bad.json:10:62: /actions/2/pre/0/in: \"in\" applies to enum facts only (\"coins\" is not an "
          "enum)\n"
          "bad.json:11:78: /actions/3/pre/0/in/1: \"castle\" is not a value of enum fact \"location\" "
          "(home, woodshed, forest)\n"
          "bad.json:12:67: /actions/4/pre/0/in: expected a non-empty array of values of enum fact "
          "\"location\"\n"
          "bad.json:13:82: /actions/5/effects/0/clamp: \"clamp\" applies to \"add\" and \"sub\" only\n"
          "bad.json:14:88: /actions/6/effects/0/clamp: \"clamp\" applies to \"add\" and \"sub\" only\n"
          "bad.json:15:71: /actions/7/effects/0/add: add/sub apply to int facts only\n"
          "bad.json:18:33: /goals/0/relevant/0: \"any\" is only available in action preconditions "
          "and goal \"desired\"");
  }
  SECTION("Should name a key a condition's form does not have, before anything else") {
    // "in" makes it a set test: "value" belongs to the other form. The schema says so,
    // and the loader's checks wait for a document of the right shape.
    const std::string errors = errorsOf(R"({
      "domain": "forms",
      "facts": [ { "name": "location", "type": "enum", "values": ["home", "woodshed"] } ],
      "actions": [
        { "name": "in_and_value",
          "pre": [{ "fact": "location", "in": ["home"], "value": "home" }] },
        { "name": "in_unknown", "pre": [{ "fact": "location", "in": ["castle"] }] } ]
    })");
    CHECK(errors == "bad.json:6:57: /actions/0/pre/0/value: unknown key");
  }
  SECTION("Should locate misused \"any\" in goals") {
    const std::string errors = errorsOf(R"({
      "domain": "goal_forms",
      "blackboard": { "alarm": "bool" },
      "targets": ["enemy"],
      "facts": [ { "name": "a", "type": "enum", "values": ["x", "y", "z"] },
                 { "name": "b", "type": "enum", "values": ["x", "y", "z"] },
                 { "name": "c", "type": "bool" } ],
      "actions": [],
      "goals": [
        { "name": "one", "desired": [{ "any": [{ "fact": "c", "value": true }] }] },
        { "name": "nested", "desired": [{ "any": [{ "fact": "c", "value": true },
            { "any": [{ "fact": "a", "value": "x" }, { "fact": "a", "value": "y" }] }] }] },
        { "name": "context", "desired": [{ "any": [{ "fact": "c", "value": true },
            { "blackboard": "alarm", "value": true }, { "at": "enemy" }] }] }
      ]
    })");
    CHECK(errors ==
          "bad.json:10:47: /goals/0/desired/0/any: expected an array of at least 2 alternative "
          "conditions\n"
          "bad.json:10:37: /goals/0/desired: a goal desires at least one fact\n"
          "bad.json:12:13: /goals/1/desired/0/any/1: \"any\" cannot be nested (list the alternatives "
          "in one \"any\")\n"
          "bad.json:11:40: /goals/1/desired: a goal desires at least one fact\n"
          "bad.json:14:13: /goals/2/desired/0/any/1: goal conditions may only test facts\n"
          "bad.json:14:55: /goals/2/desired/0/any/2: goal conditions may only test facts\n"
          "bad.json:13:41: /goals/2/desired: a goal desires at least one fact");
  }
  SECTION("Should bound the variants a goal's \"any\"s combine into") {
    const std::string errors = errorsOf(R"({
      "domain": "goal_variants",
      "facts": [ { "name": "a", "type": "enum", "values": ["x", "y", "z"] },
                 { "name": "b", "type": "enum", "values": ["x", "y", "z"] },
                 { "name": "c", "type": "bool" } ],
      "actions": [],
      "goals": [
        { "name": "ok", "desired": [{ "fact": "c", "value": true },
          { "any": [{ "fact": "a", "value": "x" }, { "fact": "b", "op": "!=", "value": "x" }] }] },
        { "name": "many", "desired": [
          { "any": [{ "fact": "a", "value": "x" }, { "fact": "a", "value": "y" },
                    { "fact": "c", "value": true }] },
          { "any": [{ "fact": "b", "value": "x" }, { "fact": "b", "value": "y" },
                    { "fact": "c", "value": true }] },
          { "any": [{ "fact": "a", "value": "z" }, { "fact": "b", "value": "z" }] } ] },
        { "name": "never", "desired": [{ "fact": "a", "value": "z" },
          { "any": [{ "fact": "a", "value": "x" }, { "fact": "a", "value": "y" }] }] },
        { "name": "clash", "desired": [{ "fact": "c", "value": true },
                                       { "fact": "c", "value": false }] }
      ]
    })");
    CHECK(errors ==
          "bad.json:10:9: /goals/1: goal \"many\": its \"any\" conditions combine into 18 variants "
          "(at most 16)\n"
          "bad.json:16:9: /goals/2: goal \"never\": every alternative of its \"any\" conditions "
          "contradicts its other desired conditions\n"
          "bad.json:18:9: /goals/3: goal \"clash\": contradictory desired values for \"c\"");
  }
  SECTION("Should bound the variants an action's \"any\"s combine into") {
    const std::string errors = errorsOf(R"({
      "domain": "variants",
      "facts": [ { "name": "a", "type": "enum", "values": ["x", "y", "z"] },
                 { "name": "b", "type": "enum", "values": ["x", "y", "z"] },
                 { "name": "c", "type": "bool" } ],
      "conditions": { "ab_x": [{ "fact": "a", "value": "x" }, { "fact": "b", "value": "x" }] },
      "actions": [
        { "name": "ok", "pre": [{ "any": [{ "use": "ab_x" }, { "fact": "c", "value": true }] }] },
        { "name": "many", "pre": [
          { "any": [{ "fact": "a", "value": "x" }, { "fact": "a", "value": "y" },
                    { "fact": "c", "value": true }] },
          { "any": [{ "fact": "b", "value": "x" }, { "fact": "b", "value": "y" },
                    { "fact": "c", "value": true }] },
          { "any": [{ "fact": "a", "value": "z" }, { "fact": "b", "value": "z" }] } ] },
        { "name": "never", "pre": [{ "fact": "c", "value": false },
          { "any": [{ "fact": "c", "value": true }, { "use": "ab_x" }] },
          { "fact": "a", "value": "z" }] }
      ]
    })");
    CHECK(errors ==
          "bad.json:9:9: /actions/1: action \"many\": its \"any\" conditions combine into 18 variants "
          "(at most 16)\n"
          "bad.json:15:9: /actions/2: action \"never\": every alternative of its \"any\" conditions "
          "contradicts its other conditions");
  }
  SECTION("Should give line and column for JSON syntax errors") {
    const std::string errors = errorsOf("{\n  \"domain\": \"x\",\n  \"facts\": [ }\n}");
    CHECK(errors.rfind("bad.json:3:", 0) == 0);
  }
  SECTION("Should refuse a blackboard key redeclared with another type") {
    GoapLibrary lib;
    REQUIRE(lib.loadText("a.json", R"({ "domain": "a", "facts": [], "actions": [],
                                        "blackboard": { "k": "bool" } })").ok());
    const GoapLoadReport r = lib.loadText("b.json", R"({ "domain": "b", "facts": [], "actions": [],
                                                        "blackboard": { "k": "float" } })");
    CHECK(r.text() == "b.json:2:78: /blackboard/k: blackboard key \"k\" is already declared as bool");
  }
  SECTION("Should refuse a whole set when one file is bad, and duplicate names") {
    GoapLibrary lib;
    std::vector<GoapSourceFile> files = {
        {"one.json", R"({ "domain": "one", "facts": [], "actions": [] })"},
        {"two.json", R"({ "domain": "one", "facts": [], "actions": [] })"},
    };
    const GoapLoadReport r = lib.loadFiles(files);
    CHECK(r.text() == "two.json: /domain: domain \"one\" is already loaded");
    CHECK(lib.size() == 0);
  }
  SECTION("Should report limits") {
    std::string facts;
    for (int i = 0; i < 50; ++i)
      facts += std::string(i ? "," : "") + R"({ "name": "f)" + std::to_string(i) +
               R"(", "type": "int", "min": 0, "max": 63 })";
    const std::string errors =
        errorsOf(R"({ "domain": "big", "facts": [)" + facts + R"(], "actions": [] })");
    CHECK(errors == "bad.json:1:29: /facts: the facts need more than 256 state bits");
  }
}

TEST_CASE("The shipped domains load", "[goap][loader]") {
  GoapLibrary lib;
  const GoapLoadReport r = lib.loadDirectory(std::string(NPCD_SOURCE_DIR) + "/config/goap");
  INFO(r.text());
  REQUIRE(r.ok());
  CHECK(lib.find("guard") != nullptr);
  CHECK(lib.find("attacker") != nullptr);
  GoapLibrary data;
  const GoapLoadReport b = data.loadDirectory(NPCD_GOAP_DATA_DIR);
  INFO(b.text());
  CHECK(b.ok());
  CHECK(data.size() == 5);  // B0 (2 files), B1, B2, the villager's day
}

// Regression: errors named the file by the path the daemon was given, not from the
// definitions directory down.
TEST_CASE("Domain files in errors are named from their definitions directory", "[goap][loader]") {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "npcd_goap_names" / "goap";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "broken.json", std::ios::binary) << "{\n  \"domain\": 1e400\n}";
  GoapLibrary lib;
  const GoapLoadReport r = lib.loadDirectory(dir.string());
  REQUIRE(r.errors == std::vector<std::string>{"goap/broken.json:2:17: number overflow parsing '1e400'"});
  std::filesystem::remove_all(dir.parent_path());
}

TEST_CASE("A cost table may leave out the values the action's preconditions exclude",
          "[goap][loader]") {
  // Travel costs by where the agent stands: going to the forest never starts in the forest,
  // so its table needs no "forest" entry; chop's and go_field's need one entry each.
  const char* domain = R"({ "domain": "sparse",
    "facts": [ { "name": "at", "type": "enum", "values": ["home", "field", "forest"] },
               { "name": "wood", "type": "bool" } ],
    "actions": [
      { "name": "go_forest", "pre": [{ "fact": "at", "op": "!=", "value": "forest" }],
        "effects": [{ "fact": "at", "set": "forest" }],
        "cost": { "by_fact": "at", "table": { "home": 5, "field": 2 } } },
      { "name": "go_field", "pre": [{ "fact": "at", "in": ["home"] }],
        "effects": [{ "fact": "at", "set": "field" }],
        "cost": { "by_fact": "at", "table": { "home": 1 } } },
      { "name": "chop", "pre": [{ "fact": "at", "value": "forest" }],
        "effects": [{ "fact": "wood", "set": true }],
        "cost": [1, { "by_fact": "at", "table": { "forest": 0 } }] } ],
    "goals": [ { "name": "wood", "desired": [{ "fact": "wood", "value": true }] } ] })";
  SECTION("Should load and plan with the entries it has") {
    GoapLibrary lib;
    const GoapDomain& d = loadDomain(lib, domain, "sparse.json");
    GoapPlanner planner;
    for (int search = 0; search < 2; ++search) {  // LM-cut, then the exact table
      const PlanResult& r = planner.plan(request(d, {"wood"}));
      INFO("search " << search);
      REQUIRE(r.status == PlanStatus::kFound);
      CHECK(names(d, r) == std::vector<std::string>{"go_field", "go_forest", "chop"});
      CHECK(r.cost == 4.f);
    }
  }
  SECTION("Should refuse a missing value the preconditions allow, and say where") {
    std::string bad = domain;
    bad.replace(bad.find(R"("home": 5, )"), 11, "");
    CHECK(errorsOf(bad) ==
          "bad.json:7:45: /actions/0/cost/table: no cost for value \"home\" (only values the "
          "action's preconditions exclude may be left out)");
  }
}

TEST_CASE("A travel cost is a formula over an enum fact's positions", "[goap][loader]") {
  // One template instead of a 3 × 3 table: going to $to from where the agent stands costs
  // 0.1 per metre, rounded to whole units; the table leaves out $to itself.
  const char* domain = R"({ "domain": "travel",
    "facts": [ { "name": "at", "type": "enum", "values": ["home", "field", "forest"],
                 "positions": { "home": [0, 0], "field": [30, 40], "forest": [123, 0, 0] } },
               { "name": "wood", "type": "bool" } ],
    "templates": { "go": { "params": ["to"], "action": {
      "name": "go_$to", "pre": [{ "fact": "at", "op": "!=", "value": "$to" }],
      "effects": [{ "fact": "at", "set": "$to" }],
      "cost": { "by_fact": "at", "travel_to": "$to", "per_m": 0.1, "round": 1 } } } },
    "actions": [
      { "template": "go", "for_each": [{ "to": "home" }, { "to": "field" }, { "to": "forest" }] },
      { "name": "chop", "pre": [{ "fact": "at", "value": "forest" }],
        "effects": [{ "fact": "wood", "set": true }] } ],
    "goals": [ { "name": "wood", "desired": [{ "fact": "wood", "value": true }] } ] })";
  SECTION("Should compute each value's cost at load") {
    GoapLibrary lib;
    const GoapDomain& d = loadDomain(lib, domain, "travel.json");
    const ActionDef& to_forest = d.action(d.findAction("go_forest"));
    const ActionDef& to_field = d.action(d.findAction("go_field"));
    const auto table = d.costTable();
    CHECK(table[to_forest.cost.table_offset + 0] == 12.f);  // 12.3 m·0.1 from home, rounded
    CHECK(table[to_forest.cost.table_offset + 1] == 10.f);  // √(93² + 40²) = 101.2 m
    CHECK(table[to_field.cost.table_offset + 0] == 5.f);    // 50 m
    GoapPlanner planner;
    const PlanResult& r = planner.plan(request(d, {"wood"}));
    REQUIRE(r.status == PlanStatus::kFound);
    CHECK(names(d, r) == std::vector<std::string>{"go_forest", "chop"});
    CHECK(r.cost == 13.f);
  }
  SECTION("Should locate misuse") {
    std::string bad = domain;
    bad.replace(bad.find(R"("forest": [123, 0, 0])"), 21, R"("forest": [123, "x"])");
    bad.replace(bad.find(R"("per_m": 0.1, "round": 1)"), 24, R"("per_m": 0.1, "round": -1)");
    bad.replace(bad.find(R"({ "name": "wood", "type": "bool" })"), 34,
                R"({ "name": "wood", "type": "bool", "positions": {} })");
    CHECK(errorsOf(bad) ==
          "bad.json:3:78: /facts/0/positions/forest: expected [x, y] or [x, y, z] in metres\n"
          "bad.json:4:63: /facts/1/positions: only enum facts have positions\n"
          "bad.json:8:77: /templates/go/action/cost/round: must be ≥ 0 (0: not rounded) (in "
          "template \"go\" used at /actions/0/for_each/0)\n"
          "bad.json:8:77: /templates/go/action/cost/round: must be ≥ 0 (0: not rounded) (in "
          "template \"go\" used at /actions/0/for_each/1)\n"
          "bad.json:8:47: /templates/go/action/cost/travel_to: value \"forest\" has no position "
          "(in template \"go\" used at /actions/0/for_each/2)");
  }
  SECTION("Should keep per_m and round with travel_to, and travel_to apart from a table") {
    const std::string chop = R"("effects": [{ "fact": "wood", "set": true }] })";
    for (const auto& [cost, error] : std::vector<std::pair<std::string, std::string>>{
             {R"({ "by_fact": "at", "table": { "forest": 1 }, "round": 1 })",
              "\"per_m\" and \"round\" go with \"travel_to\""},
             {R"({ "by_fact": "at", "travel_to": "home", "per_m": 1, "table": {} })",
              "\"travel_to\" needs \"by_fact\" and no \"table\""}}) {
      std::string bad = domain;
      bad.replace(bad.find(chop), chop.size(),
                  R"("effects": [{ "fact": "wood", "set": true }], "cost": )" + cost + " }");
      CHECK(errorsOf(bad) == "bad.json:12:63: /actions/1/cost: " + error);
    }
  }
  SECTION("Should refuse a value without a position that the preconditions allow") {
    std::string bad = domain;
    bad.replace(bad.find(R"(, "forest": [123, 0, 0])"), 23, "");
    const std::string errors = errorsOf(bad);
    CHECK(errors.find("bad.json:8:47: /templates/go/action/cost/travel_to: value \"forest\" has no "
                      "position (in template \"go\" used at /actions/0/for_each/2)") !=
          std::string::npos);
    CHECK(errors.find("bad.json:8:28: /templates/go/action/cost/by_fact: value \"forest\" has no "
                      "position (only values the action's preconditions exclude may be left "
                      "out) (in template \"go\" used at /actions/0/for_each/0)") !=
          std::string::npos);
  }
}

namespace {

// The shipped guard domain with its first `from` (a key, quoted) renamed to `to`, and the
// line:col where the renamed key starts.
struct Renamed {
  std::string text;
  std::string at;
};

Renamed renameKey(const std::string& from, const std::string& to, const std::string& after = "") {
  Renamed r;
  r.text = readFile(NPCD_SOURCE_DIR "/config/goap/guard.json");
  const size_t start = after.empty() ? 0 : r.text.find(after);
  const size_t pos = r.text.find("\"" + from + "\":", start);
  REQUIRE(pos != std::string::npos);
  r.text.replace(pos + 1, from.size(), to);
  const size_t line_start = r.text.rfind('\n', pos);
  const auto line = 1 + std::count(r.text.begin(), r.text.begin() + static_cast<long>(pos), '\n');
  r.at = std::to_string(line) + ":" + std::to_string(pos - line_start);
  return r;
}

}  // namespace

TEST_CASE("A renamed key in a domain gives one error, not a cascade", "[goap][loader][schema]") {
  SECTION("Should report a misspelt section once, with line:col and did-you-mean") {
    // Before schemas: "missing required key" for /facts, then every condition and effect
    // naming a fact was "unknown fact" — 30 errors for one typo.
    const Renamed guard = renameKey("facts", "fcats");
    CHECK(errorsOf(guard.text, "config/goap/guard.json") ==
          "config/goap/guard.json:" + guard.at +
              ": /fcats: unknown key (did you mean \"facts\"?)");
  }
  SECTION("Should report a misspelt action name key once") {
    // Before: /actions/0/name missing, then "unknown action" in smart objects and buckets.
    const Renamed guard = renameKey("name", "nmae", "\"actions\"");
    CHECK(errorsOf(guard.text, "config/goap/guard.json") ==
          "config/goap/guard.json:" + guard.at +
              ": /actions/0/nmae: unknown key (did you mean \"name\"?)");
  }
  SECTION("Should check an action a template expands to against the schema") {
    CHECK(errorsOf(R"({ "domain": "t", "facts": [],
      "templates": { "go": { "params": ["to"], "action": { "name": "go_$to", "efects": [] } } },
      "actions": [ { "template": "go", "args": { "to": "a" } } ] })") ==
          "bad.json:2:78: /templates/go/action/efects: unknown key (did you mean \"effects\"?) "
          "(in template \"go\" used at /actions/0)");
  }
  SECTION("Should check a condition, effect and cost as written, and as a fragment expands") {
    // A misspelt key where the condition is written...
    CHECK(errorsOf(R"({ "domain": "t", "facts": [ { "name": "a", "type": "bool" } ],
      "actions": [ { "name": "x", "pre": [ { "fact": "a", "vlaue": true } ] } ] })") ==
          "bad.json:2:59: /actions/0/pre/0/vlaue: unknown key (did you mean \"value\"?)");
    CHECK(errorsOf(R"({ "domain": "t", "facts": [ { "name": "a", "type": "bool" } ],
      "actions": [ { "name": "x", "effects": [ { "fact": "a", "sett": true } ], "cost": { "bsae": 1 } } ] })") ==
          "bad.json:2:63: /actions/0/effects/0/sett: unknown key (did you mean \"set\"?)\n"
          "bad.json:2:91: /actions/0/cost/bsae: unknown key (did you mean \"base\"?)");
    // ...and one a fragment's "$param" brings in whole, found when it is used: at the
    // "$param" it replaced, naming the use.
    CHECK(errorsOf(R"({ "domain": "t", "facts": [ { "name": "a", "type": "bool" } ],
      "conditions": { "both": { "params": ["c"], "all": [ "$c" ] } },
      "actions": [ { "name": "x", "pre": [ { "use": "both", "args": { "c": { "fact": "a", "vlaue": true } } } ] } ] })") ==
          "bad.json:2:59: /conditions/both/all/0/vlaue: unknown key (did you mean \"value\"?) "
          "(in condition \"both\" used at /actions/0/pre/0)");
  }
  SECTION("Should suggest the closest value for a misspelt enum") {
    std::string text = readFile(NPCD_SOURCE_DIR "/config/goap/guard.json");
    const size_t pos = text.find("\"bool\"", text.find("\"has_lamp\""));
    text.replace(pos, 6, "\"bol\"");
    const std::string errors = errorsOf(text, "config/goap/guard.json");
    CHECK(errors.find("/facts/2/type: must be one of bool|enum|int (did you mean \"bool\"?)") !=
          std::string::npos);
    CHECK(errors.find('\n') == std::string::npos);
  }
}
