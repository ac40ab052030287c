// Buckets: actions grouped by the agent's behavior state (the selection tree's behavior
// name); only the current bucket is searched, and each bucket has a fallback.
#include <catch2/catch.hpp>

#include "goap/trace.h"
#include "goap_test_support.h"

using namespace npc::goap;
using namespace npc::goap::test;

namespace {
const char* kStates = R"({
  "domain": "states",
  "facts": [ { "name": "clue", "type": "bool" }, { "name": "searched", "type": "bool" },
             { "name": "enemy_down", "type": "bool" }, { "name": "weapon_out", "type": "bool" } ],
  "actions": [
    { "name": "LookAround", "effects": [{ "fact": "clue", "set": true }], "cost": 2 },
    { "name": "CheckHayStack", "effects": [{ "fact": "searched", "set": true }], "cost": 3 },
    { "name": "Shout", "effects": [{ "fact": "clue", "set": true }], "cost": 1 },
    { "name": "DrawWeapon", "effects": [{ "fact": "weapon_out", "set": true }], "cost": 1 },
    { "name": "Attack", "pre": [{ "fact": "weapon_out", "value": true }],
      "effects": [{ "fact": "enemy_down", "set": true }], "cost": 2 },
    { "name": "Idle", "cost": 1 },
    { "name": "Shrug", "cost": 1 }
  ],
  "goals": [ { "name": "find_clue", "priority": 1, "desired": [{ "fact": "clue", "value": true }] },
             { "name": "search", "priority": 1, "desired": [{ "fact": "searched", "value": true }] },
             { "name": "kill", "priority": 5, "desired": [{ "fact": "enemy_down", "value": true }] } ],
  "buckets": [
    { "name": "Investigation", "actions": ["LookAround"], "goals": ["find_clue"], "fallback": "Idle" },
    { "name": "Search", "actions": ["LookAround", "CheckHayStack"], "goals": ["search", "find_clue"], "fallback": "Shrug" },
    { "name": "Fight", "actions": ["Shout", "DrawWeapon", "Attack"], "goals": ["kill", "find_clue"], "fallback": "Idle" }
  ]
})";
}  // namespace

TEST_CASE("Only the current bucket's actions are searched", "[goap][buckets]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDomain(lib, kStates);
  GoapPlanner planner;

  SECTION("Should map behavior names to buckets") {
    CHECK(d.findBucket("Investigation") == BucketId{0});
    CHECK(d.findBucket("Fight") == BucketId{2});
    CHECK(d.findBucket("Flee") == BucketId::kNone);
  }
  SECTION("Should answer the same goal with each bucket's own actions") {
    PlanRequest r = request(d, {"find_clue"});
    r.bucket = d.findBucket("Investigation");
    CHECK(names(d, planner.plan(r)) == std::vector<std::string>{"LookAround"});
    r.bucket = d.findBucket("Fight");
    CHECK(names(d, planner.plan(r)) == std::vector<std::string>{"Shout"});  // cheaper, Fight only
  }
  SECTION("Should find no plan outside the bucket and hand back its fallback") {
    PlanTrace trace;
    PlanRequest r = request(d, {"kill"});
    r.bucket = d.findBucket("Search");
    r.trace = &trace;
    const PlanResult& res = planner.plan(r);
    CHECK(res.status == PlanStatus::kNoPlan);
    CHECK(res.fallback == d.findAction("Shrug"));
    CHECK(trace.count(RejectReason::kNotInBucket) == 5);
    CHECK(explain(res, d).find("no action in the bucket achieves it") != std::string::npos);
    r.bucket = d.findBucket("Fight");
    r.trace = nullptr;
    CHECK(names(d, planner.plan(r)) == std::vector<std::string>{"DrawWeapon", "Attack"});
  }
}
