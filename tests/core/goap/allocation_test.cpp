// No per-plan heap allocation: after warm-up, searches (traced or not, with statistics,
// goals with "any", LM-cut per node, pattern databases), the queue and the runner allocate
// nothing (tests/allocation_counter.h).

#include <catch2/catch.hpp>

#include "goap/plan_runner.h"
#include "goap/planner_queue.h"
#include "goap/statistics.h"
#include "goap/trace.h"
#include "goap_test_support.h"
#include "allocation_counter.h"

using namespace npc;
using namespace npc::goap;
using namespace npc::goap::test;

TEST_CASE("Searches allocate nothing once the planner is warm", "[goap][allocation]") {
  GoapLibrary lib;
  const GoapDomain& b1 = loadDataDomain(lib, "b1_fight.json");
  const GoapDomain& b2 = loadDataDomain(lib, "b2_investigate.json");
  const GoapDomain& att =
      loadDataDomain(lib, std::string(NPCD_SOURCE_DIR) + "/config/goap/attacker.json");
  std::array<TargetPosition, 1> enemy{};
  enemy[0] = {true, {14, 3, 0}, EntityId{5}};
  PacingMemory pacing;
  pacing.record(lib.findPacingTag("swing"), 0.0);
  Blackboard bb;
  bb.set(lib.blackboard().key<bool>("clear_line"), true);
  // Variants of "any", an "in" and a clamped counter go through the same pools.
  const GoapDomain& forms = loadDomain(lib, R"({ "domain": "forms",
    "facts": [ { "name": "at", "type": "enum", "values": ["home", "shed", "forest"] },
               { "name": "axe", "type": "bool" }, { "name": "permit", "type": "bool" },
               { "name": "wood", "type": "int", "min": 0, "max": 3 } ],
    "actions": [
      { "name": "go_shed", "effects": [{ "fact": "at", "set": "shed" }], "cost": 2 },
      { "name": "go_forest", "effects": [{ "fact": "at", "set": "forest" }], "cost": 2 },
      { "name": "take_axe", "pre": [{ "fact": "at", "in": ["home", "shed"] }],
        "effects": [{ "fact": "axe", "set": true }] },
      { "name": "buy_permit", "effects": [{ "fact": "permit", "set": true }], "cost": 3 },
      { "name": "chop", "pre": [{ "fact": "axe", "value": true }, { "any": [
          { "fact": "at", "value": "forest" }, { "fact": "permit", "value": true } ] }],
        "effects": [{ "fact": "wood", "add": 2, "clamp": true }] } ],
    "goals": [ { "name": "stock", "desired": [{ "fact": "wood", "value": 3 }] },
               { "name": "ready", "desired": [{ "fact": "wood", "op": ">=", "value": 2 },
                 { "any": [{ "fact": "at", "value": "forest" },
                           { "fact": "permit", "value": true }] }] } ] })");
  // B1 and B2 with LM-cut from each node's own state ("node_lmcut_after": 0).
  std::string b1_text = readFile(dataPath("b1_fight.json"));
  b1_text.replace(b1_text.find("\"b1_fight\""), 10, "\"b1_per_node\"");
  b1_text.replace(b1_text.find("\"facts\""), 7, "\"search\": {\"node_lmcut_after\": 0}, \"facts\"");
  const GoapDomain& b1_per_node = loadDomain(lib, b1_text, "b1_per_node.json");
  std::string b2_text = readFile(dataPath("b2_investigate.json"));
  b2_text.replace(b2_text.find("\"b2_investigate\""), 16, "\"b2_per_node\"");
  b2_text.replace(b2_text.find("\"facts\""), 7, "\"search\": {\"node_lmcut_after\": 0}, \"facts\"");
  const GoapDomain& b2_per_node = loadDomain(lib, b2_text, "b2_per_node.json");

  // B2 with a pattern database per goal (built at load; a search only looks them up).
  std::string b2_patterns_text = readFile(dataPath("b2_investigate.json"));
  b2_patterns_text.replace(b2_patterns_text.find("\"b2_investigate\""), 16, "\"b2_patterns\"");
  b2_patterns_text.replace(b2_patterns_text.find("\"facts\""), 7,
                           "\"search\": {\"pattern_states\": 65536}, \"facts\"");
  const GoapDomain& b2_patterns = loadDomain(lib, b2_patterns_text, "b2_patterns.json");

  // B0 searches with its exact table (heuristic by problem size).
  const GoapDomain& b0 = loadDataDomain(lib, "b0_gpgoap.json");

  std::vector<PlanRequest> requests;
  for (const char* g : {"kill", "kill_and_survive"}) requests.push_back(request(b0, {g}));
  for (const char* g : {"kill", "kill_healthy", "alarm_and_hold"}) requests.push_back(request(b1, {g}));
  for (const char* g : {"investigate", "search_cellar", "secure_cellar", "stress"})
    requests.push_back(request(b2, {g}));
  PlanRequest a = request(att, {"HitEnemy"});
  a.targets = enemy;
  a.pacing = &pacing;
  a.blackboard = &bb;
  a.now_s = 1.0;
  requests.push_back(a);
  requests.push_back(request(forms, {"stock"}));
  requests.push_back(request(forms, {"ready"}));
  requests.push_back(request(b1_per_node, {"kill_healthy"}));
  requests.push_back(request(b2_per_node, {"stress"}));
  for (const char* g : {"secure_cellar", "stress"}) requests.push_back(request(b2_patterns, {g}));

  GoapPlanner planner;
  PlannerStatistics stats(b1);
  PlanTrace trace;
  auto runAll = [&](bool traced) {
    float total = 0;
    for (PlanRequest r : requests) {
      r.trace = traced ? &trace : nullptr;
      planner.setStatistics(traced && r.domain == &b1 ? &stats : nullptr);
      total += planner.plan(r).cost;
    }
    return total;
  };
  const float expected = runAll(false);
  runAll(true);  // warm-up: pools grow to the largest search
  // ...and every heuristic-cache slot (they rotate) to the largest key it will hold.
  for (int i = 0; i < GoapPlanner::kHeuristicCacheSize; ++i) runAll(false);

  const uint64_t before = npc::test::allocationCount();
  float total = 0;
  for (int i = 0; i < 20; ++i) total += runAll(false);
  CHECK(npc::test::allocationCount() - before == 0);
  CHECK(total == Approx(20 * expected));

  SECTION("Should not allocate with the monitor and statistics on either") {
    const uint64_t b = npc::test::allocationCount();
    for (int i = 0; i < 5; ++i) runAll(true);
    CHECK(npc::test::allocationCount() - b == 0);
  }
  SECTION("Should not allocate in the queue or the runner") {
    PlannerQueue queue(8);
    PlanRunner runner;
    const PlanRequest investigate = request(b2, {"investigate"});
    auto cycle = [&] {
      for (int i = 0; i < 4; ++i) {
        const PlanTicket t = queue.submit(requests[i % requests.size()]);
        while (queue.status(t) == PlanStatus::kInProgress) queue.update(16);
        queue.release(t);
      }
      GoapState facts = b2.initialState();
      runner.reset();
      if (runner.update(b2, BucketId{0}, facts, nullptr, nullptr, 0) == RunnerCommand::kRequestPlan) {
        PlanRequest r = investigate;
        r.previous = &runner.plan();
        runner.onPlanReady(planner.plan(r), 0);
      }
      for (int s = 0; s < 6; ++s) {
        runner.update(b2, BucketId{0}, facts, nullptr, nullptr, s);
        runner.onStepSucceeded(s, nullptr, &pacing, nullptr);
      }
    };
    cycle();
    cycle();
    const uint64_t b = npc::test::allocationCount();
    for (int i = 0; i < 5; ++i) cycle();
    CHECK(npc::test::allocationCount() - b == 0);
  }
}
