// GoapPlanner (core/goap/planner.h): optimality against a brute-force oracle on random
// small domains, multi-goal requests, limits and partial results, "no plan: why",
// time-slicing and determinism.
#include <map>
#include <queue>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "base/rng.h"
#include "goap/goal_selector.h"
#include "goap_test_support.h"

using namespace npc;
using namespace npc::goap;
using namespace npc::goap::test;
using nlohmann::json;

namespace {

// --- a random small domain: 4 bools, a 3-value enum, an int 0..3 ------------------------
json randomDomain(uint64_t seed) {
  Rng rng(seed);
  auto pick = [&](int n) { return static_cast<int>(rng.next() % static_cast<uint64_t>(n)); };
  const char* enums[] = {"red", "green", "blue"};
  json d;
  d["domain"] = "random_" + std::to_string(seed);
  d["search"] = {{"max_nodes", 4096}};
  d["facts"] = json::array();
  for (int i = 0; i < 4; ++i)
    d["facts"].push_back({{"name", "b" + std::to_string(i)}, {"type", "bool"}, {"initial", pick(2) == 1}});
  d["facts"].push_back({{"name", "e"}, {"type", "enum"}, {"values", {"red", "green", "blue"}},
                        {"initial", enums[pick(3)]}});
  d["facts"].push_back({{"name", "n"}, {"type", "int"}, {"min", 0}, {"max", 3}, {"initial", pick(4)}});
  const char* ops[] = {"=", "!=", "<", "<=", ">", ">="};
  auto condition = [&](int fact) -> json {
    if (fact < 4) return {{"fact", "b" + std::to_string(fact)}, {"value", pick(2) == 1}};
    if (fact == 4) return {{"fact", "e"}, {"op", pick(2) ? "=" : "!="}, {"value", enums[pick(3)]}};
    return {{"fact", "n"}, {"op", ops[pick(6)]}, {"value", pick(4)}};
  };
  d["actions"] = json::array();
  const int actions = 5 + pick(5);
  for (int a = 0; a < actions; ++a) {
    json act = {{"name", "a" + std::to_string(a)}};
    std::vector<int> facts = {0, 1, 2, 3, 4, 5};
    for (int i = 5; i > 0; --i) std::swap(facts[i], facts[pick(i + 1)]);
    const int pres = pick(3);
    act["pre"] = json::array();
    for (int i = 0; i < pres; ++i) act["pre"].push_back(condition(facts[i]));
    act["effects"] = json::array();
    const int effs = 1 + pick(2);
    for (int i = 0; i < effs; ++i) {
      const int f = facts[5 - i];
      if (f < 4) act["effects"].push_back({{"fact", "b" + std::to_string(f)}, {"set", pick(2) == 1}});
      else if (f == 4) act["effects"].push_back({{"fact", "e"}, {"set", enums[pick(3)]}});
      else if (pick(3) == 0) act["effects"].push_back({{"fact", "n"}, {"set", pick(4)}});
      else act["effects"].push_back({{"fact", "n"}, {pick(2) ? "add" : "sub", 1 + pick(2)}});
    }
    if (pick(4) == 0) {
      act["cost"] = {{"base", pick(2)}, {"by_fact", "e"},
                     {"table", {{"red", 1 + pick(4)}, {"green", 1 + pick(4)}, {"blue", 1 + pick(4)}}}};
    } else if (pick(5) == 0) {
      act["cost"] = {{"base", 1}, {"by_fact", "n"},
                     {"table", {{"0", pick(3)}, {"1", pick(3)}, {"2", pick(3)}, {"3", pick(3)}}}};
    } else {
      act["cost"] = 1 + pick(5);
    }
    d["actions"].push_back(act);
  }
  d["goals"] = json::array();
  for (int g = 0; g < 2; ++g) {
    std::vector<int> facts = {0, 1, 2, 3, 4, 5};
    for (int i = 5; i > 0; --i) std::swap(facts[i], facts[pick(i + 1)]);
    json goal = {{"name", "g" + std::to_string(g)}, {"desired", json::array()}};
    const int n = 1 + pick(3);
    for (int i = 0; i < n; ++i) goal["desired"].push_back(condition(facts[i]));
    d["goals"].push_back(goal);
  }
  return d;
}

// --- the oracle: Dijkstra that applies the domain's semantics literally -----------------
bool oracleApply(const GoapDomain& d, const ActionDef& a, const GoapState& s, GoapState& out,
                 float& cost) {
  for (const Condition& c : a.conditions)
    if (!holds(c, s, nullptr)) return false;
  out = s;
  for (const Effect& e : a.effects) {
    if (e.kind == EffectKind::kSet) {
      d.set(out, e.fact, e.value);
    } else if (!d.set(out, e.fact, d.get(s, e.fact) + e.value)) {
      return false;  // a bounded int leaving its range
    }
  }
  cost = a.cost.base;
  if (a.cost.table_size)
    cost += d.costTable()[a.cost.table_offset + (d.get(s, a.cost.table_fact) - d.fact(a.cost.table_fact).min)];
  return true;
}

float oracleCost(const GoapDomain& d, const std::vector<GoalId>& goals, const GoapState& start) {
  using Key = std::array<uint64_t, kStateWords>;
  std::map<Key, float> best;
  using Item = std::pair<float, Key>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
  best[start.w] = 0.f;
  open.push({0.f, start.w});
  while (!open.empty()) {
    auto [g, key] = open.top();
    open.pop();
    if (g > best[key]) continue;
    GoapState s;
    s.w = key;
    for (GoalId goal : goals)
      if (goalSatisfied(d.goal(goal), s)) return g;
    for (const ActionDef& a : d.actions()) {
      GoapState next;
      float c = 0;
      if (!oracleApply(d, a, s, next, c)) continue;
      auto it = best.find(next.w);
      if (it == best.end() || g + c < it->second) {
        best[next.w] = g + c;
        open.push({g + c, next.w});
      }
    }
  }
  return kInfiniteCost;
}

// Replays a plan with oracle semantics: valid, reaches a goal, costs what it says.
void checkPlanValid(const GoapDomain& d, const PlanResult& r, const GoapState& start) {
  GoapState s = start;
  float total = 0;
  for (int i = 0; i < r.step_count; ++i) {
    GoapState next;
    float c = 0;
    INFO("step " << i << " " << d.action(r.steps[i].action).name);
    REQUIRE(oracleApply(d, d.action(r.steps[i].action), s, next, c));
    CHECK(r.steps[i].cost == Approx(c));
    total += c;
    s = next;
  }
  CHECK(total == Approx(r.cost));
  CHECK(goalSatisfied(d.goal(r.goal), s));
}

}  // namespace

