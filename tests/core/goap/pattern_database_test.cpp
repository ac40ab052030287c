// Pattern databases (core/goap/pattern_database.h): the pattern a goal gets, the table's
// values against optima worked out by hand, dead ends, the loader's errors, and the
// villager's day planned optimally within the default limits when the domain builds them.
#include <tuple>

#include <catch2/catch.hpp>

#include "goap/pattern_database_builder.h"
#include "goap/trace.h"
#include "goap_test_support.h"

using namespace npc::goap;
using namespace npc::goap::test;

namespace {

// From home with no coins, the cheapest meal: go_bank 3, withdraw 1 twice, go_shop 2,
// buy_meal 1, go_home 1 = 9. Withdrawing clamps at 2 coins.
const char* const kErrand = R"({ "domain": "errand", "search": { "pattern_states": 18 },
  "facts": [ { "name": "at", "type": "enum", "values": ["home", "shop", "bank"] },
             { "name": "coins", "type": "int", "min": 0, "max": 2 },
             { "name": "fed", "type": "bool" } ],
  "actions": [
    { "name": "go_shop", "pre": [ { "fact": "at", "op": "!=", "value": "shop" } ],
      "effects": [ { "fact": "at", "set": "shop" } ], "cost": 2 },
    { "name": "go_bank", "pre": [ { "fact": "at", "op": "!=", "value": "bank" } ],
      "effects": [ { "fact": "at", "set": "bank" } ], "cost": 3 },
    { "name": "go_home", "pre": [ { "fact": "at", "op": "!=", "value": "home" } ],
      "effects": [ { "fact": "at", "set": "home" } ], "cost": 1 },
    { "name": "withdraw", "pre": [ { "fact": "at", "value": "bank" } ],
      "effects": [ { "fact": "coins", "add": 1, "clamp": true } ], "cost": 1 },
    { "name": "buy_meal", "pre": [ { "fact": "at", "value": "shop" } ],
      "effects": [ { "fact": "coins", "sub": 2 }, { "fact": "fed", "set": true } ], "cost": 1 } ],
  "goals": [
    { "name": "eat", "desired": [ { "fact": "fed", "value": true },
                                  { "fact": "at", "value": "home" } ] },
    { "name": "hungry_at_bank", "desired": [ { "fact": "fed", "value": false },
                                             { "fact": "at", "value": "bank" } ] } ] })";

std::vector<std::string> factNames(const GoapDomain& d, const std::vector<FactId>& facts) {
  std::vector<std::string> out;
  for (FactId f : facts) out.push_back(d.fact(f).name);
  return out;
}

float hAt(const GoapDomain& d, const char* goal,
          std::initializer_list<std::pair<const char*, const char*>> facts) {
  const PatternDatabase* db = d.patternDatabase(d.findGoal(goal));
  REQUIRE(db != nullptr);
  return db->h(stateWith(d, facts));
}

}  // namespace

TEST_CASE("A pattern database holds the projection's cheapest costs", "[goap][pattern]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDomain(lib, kErrand);
  SECTION("Should cover every fact when they fit, and be exact then") {
    const PatternDatabase* db = d.patternDatabase(d.findGoal("eat"));
    REQUIRE(db != nullptr);
    CHECK(factNames(d, {db->pattern().begin(), db->pattern().end()}) ==
          std::vector<std::string>{"at", "coins", "fed"});
    CHECK(db->states() == 18);
    CHECK(db->bytes() == 36);
    CHECK(hAt(d, "eat", {{"at", "home"}, {"coins", "0"}}) == 9.f);
    CHECK(hAt(d, "eat", {{"at", "home"}, {"coins", "2"}}) == 4.f);
    CHECK(hAt(d, "eat", {{"at", "shop"}, {"coins", "2"}}) == 2.f);
    CHECK(hAt(d, "eat", {{"at", "shop"}, {"coins", "1"}}) == 8.f);
    CHECK(hAt(d, "eat", {{"at", "bank"}, {"coins", "2"}}) == 4.f);  // the clamp: no more to take
    CHECK(hAt(d, "eat", {{"at", "shop"}, {"fed", "true"}}) == 1.f);
    CHECK(hAt(d, "eat", {{"at", "home"}, {"fed", "true"}}) == 0.f);
  }
  SECTION("Should call a state no plan leaves a dead end") {
    CHECK(hAt(d, "hungry_at_bank", {{"at", "home"}}) == 3.f);
    CHECK(hAt(d, "hungry_at_bank", {{"at", "bank"}, {"fed", "true"}}) == kInfiniteCost);
  }
  SECTION("Should give the plans an exact table would, and say what guided them") {
    GoapPlanner planner;
    const PlanResult& r = planner.plan(request(d, {"eat"}));
    INFO(explain(r, d));
    REQUIRE(r.status == PlanStatus::kFound);
    CHECK(r.cost == 9.f);
    CHECK(r.h0 == 9.f);
    CHECK(r.expansions == 6);  // h is exact: one expansion a step
    CHECK((r.flags & kPlanPatternHeuristic) != 0);
    CHECK(names(d, r) == std::vector<std::string>{"go_bank", "withdraw", "withdraw", "go_shop",
                                                  "buy_meal", "go_home"});
    PlanTrace trace;
    PlanRequest traced = request(d, {"eat"});
    traced.trace = &trace;
    planner.plan(traced);
    CHECK(trace.toJson()["result"]["heuristic"] == "patterns");
  }
  SECTION("Should leave a start it calls a dead end to LM-cut, which says why") {
    GoapPlanner planner;
    const GoapState fed = stateWith(d, {{"fed", "true"}});
    const PlanResult& r = planner.plan(request(d, {"hungry_at_bank"}, &fed));
    REQUIRE(r.status == PlanStatus::kNoPlan);
    CHECK((r.flags & kPlanPatternHeuristic) == 0);
    CHECK_THAT(explain(r, d), Catch::Contains("\"fed = false\" never held"));
  }
}

