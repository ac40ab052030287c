// GoapPlanner's heuristic by problem size (core/goap/planner_table.cpp): small problems
// search with an exact table kept across plans, larger or positional ones with LM-cut; the
// table never changes a plan's cost.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "goap/trace.h"
#include "goap_test_support.h"

using namespace npc;
using namespace npc::goap;
using namespace npc::goap::test;
using nlohmann::json;

namespace {

// The domain of `file` again, named `name`, with the given heuristic.
const GoapDomain& withHeuristic(GoapLibrary& lib, const std::string& file, const char* name,
                                const char* heuristic) {
  json j = json::parse(readFile(std::string(NPCD_GOAP_DATA_DIR) + "/" + file));
  j["domain"] = name;
  j["search"]["heuristic"] = heuristic;
  return loadDomain(lib, j.dump(), file);
}

GoapState b0Start(const GoapDomain& d, uint32_t bits) {
  GoapState s = d.initialState();
  for (size_t f = 0; f < d.facts().size(); ++f) writeField(s, d.facts()[f].field, bits >> f & 1);
  return s;
}

}  // namespace

TEST_CASE("Small problems search with an exact table", "[goap][planner][table]") {
  GoapLibrary lib;
  const GoapDomain& table = withHeuristic(lib, "b0_gpgoap.json", "b0_auto", "auto");
  const GoapDomain& lmcut = withHeuristic(lib, "b0_gpgoap.json", "b0_lmcut", "lmcut");
  const GoapDomain& blind = withHeuristic(lib, "b0_gpgoap.json", "b0_blind", "blind");
  GoapPlanner planner, reference;
  reference.setHeuristicCache(false);
  planner.setHeuristicCache(false);

  SECTION("Should build the table on a problem's first search: plans never depend on history") {
    const PlanResult first = planner.plan(request(table, {"kill"}));
    CHECK((first.flags & kPlanExactHeuristic) != 0);
    CHECK((planner.plan(request(table, {"kill_and_survive"})).flags & kPlanExactHeuristic) != 0);
    // A planner with another past (as after a restore) returns the very same plan.
    GoapPlanner fresh;
    const PlanResult again = fresh.plan(request(table, {"kill"}));
    REQUIRE(again.step_count == first.step_count);
    for (uint8_t i = 0; i < first.step_count; ++i) CHECK(again.steps[i].action == first.steps[i].action);
  }
  SECTION("Should plan as optimally as LM-cut and Dijkstra from every start state") {
    int searched = 0;
    for (const char* goal : {"kill", "kill_and_survive"}) {
      planner.plan(request(table, {goal}));  // the problem's first search builds its table
      for (uint32_t bits = 0; bits < 256; ++bits) {
        const GoapState start = b0Start(table, bits);
        const PlanResult got = planner.plan(request(table, {goal}, &start));
        const PlanResult by_lmcut = reference.plan(request(lmcut, {goal}, &start));
        const PlanResult& by_dijkstra = reference.plan(request(blind, {goal}, &start));
        INFO(goal << " from state " << bits << ": " << explain(got, table));
        REQUIRE(got.status == by_dijkstra.status);
        CHECK(by_lmcut.status == by_dijkstra.status);
        if (got.status != PlanStatus::kFound) continue;
        CHECK(got.cost == by_dijkstra.cost);
        CHECK(by_lmcut.cost == by_dijkstra.cost);
        if (got.step_count == 0) continue;
        // Exact: h at the start is the optimum, and the search walks straight down a plan.
        CHECK((got.flags & kPlanExactHeuristic) != 0);
        CHECK((by_lmcut.flags & kPlanExactHeuristic) == 0);
        CHECK(got.h0 == got.cost);
        CHECK(got.expansions == got.step_count);
        ++searched;
      }
    }
    CHECK(searched > 100);
  }
  SECTION("Should say no plan as LM-cut does, with the same why") {
    const GoapState start = b0Start(table, 1u << 5);  // enemy alive; no gun, no bomb
    planner.plan(request(table, {"kill"}));
    const std::string got = explain(planner.plan(request(table, {"kill"}, &start)), table);
    CHECK(got == explain(reference.plan(request(lmcut, {"kill"}, &start)), lmcut));
    CHECK(got.rfind("no plan", 0) == 0);
  }
  SECTION("Should name the heuristic in the trace") {
    PlanTrace trace;
    PlanRequest r = request(table, {"kill"});
    planner.plan(r);
    r.trace = &trace;
    planner.plan(r);
    CHECK(trace.toJson()["result"]["heuristic"] == "table");
    CHECK(trace.landmarks.empty());
    r.domain = &lmcut;
    planner.plan(r);
    CHECK(trace.toJson()["result"]["heuristic"] == "lmcut");
    CHECK(!trace.landmarks.empty());
  }
}

