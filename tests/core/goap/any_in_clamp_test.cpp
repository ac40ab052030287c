// Designer forms the planner searches (core/goap/domain_loader.h): disjunctive
// preconditions ("any"), enum sets ("in") and saturating counters ("clamp"). An action with
// "any" is searched as variants but stays one action everywhere the designer looks.
#include <string>
#include <tuple>

#include <nlohmann/json.hpp>

#include <catch2/catch.hpp>

#include "goap/goal_selector.h"
#include "goap/plan.h"
#include "goap/statistics.h"
#include "goap/trace.h"
#include "goap_test_support.h"

using namespace npc;
using namespace npc::goap;
using namespace npc::goap::test;

namespace {

// A woodcutter who needs an axe (at home or in the woodshed) and one of a permit, a ladder
// or an open gate to enter the forest.
std::string woodcutter(int permit_cost, int ladder_cost) {
  return R"({ "domain": "woodcutter",
    "blackboard": { "gate_open": "bool" },
    "facts": [
      { "name": "location", "type": "enum", "values": ["home", "woodshed", "forest", "market"],
        "initial": "market" },
      { "name": "has_axe", "type": "bool" },
      { "name": "has_permit", "type": "bool" },
      { "name": "has_ladder", "type": "bool" },
      { "name": "in_forest", "type": "bool" } ],
    "actions": [
      { "name": "go_home", "effects": [{ "fact": "location", "set": "home" }], "cost": 5 },
      { "name": "go_woodshed", "effects": [{ "fact": "location", "set": "woodshed" }], "cost": 2 },
      { "name": "take_axe", "pre": [{ "fact": "location", "in": ["home", "woodshed"] }],
        "effects": [{ "fact": "has_axe", "set": true }] },
      { "name": "buy_permit", "effects": [{ "fact": "has_permit", "set": true }], "cost": )" +
         std::to_string(permit_cost) + R"( },
      { "name": "fetch_ladder", "effects": [{ "fact": "has_ladder", "set": true }], "cost": )" +
         std::to_string(ladder_cost) + R"( },
      { "name": "enter_forest", "pre": [{ "any": [
            { "fact": "has_permit", "value": true },
            { "fact": "has_ladder", "value": true },
            { "blackboard": "gate_open", "value": true } ] }],
        "effects": [{ "fact": "in_forest", "set": true }] } ],
    "goals": [
      { "name": "axe", "desired": [{ "fact": "has_axe", "value": true }] },
      { "name": "forest", "desired": [{ "fact": "in_forest", "value": true }] },
      { "name": "may_enter", "desired": [{ "any": [
            { "fact": "has_permit", "value": true }, { "fact": "has_ladder", "value": true } ] }] },
      { "name": "equipped", "desired": [{ "fact": "has_axe", "value": true }, { "any": [
            { "fact": "has_permit", "value": true }, { "fact": "has_ladder", "value": true } ] }] }
    ] })";
}

const char* kPurse = R"({ "domain": "purse",
  "facts": [ { "name": "coins", "type": "int", "min": 0, "max": 3, "initial": 2 },
             { "name": "delivered", "type": "bool" } ],
  "actions": [
    { "name": "find_purse", "effects": [{ "fact": "coins", "add": 2, "clamp": true }], "cost": 1 },
    { "name": "earn", "effects": [{ "fact": "coins", "add": 1 }], "cost": 3 },
    { "name": "give_all", "effects": [{ "fact": "coins", "sub": 5, "clamp": true }], "cost": 1 },
    { "name": "spend", "effects": [{ "fact": "coins", "sub": 1 }], "cost": 3 },
    { "name": "deliver", "effects": [{ "fact": "delivered", "set": true },
                                     { "fact": "coins", "add": 1, "clamp": true }],
      "cost": 4 } ],
  "goals": [ { "name": "rich", "desired": [{ "fact": "coins", "value": 3 }] },
             { "name": "broke", "desired": [{ "fact": "coins", "value": 0 }] },
             { "name": "deliver", "desired": [{ "fact": "delivered", "value": true }] } ] })";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("An \"in\" precondition accepts any of its enum values", "[goap][planner][any]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDomain(lib, woodcutter(1, 1));
  GoapPlanner planner;

  SECTION("Should read as one condition listing its values") {
    const ActionDef& take = d.action(d.findAction("take_axe"));
    REQUIRE(take.conditions.size() == 1);
    CHECK(take.conditions[0].text == "location in [home, woodshed]");
  }
  SECTION("Should walk to the cheaper of the accepted places") {
    const PlanResult& r = planner.plan(request(d, {"axe"}));
    REQUIRE(r.status == PlanStatus::kFound);
    CHECK(names(d, r) == std::vector<std::string>{"go_woodshed", "take_axe"});
    CHECK(r.cost == 3.f);
  }
  SECTION("Should act at once where any accepted value already holds") {
    for (const char* place : {"home", "woodshed"}) {
      const GoapState start = stateWith(d, {{"location", place}});
      const PlanResult& r = planner.plan(request(d, {"axe"}, &start));
      INFO(place);
      CHECK(names(d, r) == std::vector<std::string>{"take_axe"});
    }
  }
}

