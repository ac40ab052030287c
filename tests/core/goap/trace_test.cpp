// Planner monitor (core/goap/trace.h): expanded nodes, children with costs, open
// conditions, and every rejection with its reason, as structured data and JSON.
#include <set>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "goap/trace.h"
#include "goap_test_support.h"

using namespace npc;
using namespace npc::goap;
using namespace npc::goap::test;

namespace {

const char* kMonitor = R"({
  "domain": "monitor",
  "targets": ["enemy", "ally"],
  "blackboard": { "allowed": "bool" },
  "facts": [ { "name": "has_rock", "type": "bool" }, { "name": "done", "type": "bool" },
             { "name": "n", "type": "int", "min": 0, "max": 1 }, { "name": "x", "type": "bool" } ],
  "actions": [
    { "name": "PickRock", "object": { "max_distance_m": 20, "max_candidates": 1 },
      "pre": [{ "fact": "has_rock", "value": false }],
      "effects": [{ "move_to": "$object" }, { "fact": "has_rock", "set": true }],
      "cost": { "base": 1, "travel_per_m": 0.1 } },
    { "name": "Throw", "pre": [{ "fact": "has_rock", "value": true }, { "fact": "n", "op": ">=", "value": 1 }],
      "effects": [{ "fact": "done", "set": true }], "cost": 1 },
    { "name": "Bump", "effects": [{ "fact": "n", "add": 1 }], "cost": 0.5 },
    { "name": "Unbump", "effects": [{ "fact": "n", "sub": 1 }], "cost": 0.5 },
    { "name": "Wave", "pre": [{ "blackboard": "allowed", "value": true }], "effects": [{ "fact": "done", "set": true }], "cost": 0.1 },
    { "name": "Signal", "effects": [{ "move_to": "ally" }, { "fact": "done", "set": true }], "cost": 0.1 },
    { "name": "Dance", "effects": [{ "fact": "x", "set": true }], "cost": 1 },
    { "name": "Poke", "object": true, "effects": [{ "fact": "done", "set": true }], "cost": 0.1 },
    { "name": "Spin", "effects": [{ "fact": "done", "set": true }], "cost": 0.1 }
  ],
  "smart_objects": [ { "species": "rock", "actions": ["PickRock"] }, { "species": "stick", "actions": ["Poke"] } ],
  "goals": [ { "name": "done", "desired": [{ "fact": "done", "value": true }] } ],
  "buckets": [ { "name": "All", "actions": ["PickRock", "Throw", "Bump", "Unbump", "Wave", "Signal", "Dance", "Poke"],
                 "goals": ["done"] } ]
})";

struct NotAt : Reachability {
  Vec3 blocked;
  bool reachable(Vec3, Vec3 to) const override { return !(to == blocked); }
};

}  // namespace

TEST_CASE("The trace records expansions, children, open conditions and rejections",
          "[goap][trace]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDomain(lib, kMonitor);
  const SmartObjectTypeId rock = d.findSmartObjectType("rock");
  std::vector<SmartObjectCandidate> objects = {
      {EntityId{11}, rock, {3, 0, 0}},    // kept
      {EntityId{12}, rock, {5, 0, 0}},    // over the cap of 1
      {EntityId{13}, rock, {25, 0, 0}},   // too far
      {EntityId{14}, rock, {0, 4, 0}},    // unreachable
  };
  NotAt not_at;
  not_at.blocked = {0, 4, 0};
  std::array<TargetPosition, 2> targets{};
  targets[0] = {true, {10, 0, 0}, EntityId{1}};  // enemy present, ally absent
  PlanTrace trace;
  PlanRequest r = request(d, {"done"});
  r.objects = objects;
  r.targets = targets;
  r.reachability = &not_at;
  r.trace = &trace;
  GoapPlanner planner;
  const PlanResult& res = planner.plan(r);
  REQUIRE(res.status == PlanStatus::kFound);
  // Both orders cost 2.8; equal f prefers lower h, so the rock comes first.
  CHECK(names(d, res) == std::vector<std::string>{"PickRock", "Bump", "Throw"});
  CHECK(res.cost == Approx(2.8f));

  SECTION("Should give each pruned action its reason before the search") {
    CHECK(trace.count(RejectReason::kNotInBucket) == 1);        // Spin
    CHECK(trace.count(RejectReason::kIrrelevant) == 1);         // Dance
    CHECK(trace.count(RejectReason::kContextCondition) == 1);   // Wave: "allowed" unset
    CHECK(trace.count(RejectReason::kMissingTarget) == 1);      // Signal: no ally
    CHECK(trace.count(RejectReason::kNoCandidate) == 1);        // Poke: no stick
    CHECK(trace.count(RejectReason::kObjectTooFar) == 1);
    CHECK(trace.count(RejectReason::kObjectUnreachable) == 1);
    CHECK(trace.count(RejectReason::kObjectOverCap) == 1);
  }
  SECTION("Should record the search itself") {
    REQUIRE(!trace.expansions.empty());
    const TraceExpansion& root = trace.expansions[0];
    CHECK(root.node == 0);
    CHECK(root.open_conditions == 1u);  // "done = true" open
    CHECK(root.child_count == 2);       // Bump, PickRock
    CHECK(trace.count(RejectReason::kCondition) > 0);          // Throw at the root
    CHECK(trace.count(RejectReason::kEffectOutOfRange) > 0);   // Bump once n = 1
    CHECK(trace.count(RejectReason::kDuplicate) > 0);          // Unbump back to a known state
    CHECK(trace.landmarks.size() >= 2);
    CHECK(trace.result.status == PlanStatus::kFound);
  }
  SECTION("Should dump everything as JSON for GetPlanTrace") {
    const nlohmann::json j = trace.toJson();
    CHECK(j["domain"] == "monitor");
    CHECK(j["bucket"] == "All");
    CHECK(j["goals"] == nlohmann::json::array({"done"}));
    CHECK(j["start"]["n"] == 0);
    CHECK(j["locations"][1]["kind"] == "target");
    CHECK(j["locations"][1]["target"] == "enemy");
    const auto& root = j["expansions"][0];
    CHECK(root["open_conditions"] == nlohmann::json::array({"done = true"}));
    CHECK(root["children"][0]["action"] == "PickRock@11");
    CHECK(root["children"][0]["cost"].get<float>() == Approx(1.3f));
    bool throw_rejected = false;
    for (const auto& rej : root["rejected"])
      throw_rejected = throw_rejected || (rej["action"] == "Throw" && rej["reason"] == "condition" &&
                                          rej["condition"] == "has_rock = true");
    CHECK(throw_rejected);
    bool too_far = false;
    for (const auto& p : j["pruned"])
      too_far = too_far || (p["reason"] == "object_too_far" && p["object"] == 13 &&
                            p["distance_m"].get<float>() == Approx(25));
    CHECK(too_far);
    CHECK(j["result"]["status"] == "found");
    CHECK(j["result"]["steps"].size() == 3);
  }
}

