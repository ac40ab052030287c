// PlanRunner (core/goap/plan_runner.h): the per-agent plan life cycle — steps, failure and
// replanning with a cooldown, world changes that break the plan, interruption, fallback —
// and skipping the search when nothing the last one read has changed.
#include <catch2/catch.hpp>

#include "goap/plan_runner.h"
#include "goap/statistics.h"
#include "goap_test_support.h"

using namespace npc::goap;
using namespace npc::goap::test;

namespace {

const char* kCamp = R"({
  "domain": "camp",
  "goal_selection": { "hysteresis": 0, "retry_s": 3, "replan_cooldown_s": 1 },
  "blackboard": { "fires_lit": "int" },
  "facts": [ { "name": "axe", "type": "bool", "initial": true }, { "name": "matches", "type": "bool", "initial": true },
             { "name": "has_wood", "type": "bool" }, { "name": "fire_lit", "type": "bool" },
             { "name": "enemy_near", "type": "bool" }, { "name": "hidden", "type": "bool" } ],
  "actions": [
    { "name": "Chop", "pre": [{ "fact": "axe", "value": true }], "effects": [{ "fact": "has_wood", "set": true }], "cost": 2 },
    { "name": "Light", "pre": [{ "fact": "has_wood", "value": true }, { "fact": "matches", "value": true }],
      "effects": [{ "fact": "fire_lit", "set": true }, { "fact": "has_wood", "set": false }], "cost": 1,
      "on_success": [{ "blackboard": "fires_lit", "set": 1 }], "pacing": { "tag": "fire", "agent_penalty": 1 } },
    { "name": "Hide", "effects": [{ "fact": "hidden", "set": true }], "cost": 1 },
    { "name": "Wander", "cost": 1 }
  ],
  "goals": [ { "name": "fire", "priority": 1, "desired": [{ "fact": "fire_lit", "value": true }] },
             { "name": "hide", "priority": 5, "desired": [{ "fact": "hidden", "value": true }],
               "relevant": [{ "fact": "enemy_near", "value": true }] } ],
  "buckets": [ { "name": "Camp", "actions": ["Chop", "Light", "Hide"], "goals": ["fire", "hide"], "fallback": "Wander" } ]
})";

// A tiny stand-in for the game: runs the runner's commands and applies step effects.
struct Agent {
  const GoapDomain& d;
  GoapState facts;
  PlanRunner runner;
  GoapPlanner planner;
  Blackboard bb;
  PacingMemory pacing;
  std::vector<std::string> log;

  explicit Agent(const GoapDomain& dom) : d(dom), facts(dom.initialState()) {}

  RunnerCommand tick(double now) {
    const RunnerCommand c = runner.update(d, BucketId{0}, facts, &bb, nullptr, now);
    if (c == RunnerCommand::kRequestPlan) {
      PlanRequest r;
      r.domain = &d;
      r.start = facts;
      for (GoalId g : runner.goals()) r.addGoal(g);
      r.previous = &runner.plan();
      r.now_s = now;
      r.pacing = &pacing;
      runner.onPlanReady(planner.plan(r), now);
      log.push_back(std::string("plan:") + toString(runner.phase()));
    } else if (c == RunnerCommand::kStartStep) {
      log.push_back("start:" + d.action(runner.currentStep()->action).name);
    } else if (c == RunnerCommand::kRunFallback) {
      log.push_back("fallback:" + d.action(runner.fallback()).name);
    } else if (c == RunnerCommand::kStopStep) {
      log.push_back("stop");
    }
    return c;
  }
  void succeed(double now) {
    if (const PlanStep* s = runner.currentStep())
      for (const Effect& e : d.action(s->action).effects)
        if (e.kind == EffectKind::kSet) d.set(facts, e.fact, e.value);
    runner.onStepSucceeded(now, &bb, &pacing, nullptr);
  }
};

}  // namespace

TEST_CASE("A plan runs step by step and ends when the goal is reached", "[goap][runner]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDomain(lib, kCamp);
  Agent a(d);
  CHECK(a.tick(0) == RunnerCommand::kRequestPlan);
  CHECK(a.runner.phase() == RunnerPhase::kExecuting);
  CHECK(a.tick(0) == RunnerCommand::kStartStep);
  CHECK(a.tick(0.1) == RunnerCommand::kNone);  // still chopping
  a.succeed(1);
  CHECK(a.tick(1) == RunnerCommand::kStartStep);
  a.succeed(2);
  CHECK(a.runner.phase() == RunnerPhase::kIdle);
  CHECK(a.tick(2) == RunnerCommand::kRunFallback);  // nothing left to want: wander, never stall
  CHECK(a.log == std::vector<std::string>{"plan:executing", "start:Chop", "start:Light",
                                          "fallback:Wander"});
  SECTION("Should apply on_success writes and record pacing") {
    CHECK(a.bb.get(lib.blackboard().key<int32_t>("fires_lit")) == 1);
    double t = 0;
    CHECK(a.pacing.lastUsed(lib.findPacingTag("fire"), t));
    CHECK(t == 2.0);
  }
}