TEST_CASE("An \"any\" precondition plans through its cheapest alternative, as one action",
          "[goap][planner][any]") {
  SECTION("Should choose whichever alternative is cheaper to reach") {
    GoapLibrary lib;
    const GoapDomain& ladder_cheap = loadDomain(lib, woodcutter(3, 1));
    GoapLibrary lib2;
    const GoapDomain& permit_cheap = loadDomain(lib2, woodcutter(1, 3));
    GoapPlanner planner;
    CHECK(names(ladder_cheap, planner.plan(request(ladder_cheap, {"forest"}))) ==
          std::vector<std::string>{"fetch_ladder", "enter_forest"});
    CHECK(names(permit_cheap, planner.plan(request(permit_cheap, {"forest"}))) ==
          std::vector<std::string>{"buy_permit", "enter_forest"});
    CHECK(planner.result().cost == 2.f);
  }
  GoapLibrary lib;
  const GoapDomain& d = loadDomain(lib, woodcutter(3, 1));
  const ActionId enter = d.findAction("enter_forest");
  GoapPlanner planner;

  SECTION("Should keep one action the plan step names, with one condition") {
    CHECK(d.actions().size() == 6);
    const PlanResult& r = planner.plan(request(d, {"forest"}));
    REQUIRE(r.step_count == 2);
    CHECK(r.steps[1].action == enter);
    const ActionDef& a = d.action(enter);
    REQUIRE(a.conditions.size() == 1);
    CHECK(a.conditions[0].text ==
          "any(has_permit = true or has_ladder = true or blackboard.gate_open = 1)");
    CHECK(a.variants.size() == 3);
  }
  SECTION("Should take a blackboard alternative when it holds, and only then") {
    Blackboard bb;
    PlanRequest r = request(d, {"forest"});
    r.blackboard = &bb;
    bb.set(lib.blackboard().key<bool>("gate_open"), true);
    CHECK(names(d, planner.plan(r)) == std::vector<std::string>{"enter_forest"});
    bb.set(lib.blackboard().key<bool>("gate_open"), false);
    CHECK(names(d, planner.plan(r)) == std::vector<std::string>{"fetch_ladder", "enter_forest"});
  }
  SECTION("Should plan the same with the monitor and statistics, counting the any once") {
    PlannerStatistics stats(d);
    PlanTrace trace;
    planner.setStatistics(&stats);
    PlanRequest r = request(d, {"forest"});
    r.trace = &trace;
    const PlanResult& res = planner.plan(r);
    CHECK(names(d, res) == std::vector<std::string>{"fetch_ladder", "enter_forest"});
    CHECK(res.cost == 2.f);
    const ConditionStats& any = stats.condition(enter, 0);
    CHECK(any.evaluations > 0);
    CHECK(any.failures > 0);  // nothing held at the start
    CHECK(any.failures < any.evaluations);
  }
}