TEST_CASE("The table depends on the problem, never on one agent's plan",
          "[goap][planner][table]") {
  // "shortcut" is live only while the blackboard allows it. A table built without it says
  // 4 after "prep" (the slow way), so a search reusing it would return slow_finish (4)
  // instead of prep, shortcut, finish (3): each instance set needs its own table.
  GoapLibrary lib;
  const GoapDomain& d = loadDomain(lib, R"({ "domain": "gate",
    "blackboard": { "open": "bool" },
    "facts": [ { "name": "p", "type": "bool" }, { "name": "x", "type": "bool" },
               { "name": "done", "type": "bool" } ],
    "actions": [
      { "name": "prep", "effects": [{ "fact": "p", "set": true }], "cost": 1 },
      { "name": "shortcut",
        "pre": [{ "fact": "p", "value": true }, { "blackboard": "open", "value": true }],
        "effects": [{ "fact": "x", "set": true }], "cost": 1, "pacing": { "agent_penalty": 4 } },
      { "name": "finish", "pre": [{ "fact": "x", "value": true }],
        "effects": [{ "fact": "done", "set": true }], "cost": 1 },
      { "name": "slow_finish", "effects": [{ "fact": "done", "set": true }], "cost": 4 } ],
    "goals": [ { "name": "done", "desired": [{ "fact": "done", "value": true }] } ] })");
  GoapPlanner planner;
  Blackboard bb;
  const auto open = lib.blackboard().key<bool>("open");
  PlanRequest r = request(d, {"done"});
  r.blackboard = &bb;
  SECTION("Should rebuild when the searched actions change") {
    bb.set(open, false);
    for (int search = 0; search < 2; ++search)
      CHECK(names(d, planner.plan(r)) == std::vector<std::string>{"slow_finish"});
    bb.set(open, true);
    for (int search = 0; search < 2; ++search) {
      const PlanResult& res = planner.plan(r);
      INFO("search " << search);
      CHECK(res.cost == 3.f);
      CHECK(names(d, res) == std::vector<std::string>{"prep", "shortcut", "finish"});
      CHECK((res.flags & kPlanExactHeuristic) != 0);  // a table of its own, from the first
    }
  }
  SECTION("Should leave pacing out of the table and in the search") {
    bb.set(open, true);
    CHECK(planner.plan(r).cost == 3.f);
    CHECK(planner.plan(r).cost == 3.f);
    PacingMemory pacing;
    pacing.record(lib.findPacingTag("shortcut"), 0.0);
    r.pacing = &pacing;
    r.now_s = 0.0;
    const PlanResult& res = planner.plan(r);  // 3 + 4 now dearer than the slow way
    CHECK(names(d, res) == std::vector<std::string>{"slow_finish"});
    CHECK(res.cost == 4.f);
    CHECK((res.flags & kPlanExactHeuristic) != 0);
    CHECK(res.h0 <= res.cost);
  }
}

TEST_CASE("Positions and larger problems keep LM-cut", "[goap][planner][table]") {
  GoapLibrary lib;
  const GoapDomain& b2 = loadDataDomain(lib, "b2_investigate.json");
  GoapPlanner planner;
  for (const char* goal : {"investigate", "search_cellar", "secure_cellar", "stress"}) {
    INFO(goal);
    CHECK((planner.plan(request(b2, {goal})).flags & kPlanExactHeuristic) == 0);
  }
  // Eleven independent switches: 2^11 states, past the table's 10 bits.
  json j = {{"domain", "switches"}, {"facts", json::array()}, {"actions", json::array()}};
  json desired = json::array();
  for (int i = 0; i < 11; ++i) {
    const std::string f = "s" + std::to_string(i);
    j["facts"].push_back({{"name", f}, {"type", "bool"}});
    j["actions"].push_back(
        {{"name", "on" + std::to_string(i)}, {"effects", {{{"fact", f}, {"set", true}}}}});
    desired.push_back({{"fact", f}, {"value", true}});
  }
  j["goals"] = {{{"name", "all"}, {"desired", desired}}};
  const GoapDomain& big = loadDomain(lib, j.dump(), "switches.json");
  const PlanResult& res = planner.plan(request(big, {"all"}));
  CHECK(res.cost == 11.f);
  CHECK((res.flags & kPlanExactHeuristic) == 0);
}
