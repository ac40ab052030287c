// Variety and pacing (core/goap/pacing.h): recent use makes an action costlier, decaying
// over time, per agent and per group; choices change over time, deterministically.
#include <catch2/catch.hpp>

#include "goap/plan_runner.h"
#include "goap_test_support.h"

using namespace npc;
using namespace npc::goap;
using namespace npc::goap::test;

namespace {
const char* kSwings = R"({
  "domain": "swings",
  "facts": [ { "name": "hit", "type": "bool" } ],
  "actions": [
    { "name": "Overhead", "effects": [{ "fact": "hit", "set": true }], "cost": 2,
      "pacing": { "tag": "overhead", "agent_penalty": 4, "group_penalty": 1, "half_life_s": 4 } },
    { "name": "Sweep", "effects": [{ "fact": "hit", "set": true }], "cost": 2.5,
      "pacing": { "tag": "sweep", "agent_penalty": 4, "group_penalty": 1, "half_life_s": 4 } },
    { "name": "Jab", "effects": [{ "fact": "hit", "set": true }], "cost": 3,
      "pacing": { "tag": "jab", "agent_penalty": 4, "half_life_s": 4 } },
    { "name": "Flourish", "cost": 0.5, "records": ["style"] }
  ],
  "goals": [ { "name": "hit", "desired": [{ "fact": "hit", "value": true }], "end_with": "Flourish" } ]
})";

// Plans, "executes" every step (recording pacing) and advances time; returns the attacks.
std::vector<std::string> fight(const GoapDomain& d, int rounds, double dt_s, PacingMemory& agent,
                               PacingMemory* group) {
  GoapPlanner planner;
  std::vector<std::string> out;
  double now = 0.0;
  for (int i = 0; i < rounds; ++i, now += dt_s) {
    PlanRequest r = request(d, {"hit"});
    r.pacing = &agent;
    r.group_pacing = group;
    r.now_s = now;
    const PlanResult& res = planner.plan(r);
    REQUIRE(res.status == PlanStatus::kFound);
    REQUIRE(res.step_count == 2);
    out.push_back(d.action(res.steps[0].action).name);
    for (int s = 0; s < res.step_count; ++s) {
      const ActionDef& a = d.action(res.steps[s].action);
      for (PacingMemory* m : {&agent, group}) {
        if (!m) continue;
        m->record(a.pacing.tag, now);
        for (PacingTagId t : a.records) m->record(t, now);
      }
    }
  }
  return out;
}
}  // namespace

TEST_CASE("Pacing changes choices over time, deterministically", "[goap][pacing]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDomain(lib, kSwings);

  SECTION("Should rotate attacks when the agent fights continuously") {
    PacingMemory agent;
    const auto seq = fight(d, 6, 1.0, agent, nullptr);
    // Costs at t=5: Overhead 2 + 4·2^(−2/4) = 4.83, Sweep 2.5 + 4·2^(−1/4) = 5.86,
    // Jab 3 + 4·2^(−3/4) = 5.38.
    CHECK(seq ==
          std::vector<std::string>{"Overhead", "Sweep", "Jab", "Overhead", "Sweep", "Overhead"});
    PacingMemory again;
    CHECK(fight(d, 6, 1.0, again, nullptr) == seq);  // same history → same choices
  }
  SECTION("Should come back to the cheapest attack once the penalty has decayed") {
    PacingMemory agent;
    CHECK(fight(d, 4, 30.0, agent, nullptr) ==
          std::vector<std::string>{"Overhead", "Overhead", "Overhead", "Overhead"});
  }
  SECTION("Should price the decay exactly: penalty · 2^(−age / half-life)") {
    PacingMemory agent;
    agent.record(lib.findPacingTag("overhead"), 10.0);
    const ActionDef& overhead = d.action(d.findAction("Overhead"));
    CHECK(pacingCost(overhead.pacing, &agent, nullptr, 10.0) == Approx(4));
    CHECK(pacingCost(overhead.pacing, &agent, nullptr, 14.0) == Approx(2));
    CHECK(pacingCost(overhead.pacing, &agent, nullptr, 18.0) == Approx(1));
    GoapPlanner planner;
    PlanRequest r = request(d, {"hit"});
    r.pacing = &agent;
    r.now_s = 14.0;
    const PlanResult& res = planner.plan(r);
    CHECK(names(d, res).front() == "Sweep");  // 2 + 2 > 2.5
    CHECK(res.steps[0].cost == Approx(2.5));
  }
  SECTION("Should make a squad vary through the group memory") {
    PacingMemory squad, alice, bob;
    const auto a = fight(d, 1, 1.0, alice, &squad);
    const auto b = fight(d, 1, 1.0, bob, &squad);  // Bob pays the group penalty for Overhead
    CHECK(a == std::vector<std::string>{"Overhead"});
    CHECK(b == std::vector<std::string>{"Sweep"});
  }
  SECTION("Should end every plan with the pacing action") {
    GoapPlanner planner;
    const PlanResult& res = planner.plan(request(d, {"hit"}));
    REQUIRE(res.step_count == 2);
    CHECK(names(d, res).back() == "Flourish");
    CHECK(res.cost == Approx(2.5));
  }
}

TEST_CASE("Pacing memory is a small deterministic LRU", "[goap][pacing]") {
  PacingMemory m;
  for (int i = 0; i < PacingMemory::kSlots; ++i) m.record(PacingTagId(i), i);
  m.record(PacingTagId(3), 100.0);  // refresh, no new slot
  CHECK(m.size() == PacingMemory::kSlots);
  m.record(PacingTagId(50), 101.0);  // evicts the oldest (tag 0)
  double t = 0;
  CHECK_FALSE(m.lastUsed(PacingTagId(0), t));
  REQUIRE(m.lastUsed(PacingTagId(3), t));
  CHECK(t == 100.0);
  REQUIRE(m.lastUsed(PacingTagId(50), t));
  CHECK(t == 101.0);
}