TEST_CASE("A goal's \"any\" is met by its cheapest alternative, and stays one goal",
          "[goap][planner][any]") {
  SECTION("Should reach whichever alternative is cheaper, by every heuristic") {
    for (const char* heuristic : {"auto", "lmcut", "blind"}) {
      for (const auto& [permit, ladder, first] :
           {std::tuple{3, 1, "fetch_ladder"}, std::tuple{1, 3, "buy_permit"}}) {
        GoapLibrary lib;
        const GoapDomain& d = loadDomain(
            lib, replaced(woodcutter(permit, ladder), R"("domain": "woodcutter",)",
                          std::string(R"("domain": "woodcutter", "search": { "heuristic": ")") +
                              heuristic + R"(" },)"));
        GoapPlanner planner;
        INFO(heuristic << " " << first);
        const PlanResult& may = planner.plan(request(d, {"may_enter"}));
        CHECK(names(d, may) == std::vector<std::string>{first});
        CHECK(may.cost == 1.f);
        CHECK(may.goal == d.findGoal("may_enter"));
        // An axe from the woodshed (2 + 1), then the cheaper way in.
        const PlanResult& equipped = planner.plan(request(d, {"equipped"}));
        REQUIRE(equipped.status == PlanStatus::kFound);
        CHECK(equipped.cost == 4.f);
        CHECK(equipped.step_count == 3);
        CHECK(firstInvalidStep(d, equipped, 0, d.initialState()) == -1);
      }
    }
  }
  GoapLibrary lib;
  const GoapDomain& d = loadDomain(lib, woodcutter(3, 1));
  const GoalId equipped = d.findGoal("equipped");
  GoapPlanner planner;

  SECTION("Should hold as soon as one alternative does") {
    const GoapState permit = stateWith(d, {{"has_permit", "true"}});
    const PlanResult& r = planner.plan(request(d, {"may_enter"}, &permit));
    CHECK(r.status == PlanStatus::kFound);
    CHECK((r.flags & kPlanAlreadySatisfied) != 0);
    CHECK(r.step_count == 0);
    const GoapState armed = stateWith(d, {{"has_axe", "true"}, {"has_ladder", "true"}});
    CHECK(goalSatisfied(d.goal(equipped), armed));
    CHECK_FALSE(goalSatisfied(d.goal(equipped), stateWith(d, {{"has_ladder", "true"}})));
    CHECK(names(d, planner.plan(request(d, {"equipped"}, &permit))) ==
          std::vector<std::string>{"go_woodshed", "take_axe"});
  }
  SECTION("Should describe the goal with its any, once, in the goal and the trace") {
    const GoalDef& g = d.goal(equipped);
    REQUIRE(g.desired.size() == 2);
    CHECK(g.desired[1].text == "any(has_permit = true or has_ladder = true)");
    CHECK(g.variants.size() == 2);
    PlanTrace trace;
    PlanRequest r = request(d, {"equipped"});
    r.trace = &trace;
    const PlanResult& res = planner.plan(r);
    CHECK(res.cost == 4.f);
    const nlohmann::json j = trace.toJson();
    CHECK(j["goals"] == nlohmann::json::array({"equipped"}));
    REQUIRE(j["desired"].size() == 2);
    CHECK(j["desired"][1]["condition"] == "any(has_permit = true or has_ladder = true)");
    CHECK(j["expansions"][0]["open_conditions"] ==
          nlohmann::json::array({"has_axe = true", "any(has_permit = true or has_ladder = true)"}));
  }
}