TEST_CASE("Plans are optimal on random small domains (brute-force oracle)", "[goap][planner]") {
  int with_plan = 0, without = 0;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    GoapLibrary lib;
    const json j = randomDomain(seed);
    const GoapDomain& d = loadDomain(lib, j.dump(), "random.json");
    GoapPlanner planner;
    for (int g = 0; g < 2; ++g) {
      const GoalId goal = static_cast<GoalId>(g);
      const float expected = oracleCost(d, {goal}, d.initialState());
      PlanRequest r;
      r.domain = &d;
      r.start = d.initialState();
      r.addGoal(goal);
      const PlanResult& res = planner.plan(r);
      INFO("seed " << seed << " goal " << g << "\n" << j.dump(1) << "\n" << explain(res, d));
      if (expected == kInfiniteCost) {
        REQUIRE(res.status == PlanStatus::kNoPlan);
        ++without;
        continue;
      }
      REQUIRE(res.status == PlanStatus::kFound);
      CHECK(res.cost == Approx(expected));
      CHECK(res.h0 <= expected + 1e-4f);
      checkPlanValid(d, res, d.initialState());
      ++with_plan;
    }
    // Several goals in one search: the cheapest plan to any of them.
    const float both = oracleCost(d, {GoalId{0}, GoalId{1}}, d.initialState());
    PlanRequest r;
    r.domain = &d;
    r.start = d.initialState();
    r.addGoal(GoalId{0});
    r.addGoal(GoalId{1});
    const PlanResult& res = planner.plan(r);
    INFO("seed " << seed << " multi-goal");
    if (both == kInfiniteCost) {
      CHECK(res.status == PlanStatus::kNoPlan);
    } else {
      REQUIRE(res.status == PlanStatus::kFound);
      CHECK(res.cost == Approx(both));
      checkPlanValid(d, res, d.initialState());
    }
  }
  CHECK(with_plan > 300);  // the generator makes mostly solvable problems...
  CHECK(without > 10);     // ...and some unsolvable ones
}