TEST_CASE("A goal's pattern is its causal neighbourhood, as far as the bound allows",
          "[goap][pattern]") {
  GoapLibrary lib;
  const GoapDomain& errand = loadDomain(lib, kErrand);
  SECTION("Should keep the goal's facts first, and drop what no longer fits") {
    // fed (2) and at (3) make 6; coins, read by buy_meal, would make 18.
    CHECK(factNames(errand, PatternDatabaseBuilder::choosePattern(errand, errand.findGoal("eat"),
                                                                  6)) ==
          std::vector<std::string>{"at", "fed"});
    CHECK(factNames(errand, PatternDatabaseBuilder::choosePattern(errand, errand.findGoal("eat"),
                                                                  1)) ==
          std::vector<std::string>{});
  }
  SECTION("Should stay a lower bound on a smaller pattern") {
    PatternDatabaseBuilder builder;
    const PatternDatabase db = builder.build(errand, errand.findGoal("eat"), 6);
    CHECK(db.states() == 6);
    CHECK(db.h(errand.initialState()) == 4.f);  // the walks without the coins (optimum 9)
  }
  SECTION("Should gather the villager's walks, coins, bread and wood for the day") {
    const GoapDomain& day = loadDataDomain(lib, "villager_day.json");
    CHECK(factNames(day, PatternDatabaseBuilder::choosePattern(day, day.findGoal("day"),
                                                               4'194'304)) ==
          std::vector<std::string>{"at", "has_axe", "axe_sharp", "water", "flour", "bread",
                                   "wood", "coins", "firewood", "delivered", "fed", "prayed",
                                   "fire_lit"});
  }
}

TEST_CASE("The loader builds pattern databases only for domains without positions, within "
          "bounds",
          "[goap][pattern][loader]") {
  GoapLibrary lib;
  const GoapLoadReport r = lib.loadText("flank.json", R"({ "domain": "flank",
    "search": { "pattern_states": 1000 }, "targets": ["enemy"],
    "facts": [ { "name": "line_opened", "type": "bool" } ],
    "actions": [ { "name": "Flank",
      "effects": [ { "move_near": "enemy", "range": 6 }, { "fact": "line_opened", "set": true } ],
      "cost": { "base": 1, "travel_per_m": 0.2 } } ],
    "goals": [ { "name": "OpenLine", "desired": [ { "fact": "line_opened", "value": true } ] } ] })");
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.text(), Catch::StartsWith("flank.json:"));
  CHECK_THAT(r.text(), Catch::Contains("/search/pattern_states: pattern databases need a "
                                       "domain that plans no positions"));
  // Five goals over four facts of 64 values: five tables of 2^24 states, past 2^26.
  std::string many = R"({ "domain": "many", "search": { "pattern_states": 16777216 },
    "facts": [)";
  for (int f = 0; f < 4; ++f)
    many += std::string(f ? "," : "") + R"({ "name": "c)" + std::to_string(f) +
            R"(", "type": "int", "min": 0, "max": 63 })";
  many += R"(], "actions": [], "goals": [)";
  for (int g = 0; g < 5; ++g) {
    many += std::string(g ? "," : "") + R"({ "name": "g)" + std::to_string(g) +
            R"(", "desired": [)";
    for (int f = 0; f < 4; ++f)
      many += std::string(f ? "," : "") + R"({ "fact": "c)" + std::to_string(f) +
              R"(", "value": )" + std::to_string(g) + "}";
    many += "] }";
  }
  many += "] }";
  const GoapLoadReport too_many = lib.loadText("many.json", many);
  REQUIRE_FALSE(too_many.ok());
  CHECK_THAT(too_many.text(),
             Catch::Contains("/search/pattern_states: the goals' pattern databases would hold "
                             "83886080 states, more than 67108864 for one domain"));
  const GoapLoadReport big = lib.loadText(
      "big.json", R"({ "domain": "d", "search": { "pattern_states": 16777217 }, "facts": [],
                       "actions": [] })");
  REQUIRE_FALSE(big.ok());
  CHECK_THAT(big.text(), Catch::Contains("/search/pattern_states"));
}

