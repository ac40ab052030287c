// Goal selection (core/goap/goal_selector.h): priority, relevance, hysteresis,
// interruption, blocking after a failure, and several goals answered by one search.
#include <catch2/catch.hpp>

#include "goap/goal_selector.h"
#include "goap_test_support.h"

using namespace npc::goap;
using namespace npc::goap::test;

namespace {
const char* kGoals = R"({
  "domain": "goals",
  "goal_selection": { "hysteresis": 2, "retry_s": 5 },
  "blackboard": { "alarmed": "bool", "hunger": "float" },
  "facts": [ { "name": "enemy_seen", "type": "bool" }, { "name": "fed", "type": "bool" },
             { "name": "patrolled", "type": "bool" }, { "name": "safe", "type": "bool" },
             { "name": "warm", "type": "bool" } ],
  "actions": [
    { "name": "Eat", "effects": [{ "fact": "fed", "set": true }], "cost": 3 },
    { "name": "Patrol", "effects": [{ "fact": "patrolled", "set": true }], "cost": 5 },
    { "name": "Hide", "effects": [{ "fact": "safe", "set": true }], "cost": 4 },
    { "name": "Fire", "effects": [{ "fact": "warm", "set": true }], "cost": 1 }
  ],
  "goals": [
    { "name": "patrol", "priority": 1, "desired": [{ "fact": "patrolled", "value": true }] },
    { "name": "eat", "priority": 2, "desired": [{ "fact": "fed", "value": true }],
      "relevant": [{ "blackboard": "hunger", "op": ">", "value": 0.5 }] },
    { "name": "warm_up", "priority": 2, "desired": [{ "fact": "warm", "value": true }] },
    { "name": "hide", "priority": 10, "desired": [{ "fact": "safe", "value": true }],
      "relevant": [{ "fact": "enemy_seen", "value": true }] },
    { "name": "panic", "priority": 3.5, "desired": [{ "fact": "safe", "value": true }],
      "relevant": [{ "blackboard": "alarmed", "value": true }] }
  ]
})";
}  // namespace

TEST_CASE("Goals are chosen by priority among relevant ones, with hysteresis",
          "[goap][goals]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDomain(lib, kGoals);
  const BlackboardKey<float> hunger = lib.blackboard().key<float>("hunger");
  const BlackboardKey<bool> alarmed = lib.blackboard().key<bool>("alarmed");
  Blackboard bb;
  GoalSelectorState st;
  GoapState facts = d.initialState();
  auto select = [&](double now = 0.0) { return selectGoal(d, BucketId{0}, facts, &bb, nullptr, now, st); };

  SECTION("Should take the highest-priority relevant goal not yet satisfied") {
    GoalChoice c = select();
    CHECK(c.goal == d.findGoal("warm_up"));  // eat is not relevant: hunger unset
    CHECK(c.changed);
    bb.set(hunger, 0.9f);
    d.set(facts, "warm", "true");
    c = select();
    CHECK(c.goal == d.findGoal("eat"));
    d.set(facts, "fed", "true");
    CHECK(select().goal == d.findGoal("patrol"));
  }
  SECTION("Should offer every goal of the top priority for one multi-goal search") {
    bb.set(hunger, 0.9f);
    const GoalChoice c = select();
    REQUIRE(c.alternative_count == 2);
    CHECK(c.alternatives[0] == d.findGoal("eat"));
    CHECK(c.alternatives[1] == d.findGoal("warm_up"));
    GoapPlanner planner;
    PlanRequest r;
    r.domain = &d;
    r.start = facts;
    for (int i = 0; i < c.alternative_count; ++i) r.addGoal(c.alternatives[i]);
    const PlanResult& res = planner.plan(r);
    CHECK(res.goal == d.findGoal("warm_up"));  // Fire (1) is cheaper than Eat (3)
    CHECK(names(d, res) == std::vector<std::string>{"Fire"});
  }
  SECTION("Should keep the running goal unless another beats it by more than the hysteresis") {
    CHECK(select().goal == d.findGoal("warm_up"));
    bb.set(alarmed, true);  // panic 3.5 vs warm_up 2: within the margin of 2
    GoalChoice c = select();
    CHECK(c.goal == d.findGoal("warm_up"));
    CHECK_FALSE(c.changed);
    CHECK_FALSE(c.interrupt);
    d.set(facts, "enemy_seen", "true");  // hide 10: interrupts
    c = select();
    CHECK(c.goal == d.findGoal("hide"));
    CHECK(c.interrupt);
    CHECK(c.changed);
  }
  SECTION("Should replace a goal that was reached without calling it an interruption") {
    CHECK(select().goal == d.findGoal("warm_up"));
    d.set(facts, "warm", "true");
    const GoalChoice c = select();
    CHECK(c.goal == d.findGoal("patrol"));
    CHECK(c.changed);
    CHECK_FALSE(c.interrupt);
  }
  SECTION("Should skip a blocked goal until its retry time") {
    CHECK(select(0.0).goal == d.findGoal("warm_up"));
    blockGoal(st, d.findGoal("warm_up"), 5.0);
    endGoal(st);
    CHECK(select(1.0).goal == d.findGoal("patrol"));
    endGoal(st);
    CHECK(select(5.0).goal == d.findGoal("warm_up"));
  }
  SECTION("Should keep a goal blocked on unchanged facts while a lower goal runs") {
    d.set(facts, "enemy_seen", "true");
    CHECK(select(0.0).goal == d.findGoal("hide"));
    GoapState read_mask;  // the failed search read "safe" only
    const FactField safe = d.fact(d.findFact("safe")).field;
    read_mask.w[safe.word] = safe.mask();
    blockGoal(st, d.findGoal("hide"), 5.0, &read_mask, &facts);
    endGoal(st);
    GoalChoice c = select(1.0);
    CHECK(c.goal == d.findGoal("warm_up"));  // the lower goal starts...
    for (double t : {5.0, 20.0, 100.0}) {    // ...and hide (10) does not interrupt it
      c = select(t);
      CHECK(c.goal == d.findGoal("warm_up"));
      CHECK_FALSE(c.interrupt);
    }
    d.set(facts, "warm", "true");  // warm_up completes
    endGoal(st);
    CHECK(select(100.0).goal == d.findGoal("hide"));  // nothing runs: retried
  }
  SECTION("Should retry a blocked goal as soon as a fact its search read changes") {
    CHECK(select(0.0).goal == d.findGoal("warm_up"));
    GoapState read_mask;  // the failed search read "fed" only
    const FactField fed = d.fact(d.findFact("fed")).field;
    read_mask.w[fed.word] = fed.mask();
    blockGoal(st, d.findGoal("warm_up"), 5.0, &read_mask, &facts);
    endGoal(st);
    CHECK(select(1.0).goal == d.findGoal("patrol"));
    endGoal(st);
    d.set(facts, "safe", "true");  // not read: still blocked before retry_s
    CHECK(select(2.0).goal == d.findGoal("patrol"));
    endGoal(st);
    d.set(facts, "fed", "true");  // read: retried before retry_s
    CHECK(select(2.0).goal == d.findGoal("warm_up"));
  }
  SECTION("Should return no goal when nothing is wanted") {
    for (const char* f : {"fed", "patrolled", "safe", "warm"}) d.set(facts, f, "true");
    const GoalChoice c = select();
    CHECK(c.goal == GoalId::kNone);
    CHECK(c.alternative_count == 0);
  }
}