TEST_CASE("Blind search and the bounded-suboptimal mode", "[goap][planner]") {
  for (uint64_t seed = 1; seed <= 150; ++seed) {
    for (const char* mode : {"blind", "weighted"}) {
      json j = randomDomain(seed);
      if (std::string(mode) == "blind") j["search"]["heuristic"] = "blind";
      else j["search"]["weight"] = 2.0;
      GoapLibrary lib;
      const GoapDomain& d = loadDomain(lib, j.dump(), "random.json");
      GoapPlanner planner;
      const float expected = oracleCost(d, {GoalId{0}}, d.initialState());
      const PlanResult& res = planner.plan(request(d, {"g0"}));
      INFO("seed " << seed << " " << mode);
      if (expected == kInfiniteCost) {
        CHECK(res.status == PlanStatus::kNoPlan);
        continue;
      }
      REQUIRE(res.status == PlanStatus::kFound);
      checkPlanValid(d, res, d.initialState());
      if (std::string(mode) == "blind") {
        CHECK(res.cost == Approx(expected));
      } else {
        CHECK(res.cost <= 2.f * expected + 1e-4f);  // bounded: ≤ weight × optimum
        if (res.step_count > 0) CHECK((res.flags & kPlanSuboptimal) != 0);
      }
    }
  }
}

namespace {
// LM-cut's A* (a small problem's exact table plans it in 13 nodes: planner_table_test.cpp
// tests the limits there).
const char* kChain = R"({
  "domain": "chain",
  "search": { "heuristic": "lmcut" },
  "facts": [ { "name": "n", "type": "int", "min": 0, "max": 12 },
             { "name": "side", "type": "bool" } ],
  "actions": [
    { "name": "inc", "effects": [{ "fact": "n", "add": 1 }], "cost": 1 },
    { "name": "inc2", "pre": [{ "fact": "side", "value": true }], "effects": [{ "fact": "n", "add": 2 }], "cost": 3 },
    { "name": "flip", "effects": [{ "fact": "side", "set": true }], "cost": 1 },
    { "name": "unflip", "effects": [{ "fact": "side", "set": false }], "cost": 1 }
  ],
  "goals": [ { "name": "twelve", "desired": [{ "fact": "n", "value": 12 }] },
             { "name": "impossible", "desired": [{ "fact": "n", "op": ">", "value": 12 }] } ]
})";
}  // namespace

TEST_CASE("Limits return the best partial plan with a flag", "[goap][planner][limits]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDomain(lib, kChain, "chain.json");
  GoapPlanner planner;

  SECTION("Should find the optimum without limits") {
    const PlanResult& r = planner.plan(request(d, {"twelve"}));
    REQUIRE(r.status == PlanStatus::kFound);
    CHECK(r.cost == 12);
    CHECK(r.step_count == 12);
  }
  SECTION("Should stop at the expansion limit with the nearest state found") {
    PlanRequest req = request(d, {"twelve"});
    req.limits.max_expansions = 5;
    const PlanResult& r = planner.plan(req);
    REQUIRE(r.status == PlanStatus::kPartial);
    CHECK((r.flags & kPlanExpansionLimit) != 0);
    CHECK(r.expansions == 5);
    CHECK(r.step_count > 0);  // leads towards the goal
    CHECK_FALSE(r.hasPlan());  // but is not a plan: the domain did not accept partial plans
    CHECK((r.flags & kPlanPartialAccepted) == 0);
  }
  SECTION("Should stop when the deterministic work budget is spent") {
    PlanRequest req = request(d, {"twelve"});
    req.limits.max_work = 10;
    const PlanResult& r = planner.plan(req);
    REQUIRE(r.status == PlanStatus::kPartial);
    CHECK((r.flags & kPlanWorkLimit) != 0);
    CHECK(r.work >= 10);
    CHECK(r.work < 20);
  }
  SECTION("Should report a full node pool and still return what it reached") {
    PlanRequest req = request(d, {"twelve"});
    req.limits.max_nodes = 16;
    const PlanResult& r = planner.plan(req);
    CHECK((r.flags & kPlanOutOfNodes) != 0);
    CHECK(r.generated <= 16);
  }
  SECTION("Should not explore beyond max_depth") {
    PlanRequest req = request(d, {"twelve"});
    req.limits.max_depth = 4;
    const PlanResult& r = planner.plan(req);
    REQUIRE(r.status == PlanStatus::kPartial);
    CHECK((r.flags & kPlanDepthLimited) != 0);
    CHECK(r.step_count <= 4);
    CHECK(explain(r, d).find("max_depth") != std::string::npos);
  }
  SECTION("Should honour an optional wall-clock budget through an injected clock") {
    struct FakeClock : PlanClock {
      mutable uint64_t t = 0;
      uint64_t nowNs() const override { return t += 1000; }
    } clock;
    PlanRequest req = request(d, {"twelve"});
    req.limits.clock = &clock;
    req.limits.max_wall_ns = 500;
    const PlanResult& r = planner.plan(req);
    REQUIRE(r.status == PlanStatus::kPartial);
    CHECK((r.flags & kPlanWallClockLimit) != 0);
  }
  SECTION("Should say why there is no plan") {
    const PlanResult& r = planner.plan(request(d, {"impossible"}));
    REQUIRE(r.status == PlanStatus::kNoPlan);
    REQUIRE(r.why.count == 1);
    CHECK(explain(r, d) ==
          "no plan for \"impossible\": \"n > 12\" never held (unreachable even ignoring negative "
          "effects); achievers: inc (applicable, but never led there), inc2 (applicable, but "
          "never led there)");
  }
}

