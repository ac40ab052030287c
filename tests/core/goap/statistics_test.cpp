// Statistics (core/goap/statistics.h): counts per action and condition, never-used
// actions, re-ordering cheapest-most-failing first (results identical), persistence.
#include <cstdio>
#include <filesystem>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "base/rng.h"
#include "goap/statistics.h"
#include "goap_test_support.h"

using namespace npc;
using namespace npc::goap;
using namespace npc::goap::test;

namespace {

// Random start states of B1: every bool flipped with probability ½, `at` anywhere.
std::vector<GoapState> randomStarts(const GoapDomain& d, int n, uint64_t seed) {
  Rng rng(seed);
  std::vector<GoapState> out;
  for (int i = 0; i < n; ++i) {
    GoapState s = d.initialState();
    for (size_t f = 0; f < d.facts().size(); ++f) {
      const FactDef& fd = d.facts()[f];
      const int32_t range = fd.max - fd.min + 1;
      d.set(s, static_cast<FactId>(f), fd.min + static_cast<int32_t>(rng.next() % uint64_t(range)));
    }
    out.push_back(s);
  }
  return out;
}

void collect(const GoapDomain& d, PlannerStatistics& stats, const std::vector<GoapState>& starts) {
  GoapPlanner planner;
  planner.setStatistics(&stats);
  for (const GoapState& s : starts)
    for (const GoalDef& g : d.goals()) {
      PlanRequest r;
      r.domain = &d;
      r.start = s;
      r.addGoal(d.findGoal(g.name));
      planner.plan(r);
    }
}

}  // namespace

TEST_CASE("Statistics count evaluations, successes and failures", "[goap][statistics]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDataDomain(lib, "b1_fight.json");
  PlannerStatistics stats(d);
  collect(d, stats, {d.initialState()});

  SECTION("Should count checks per action and evaluations per condition") {
    const ActionId shoot = d.findAction("shoot_pistol");
    const ActionStats& a = stats.action(shoot);
    CHECK(a.checks > 0);
    CHECK(a.applicable <= a.checks);
    CHECK(a.planned == 2);  // in the "kill" and "kill_healthy" plans
    uint64_t evaluations = 0;
    for (const Condition& c : d.action(shoot).conditions) {
      const ConditionStats& cs = stats.condition(shoot, c.declared);
      CHECK(cs.failures <= cs.evaluations);
      evaluations += cs.evaluations;
    }
    CHECK(evaluations >= a.checks);  // every check evaluates at least one condition
  }
  SECTION("Should list the actions no plan ever used") {
    const std::vector<ActionId> never = stats.neverUsed();
    auto has = [&](const char* name) {
      return std::find(never.begin(), never.end(), d.findAction(name)) != never.end();
    };
    CHECK(has("goto_M3"));
    CHECK(has("shoot_rifle_braced"));
    CHECK_FALSE(has("shoot_pistol"));
    CHECK_FALSE(has("heal_at_M1"));
  }
}