TEST_CASE("An \"any\" is judged by its facts at execution and named when it never held",
          "[goap][planner][any]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDomain(lib, R"({ "domain": "fence",
    "facts": [ { "name": "has_permit", "type": "bool" }, { "name": "has_ladder", "type": "bool" },
               { "name": "in_forest", "type": "bool" } ],
    "actions": [
      { "name": "fetch_ladder", "effects": [{ "fact": "has_ladder", "set": true }] },
      { "name": "enter_forest", "pre": [{ "any": [
          { "fact": "has_permit", "value": true }, { "fact": "has_ladder", "value": true } ] }],
        "effects": [{ "fact": "in_forest", "set": true }] } ],
    "goals": [ { "name": "forest", "desired": [{ "fact": "in_forest", "value": true }] },
               { "name": "may_climb", "desired": [{ "any": [
                   { "fact": "has_permit", "value": true },
                   { "fact": "has_ladder", "value": true } ] }] } ],
    "buckets": [
      { "name": "all", "actions": ["fetch_ladder", "enter_forest"], "goals": ["forest"] },
      { "name": "locked", "actions": ["enter_forest"], "goals": ["forest", "may_climb"] } ] })");
  GoapPlanner planner;

  SECTION("Should keep a step valid while one alternative's facts hold") {
    const PlanResult& r = planner.plan(request(d, {"forest"}));
    REQUIRE(names(d, r) == std::vector<std::string>{"fetch_ladder", "enter_forest"});
    const GoapState permit_only = stateWith(d, {{"has_permit", "true"}});
    CHECK(firstInvalidStep(d, r, 1, permit_only) == -1);
    CHECK(firstInvalidStep(d, r, 1, d.initialState()) == 1);
  }
  SECTION("Should name the whole any in \"no plan: why\"") {
    PlanRequest locked = request(d, {"forest"});
    locked.bucket = d.findBucket("locked");
    const PlanResult& r = planner.plan(locked);
    REQUIRE(r.status == PlanStatus::kNoPlan);
    CHECK(explain(r, d) ==
          "no plan for \"forest\": \"in_forest = true\" never held (unreachable even ignoring "
          "negative effects); achievers: enter_forest (never \"any(has_permit = true or "
          "has_ladder = true)\")");
  }
  SECTION("Should name a goal's any when no alternative was reached") {
    PlanRequest locked = request(d, {"may_climb"});
    locked.bucket = d.findBucket("locked");
    const PlanResult& r = planner.plan(locked);
    REQUIRE(r.status == PlanStatus::kNoPlan);
    CHECK(explain(r, d) ==
          "no plan for \"may_climb\": \"any(has_permit = true or has_ladder = true)\" never "
          "held (unreachable even ignoring negative effects); no action in the bucket achieves "
          "it");
    const PlanResult& all = planner.plan(request(d, {"may_climb"}));
    CHECK(names(d, all) == std::vector<std::string>{"fetch_ladder"});
  }
}

TEST_CASE("A clamped counter saturates instead of making the action inapplicable",
          "[goap][planner][clamp]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDomain(lib, kPurse);
  GoapPlanner planner;

  SECTION("Should cap an add at the fact's max") {
    const PlanResult& r = planner.plan(request(d, {"rich"}));
    CHECK(names(d, r) == std::vector<std::string>{"find_purse"});  // 2 + 2 → 3
    CHECK(r.cost == 1.f);
  }
  SECTION("Should floor a sub at the fact's min") {
    const PlanResult& r = planner.plan(request(d, {"broke"}));
    CHECK(names(d, r) == std::vector<std::string>{"give_all"});  // 2 − 5 → 0
    CHECK(r.cost == 1.f);
  }
  SECTION("Should keep the strict form the default") {
    GoapLibrary strict_lib;
    const GoapDomain& strict = loadDomain(
        strict_lib, replaced(kPurse, R"("add": 2, "clamp": true)", R"("add": 2)"));
    const PlanResult& r = planner.plan(request(strict, {"rich"}));
    CHECK(names(strict, r) == std::vector<std::string>{"earn"});  // 2 + 2 leaves [0, 3]
  }
  SECTION("Should not read its fact: a full purse neither blocks nor invalidates delivering") {
    const GoapState full = stateWith(d, {{"coins", "3"}});
    const PlanResult first = planner.plan(request(d, {"deliver"}, &full));
    CHECK(names(d, first) == std::vector<std::string>{"deliver"});
    CHECK(firstInvalidStep(d, first, 0, full) == -1);
    const GoapState poorer = stateWith(d, {{"coins", "1"}});
    PlanRequest again = request(d, {"deliver"}, &poorer);
    again.previous = &first;
    const PlanResult& reused = planner.plan(again);
    CHECK((reused.flags & kPlanReused) != 0);  // coins is not among the facts it read
  }
}