TEST_CASE("A partial result is a plan only when the domain accepts partial plans",
          "[goap][planner][limits]") {
  std::string accepting = kChain;
  accepting.replace(accepting.find("\"domain\": \"chain\""), 17, "\"domain\": \"chain_partial\"");
  accepting.replace(accepting.find("\"search\": {"), 11, "\"search\": { \"accept_partial\": true,");
  GoapLibrary lib;
  const GoapDomain& strict = loadDomain(lib, kChain, "chain.json");
  const GoapDomain& lenient = loadDomain(lib, accepting, "chain_partial.json");
  GoapPlanner planner;
  for (const GoapDomain* d : {&strict, &lenient}) {
    PlanRequest req = request(*d, {"twelve"});
    req.limits.max_expansions = 5;
    const PlanResult& r = planner.plan(req);
    INFO(d->name());
    REQUIRE(r.status == PlanStatus::kPartial);
    REQUIRE(r.step_count > 0);
    CHECK(r.hasPlan() == (d == &lenient));
    CHECK(((r.flags & kPlanPartialAccepted) != 0) == (d == &lenient));
  }
}

TEST_CASE("The node pool grows on demand up to max_nodes", "[goap][planner][limits]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDomain(lib, kChain, "chain.json");
  GoapPlanner planner;
  SECTION("Should find a plan needing more nodes than the initial pool (256)") {
    // Ten independent switches and a blind search: Dijkstra visits all 1024 states.
    json j = {{"domain", "switches"}, {"search", {{"heuristic", "blind"}}}};
    for (int i = 0; i < 10; ++i) {
      const std::string f = "s" + std::to_string(i);
      j["facts"].push_back({{"name", f}, {"type", "bool"}});
      j["actions"].push_back({{"name", "set_" + f}, {"effects", {{{"fact", f}, {"set", true}}}}});
      j["goals"][0]["desired"].push_back({{"fact", f}, {"value", true}});
    }
    j["goals"][0]["name"] = "all";
    const GoapDomain& sw = loadDomain(lib, j.dump(), "switches.json");
    const PlanResult& r = planner.plan(request(sw, {"all"}));
    CHECK(r.status == PlanStatus::kFound);
    CHECK(r.cost == 10);
    CHECK(r.generated > 512);
    CHECK((r.flags & kPlanOutOfNodes) == 0);
  }
  SECTION("Should respect a small bound after a large search grew the pool") {
    CHECK(planner.plan(request(d, {"twelve"})).status == PlanStatus::kFound);
    PlanRequest req = request(d, {"twelve"});
    req.limits.max_nodes = 16;
    const PlanResult& r = planner.plan(req);
    CHECK((r.flags & kPlanOutOfNodes) != 0);
    CHECK(r.generated <= 16);
  }
}

TEST_CASE("No plan names the goal facts and the preconditions never met", "[goap][planner]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDomain(lib, R"({
    "domain": "locked",
    "facts": [ { "name": "door_open", "type": "bool" }, { "name": "has_key", "type": "bool" },
               { "name": "inside", "type": "bool" }, { "name": "crowbar", "type": "bool" } ],
    "actions": [
      { "name": "unlock", "pre": [{ "fact": "has_key", "value": true }], "effects": [{ "fact": "door_open", "set": true }] },
      { "name": "pry", "pre": [{ "fact": "crowbar", "value": true }], "effects": [{ "fact": "door_open", "set": true }] },
      { "name": "enter", "pre": [{ "fact": "door_open", "value": true }], "effects": [{ "fact": "inside", "set": true }] }
    ],
    "goals": [ { "name": "get_in", "desired": [{ "fact": "inside", "value": true }] },
               { "name": "fly", "desired": [{ "fact": "crowbar", "value": true }] } ]
  })");
  GoapPlanner planner;
  const PlanResult& r = planner.plan(request(d, {"get_in"}));
  REQUIRE(r.status == PlanStatus::kNoPlan);
  CHECK((r.flags & kPlanRelaxedUnreachable) != 0);
  CHECK(r.expansions == 0);  // known before searching
  CHECK(explain(r, d) ==
        "no plan for \"get_in\": \"inside = true\" never held (unreachable even ignoring "
        "negative effects); achievers: enter (never \"door_open = true\")");
  const PlanResult& f = planner.plan(request(d, {"fly"}));
  CHECK(explain(f, d).find("no action in the bucket achieves it") != std::string::npos);
}