TEST_CASE("A failed step replans after the cooldown", "[goap][runner]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDomain(lib, kCamp);
  PlannerStatistics stats(d);
  Agent a(d);
  a.tick(0);
  a.tick(0);  // start Chop
  a.runner.onStepFailed(0.5, &stats);
  CHECK(stats.action(d.findAction("Chop")).failed == 1);
  CHECK(a.runner.phase() == RunnerPhase::kCooldown);
  CHECK(a.tick(0.6) == RunnerCommand::kRunFallback);  // waits (wandering) until 1.5
  CHECK(a.tick(1.0) == RunnerCommand::kNone);
  CHECK(a.tick(1.5) == RunnerCommand::kStopStep);     // stop wandering: a goal is due
  CHECK(a.tick(1.5) == RunnerCommand::kRequestPlan);
  CHECK(a.runner.replans() == 2);
  CHECK(a.runner.failures() == 1);
  CHECK(a.tick(1.5) == RunnerCommand::kStartStep);
  CHECK(a.runner.currentStep()->action == d.findAction("Chop"));
}

TEST_CASE("A world change that breaks a later step stops the plan", "[goap][runner]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDomain(lib, kCamp);
  Agent a(d);
  a.tick(0);
  a.tick(0);  // chopping
  SECTION("Should keep going when the change does not matter") {
    d.set(a.facts, "axe", "false");  // Chop is running: its own precondition is the executor's
    a.runner.worldChanged();
    CHECK(a.tick(0.2) == RunnerCommand::kNone);
  }
  SECTION("Should stop and, after the cooldown, replan and fall back when nothing works") {
    d.set(a.facts, "matches", "false");  // Light will fail
    a.runner.worldChanged();
    CHECK(a.tick(0.2) == RunnerCommand::kStopStep);
    CHECK(a.runner.phase() == RunnerPhase::kCooldown);
    CHECK(a.tick(0.5) == RunnerCommand::kRunFallback);
    CHECK(a.tick(1.0) == RunnerCommand::kStopStep);
    CHECK(a.tick(1.0) == RunnerCommand::kRequestPlan);  // no plan: "fire" blocked for 3 s
    CHECK(a.runner.phase() == RunnerPhase::kIdle);
    CHECK(a.runner.plan().status == PlanStatus::kNoPlan);
    CHECK(a.tick(1.0) == RunnerCommand::kRunFallback);
    a.succeed(2.0);  // wandered
    CHECK(a.tick(3.5) == RunnerCommand::kRunFallback);  // still blocked
    d.set(a.facts, "matches", "true");
    a.succeed(4.0);
    CHECK(a.tick(4.0) == RunnerCommand::kRequestPlan);  // retry after retry_s
  }
}

TEST_CASE("A more urgent goal interrupts the running plan at once", "[goap][runner]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDomain(lib, kCamp);
  Agent a(d);
  a.tick(0);
  a.tick(0);  // chopping for "fire"
  d.set(a.facts, "enemy_near", "true");
  CHECK(a.tick(0.3) == RunnerCommand::kStopStep);
  CHECK(a.tick(0.3) == RunnerCommand::kRequestPlan);  // no cooldown for interruptions
  CHECK(a.runner.goal() == d.findGoal("hide"));
  CHECK(a.tick(0.3) == RunnerCommand::kStartStep);
  CHECK(a.runner.currentStep()->action == d.findAction("Hide"));
}

TEST_CASE("Replanning is skipped when nothing the last search read has changed",
          "[goap][runner][reuse]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDomain(lib, kCamp);
  GoapPlanner planner;
  PlanRequest r = request(d, {"fire"});
  const PlanResult first = planner.plan(r);
  REQUIRE(first.status == PlanStatus::kFound);
  r.previous = &first;

  SECTION("Should reuse the result when the request is the same") {
    const PlanResult& again = planner.plan(r);
    CHECK((again.flags & kPlanReused) != 0);
    CHECK(again.expansions == 0);
    CHECK(names(d, again) == names(d, first));
  }
  SECTION("Should reuse it when only facts the search never reads changed") {
    d.set(r.start, "hidden", "true");
    CHECK((planner.plan(r).flags & kPlanReused) != 0);
  }
  SECTION("Should search again when a fact it read changed") {
    d.set(r.start, "axe", "false");
    const PlanResult& other = planner.plan(r);
    CHECK((other.flags & kPlanReused) == 0);
    CHECK(other.status == PlanStatus::kNoPlan);
  }
  SECTION("Should search again for another goal") {
    PlanRequest h = request(d, {"hide"});
    h.previous = &first;
    CHECK((planner.plan(h).flags & kPlanReused) == 0);
  }
}