TEST_CASE("Re-ordering conditions cheapest-most-failing first keeps every result",
          "[goap][statistics]") {
  GoapLibrary original_lib;
  const GoapDomain& original = loadDataDomain(original_lib, "b1_fight.json");
  PlannerStatistics stats(original);
  collect(original, stats, randomStarts(original, 30, 7));

  // Persist, load into a second library's copy of the domain, and re-order it there.
  const std::string path =
      (std::filesystem::temp_directory_path() / "npcd_goap_stats_test.json").string();
  REQUIRE(stats.save(path).isOk());
  GoapLibrary reordered_lib;
  loadDataDomain(reordered_lib, "b1_fight.json");
  GoapDomain& reordered = *reordered_lib.findMutable("b1_fight");
  PlannerStatistics loaded(reordered);
  REQUIRE(loaded.load(path).isOk());
  std::remove(path.c_str());
  CHECK(loaded.action(reordered.findAction("shoot_pistol")).checks ==
        stats.action(original.findAction("shoot_pistol")).checks);
  loaded.applyTo(reordered);

  SECTION("Should actually change some evaluation orders") {
    int changed = 0;
    for (size_t a = 0; a < reordered.actions().size(); ++a) {
      const auto& conds = reordered.actions()[a].conditions;
      for (size_t i = 0; i < conds.size(); ++i) changed += conds[i].declared != i;
    }
    CHECK(changed > 0);
  }
  SECTION("Should return identical plans with and without re-ordering") {
    GoapPlanner a, b;
    PlannerStatistics sa(original), sb(reordered);  // the per-condition path too
    for (int pass = 0; pass < 2; ++pass) {
      if (pass == 1) {
        a.setStatistics(&sa);
        b.setStatistics(&sb);
      }
      for (const GoapState& s : randomStarts(original, 40, 99)) {
        for (const GoalDef& g : original.goals()) {
          PlanRequest ra, rb;
          ra.domain = &original;
          rb.domain = &reordered;
          ra.start = rb.start = s;
          ra.addGoal(original.findGoal(g.name));
          rb.addGoal(reordered.findGoal(g.name));
          const PlanResult pa = a.plan(ra);
          const PlanResult& pb = b.plan(rb);
          INFO(g.name << " pass " << pass);
          REQUIRE(pa.status == pb.status);
          CHECK(names(original, pa) == names(reordered, pb));
          CHECK(pa.cost == pb.cost);
          CHECK(pa.expansions == pb.expansions);
        }
      }
    }
    // Same decisions, fewer condition evaluations to reach them.
    uint64_t ea = 0, eb = 0;
    for (size_t i = 0; i < original.actions().size(); ++i) {
      for (const Condition& c : original.actions()[i].conditions)
        ea += sa.condition(static_cast<ActionId>(i), c.declared).evaluations;
      for (const Condition& c : reordered.actions()[i].conditions)
        eb += sb.condition(static_cast<ActionId>(i), c.declared).evaluations;
      CHECK(sa.action(static_cast<ActionId>(i)).applicable ==
            sb.action(static_cast<ActionId>(i)).applicable);
    }
    CHECK(eb < ea);
  }
}

TEST_CASE("Statistics files survive domain edits", "[goap][statistics]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDataDomain(lib, "b0_gpgoap.json");
  PlannerStatistics stats(d);
  nlohmann::json j = {
      {"domain", "b0_gpgoap"},
      {"actions",
       {{"aim", {{"checks", 10}, {"applicable", 4}, {"planned", 2},
                 {"conditions", {{{"condition", "weaponloaded = true"}, {"evaluations", 10}, {"failures", 6}},
                                 {{"condition", "no longer exists"}, {"evaluations", 3}, {"failures", 3}}}}}},
        {"removed_action", {{"checks", 5}}}}}};
  REQUIRE(stats.fromJson(j).isOk());
  const ActionId aim = d.findAction("aim");
  CHECK(stats.action(aim).checks == 10);
  uint16_t loaded_index = 0xffff;
  for (const Condition& c : d.action(aim).conditions)
    if (c.text == "weaponloaded = true") loaded_index = c.declared;
  REQUIRE(loaded_index != 0xffff);
  CHECK(stats.condition(aim, loaded_index).failures == 6);
  // weaponloaded fails 60 % of the time, enemyvisible never evaluated (rate ½): it goes first.
  const std::vector<uint16_t> order = stats.conditionOrder(aim);
  CHECK(d.action(aim).conditions[order[0]].text == "weaponloaded = true");
  CHECK_FALSE(stats.fromJson({{"domain", "other"}, {"actions", nlohmann::json::object()}}).isOk());
  const nlohmann::json out = stats.toJson();
  CHECK(out["actions"]["aim"]["planned"] == 2);
  CHECK(out["never_used"].size() == 6);
}