TEST_CASE("With pattern databases the villager's whole day plans optimally within the "
          "default limits",
          "[goap][pattern][benchmark_domains]") {
  // Optima from the planner given 10^6 expansions with LM-cut (day: 268,977 of them) and,
  // for evening, an independent Dijkstra (benchmark_domains_test.cpp).
  GoapLibrary lib;
  std::string text = readFile(dataPath("villager_day.json"));
  text.replace(text.find("\"villager_day\""), 14, "\"villager_day_patterns\"");
  text.replace(text.find("\"facts\""), 7, "\"search\": {\"pattern_states\": 4194304}, \"facts\"");
  const GoapDomain& d = loadDomain(lib, text, "villager_day_patterns.json");
  GoapPlanner planner;
  planner.setHeuristicCache(false);
  for (const auto& [goal, optimum, steps] :
       {std::tuple{"day", 59.f, 27}, std::tuple{"bread_run", 42.f, 17},
        std::tuple{"evening", 25.f, 13}}) {
    const PlanResult& r = planner.plan(request(d, {goal}));
    INFO(goal << ": " << explain(r, d) << " expansions " << r.expansions);
    REQUIRE(r.status == PlanStatus::kFound);
    CHECK((r.flags & kPlanPatternHeuristic) != 0);
    CHECK(r.cost == optimum);
    CHECK(r.step_count == steps);
    CHECK(r.h0 <= optimum);
    CHECK(firstInvalidStep(d, r, 0, d.initialState()) == -1);
    WARN(goal << " with pattern databases: h0 " << r.h0 << ", expansions " << r.expansions
              << ", generated " << r.generated << ", table "
              << d.patternDatabase(d.findGoal(goal))->states() << " states");
  }
  CHECK(planner.plan(request(d, {"day"})).h0 == 52.f);  // LM-cut's h0 is 32
}

TEST_CASE("A reload keeps the pattern databases of a domain whose text did not change",
          "[goap][pattern][loader]") {
  GoapLibrary before;
  const GoapDomain& old_errand = loadDomain(before, kErrand, "errand.json");
  const PatternDatabase* old_table = old_errand.patternDatabase(old_errand.findGoal("eat"));
  REQUIRE(old_table != nullptr);
  SECTION("Should share the tables of the same text") {
    GoapLibrary after;
    after.reusePatternDatabases(&before);
    const GoapDomain& errand = loadDomain(after, kErrand, "errand.json");
    CHECK(errand.patternDatabase(errand.findGoal("eat")) == old_table);
    CHECK(errand.patternDatabase(errand.findGoal("hungry_at_bank")) ==
          old_errand.patternDatabase(old_errand.findGoal("hungry_at_bank")));
  }
  SECTION("Should build the tables of a changed text afresh") {
    std::string cheaper_bank = kErrand;
    const std::string go_bank = "\"set\": \"bank\" } ], \"cost\": 3";
    cheaper_bank.replace(cheaper_bank.find(go_bank), go_bank.size(),
                         "\"set\": \"bank\" } ], \"cost\": 1");
    GoapLibrary after;
    after.reusePatternDatabases(&before);
    const GoapDomain& errand = loadDomain(after, cheaper_bank, "errand.json");
    const PatternDatabase* table = errand.patternDatabase(errand.findGoal("eat"));
    REQUIRE(table != nullptr);
    CHECK(table != old_table);
    CHECK(table->h(errand.initialState()) == 7.f);  // the walk to the bank costs 1, not 3
  }
  SECTION("Should build them when reuse is off") {
    GoapLibrary after;
    const GoapDomain& errand = loadDomain(after, kErrand, "errand.json");
    CHECK(errand.patternDatabase(errand.findGoal("eat")) != old_table);
    CHECK(errand.patternDatabase(errand.findGoal("eat"))->h(errand.initialState()) == 9.f);
  }
}