TEST_CASE("Every rejection reason appears in a trace", "[goap][trace]") {
  std::set<RejectReason> seen;
  auto collect = [&](const PlanTrace& t) {
    for (const auto& r : t.rejections) seen.insert(r.reason);
  };
  {
    GoapLibrary lib;
    const GoapDomain& d = loadDomain(lib, kMonitor);
    const SmartObjectTypeId rock = d.findSmartObjectType("rock");
    std::vector<SmartObjectCandidate> objects = {{EntityId{11}, rock, {3, 0, 0}},
                                                 {EntityId{12}, rock, {5, 0, 0}},
                                                 {EntityId{13}, rock, {25, 0, 0}},
                                                 {EntityId{14}, rock, {0, 4, 0}}};
    NotAt not_at;
    not_at.blocked = {0, 4, 0};
    std::array<TargetPosition, 2> targets{};
    targets[0] = {true, {10, 0, 0}, EntityId{1}};
    PlanTrace trace;
    PlanRequest r = request(d, {"done"});
    r.objects = objects;
    r.targets = targets;
    r.reachability = &not_at;
    r.trace = &trace;
    GoapPlanner planner;
    planner.plan(r);
    collect(trace);
    r.limits.max_depth = 1;  // depth limit
    planner.plan(r);
    collect(trace);
  }
  {
    GoapLibrary lib;
    const GoapDomain& d = loadDataDomain(lib, "b1_fight.json");
    PlanTrace trace;
    PlanRequest r = request(d, {"kill_healthy"});
    r.limits.max_nodes = 16;  // node pool
    r.trace = &trace;
    GoapPlanner planner;
    planner.plan(r);
    collect(trace);
  }
  {
    // 4 species × 17 objects: more than 64 location slots.
    std::string actions, objects_json;
    for (int k = 0; k < 4; ++k) {
      const std::string s = std::to_string(k);
      actions += std::string(k ? "," : "") + R"({ "name": "Use)" + s +
                 R"(", "object": { "max_candidates": 16 }, "effects": [{ "fact": "done", "set": true }] })";
      objects_json += std::string(k ? "," : "") + R"({ "species": "s)" + s + R"(", "actions": ["Use)" + s + R"("] })";
    }
    GoapLibrary lib;
    const GoapDomain& d = loadDomain(lib, R"({ "domain": "crowded", "facts": [ { "name": "done", "type": "bool" } ],
      "actions": [)" + actions + R"(], "smart_objects": [)" + objects_json + R"(],
      "goals": [ { "name": "done", "desired": [{ "fact": "done", "value": true }] } ] })");
    std::vector<SmartObjectCandidate> objects;
    for (int k = 0; k < 4; ++k)
      for (int i = 0; i < 17; ++i)
        objects.push_back({EntityId{uint64_t(1000 + k * 100 + i)}, SmartObjectTypeId(k), {float(i), float(k), 0}});
    PlanTrace trace;
    PlanRequest r = request(d, {"done"});
    r.objects = objects;
    r.trace = &trace;
    GoapPlanner planner;
    const PlanResult& res = planner.plan(r);
    CHECK(res.status == PlanStatus::kFound);
    CHECK((res.flags & kPlanLocationTableFull) != 0);
    collect(trace);
  }
  for (int reason = static_cast<int>(RejectReason::kNotInBucket);
       reason <= static_cast<int>(RejectReason::kDepthLimit); ++reason) {
    INFO(toString(static_cast<RejectReason>(reason)));
    CHECK(seen.count(static_cast<RejectReason>(reason)) == 1);
  }
}

TEST_CASE("A trace keeps at most its limits and counts the rest", "[goap][trace]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDataDomain(lib, "b1_fight.json");
  PlanTrace trace;
  trace.max_expansions = 3;
  trace.max_events = 40;
  PlanRequest r = request(d, {"kill_healthy"});
  r.trace = &trace;
  GoapPlanner planner;
  const PlanResult& res = planner.plan(r);
  CHECK(res.status == PlanStatus::kFound);  // tracing never changes the result
  CHECK(trace.expansions.size() == 3);
  CHECK(trace.children.size() + trace.rejections.size() <= 40);
  CHECK(trace.dropped > 0);
  GoapPlanner plain;
  CHECK(names(d, plain.plan(request(d, {"kill_healthy"}))) == names(d, res));
}