TEST_CASE("Time-sliced searches give the same plans as one-shot ones", "[goap][planner]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDataDomain(lib, "b2_investigate.json");
  GoapPlanner one_shot, sliced;
  for (const char* goal : {"investigate", "search_cellar", "secure_cellar", "stress"}) {
    const PlanResult expected = one_shot.plan(request(d, {goal}));
    REQUIRE(sliced.begin(request(d, {goal})) == PlanStatus::kInProgress);
    int slices = 0;
    while (sliced.step(3) == PlanStatus::kInProgress) ++slices;
    const PlanResult& got = sliced.result();
    INFO(goal);
    CHECK(slices > 0);
    CHECK(names(d, got) == names(d, expected));
    CHECK(got.cost == expected.cost);
    CHECK(got.expansions == expected.expansions);
  }
}

TEST_CASE("Searches are deterministic and independent of the heuristic cache",
          "[goap][planner]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDataDomain(lib, "b1_fight.json");
  GoapPlanner cached, uncached;
  uncached.setHeuristicCache(false);
  for (int round = 0; round < 3; ++round) {
    for (const char* goal : {"kill", "kill_healthy", "alarm_and_hold"}) {
      const PlanResult a = cached.plan(request(d, {goal}));
      const PlanResult& b = uncached.plan(request(d, {goal}));
      INFO(goal << " round " << round);
      CHECK(names(d, a) == names(d, b));
      CHECK(a.expansions == b.expansions);
      CHECK(a.generated == b.generated);
    }
  }
  CHECK(cached.heuristicCacheHits() >= 6);
  CHECK(uncached.heuristicCacheHits() == 0);
}

TEST_CASE("A goal that already holds needs an empty plan", "[goap][planner]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDataDomain(lib, "b0_gpgoap.json");
  GoapState s = stateWith(d, {{"enemyalive", "false"}});
  GoapPlanner planner;
  const PlanResult& r = planner.plan(request(d, {"kill"}, &s));
  CHECK(r.status == PlanStatus::kFound);
  CHECK(r.step_count == 0);
  CHECK((r.flags & kPlanAlreadySatisfied) != 0);
}

TEST_CASE("Bad requests are refused", "[goap][planner]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDataDomain(lib, "b0_gpgoap.json");
  GoapPlanner planner;
  PlanRequest r;
  CHECK(planner.plan(r).status == PlanStatus::kInvalidRequest);  // no domain
  r.domain = &d;
  CHECK(planner.plan(r).status == PlanStatus::kInvalidRequest);  // no goal
  r.addGoal(static_cast<GoalId>(99));
  CHECK(planner.plan(r).status == PlanStatus::kInvalidRequest);  // unknown goal
  PlanRequest b = request(d, {"kill"});
  b.bucket = static_cast<BucketId>(7);
  CHECK(planner.plan(b).status == PlanStatus::kInvalidRequest);  // unknown bucket
}

TEST_CASE("LM-cut counts every step of a counter an action changes beside another",
          "[goap][planner][heuristic]") {
  // "sell" changes wood and coins: its relaxed operators are split on both, so reaching
  // 3 coins takes three sales in the relaxation too (split on wood alone, one sale reached
  // every coin value at once: h0 3). Wood stays relaxed (one chop reaches wood = 1 for
  // good): h0 = 2 + 3 = 5 against the optimum 3 × (2 + 1) = 9.
  GoapLibrary lib;
  const GoapDomain& d = loadDomain(lib, R"({ "domain": "market",
    "search": { "heuristic": "lmcut" },
    "facts": [ { "name": "wood", "type": "int", "min": 0, "max": 3 },
               { "name": "coins", "type": "int", "min": 0, "max": 3 } ],
    "actions": [
      { "name": "chop", "effects": [{ "fact": "wood", "add": 1 }], "cost": 2 },
      { "name": "sell", "effects": [{ "fact": "wood", "sub": 1 }, { "fact": "coins", "add": 1 }],
        "cost": 1 } ],
    "goals": [ { "name": "rich", "desired": [{ "fact": "coins", "value": 3 }] } ] })");
  GoapPlanner planner;
  const PlanResult& r = planner.plan(request(d, {"rich"}));
  REQUIRE(r.status == PlanStatus::kFound);
  CHECK(r.cost == 9.f);
  CHECK(r.h0 == 5.f);
}
