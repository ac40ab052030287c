// B0–B2 of ../shared/GOAP-REFERENCE.md reproduced in our JSON format
// (tests/core/goap/data/b*.json): every goal's plan cost equals the verified optimum.
#include <catch2/catch.hpp>

#include "goap_test_support.h"

using namespace npc::goap;
using namespace npc::goap::test;

namespace {
struct Expected {
  const char* file;
  const char* goal;
  float cost;
  int steps;
};
const Expected kOptima[] = {
    {"b0_gpgoap.json", "kill", 4, 4},
    {"b0_gpgoap.json", "kill_and_survive", 4, 4},
    {"b0_gpgoap_readme.json", "kill", 3, 3},
    {"b1_fight.json", "kill", 13, 8},
    {"b1_fight.json", "kill_healthy", 18, -1},  // 9 or 10 steps, both optimal
    {"b1_fight.json", "alarm_and_hold", 14, 6},
    {"b2_investigate.json", "investigate", 9, 4},
    {"b2_investigate.json", "search_cellar", 23, 9},
    {"b2_investigate.json", "secure_cellar", 26, 11},
    {"b2_investigate.json", "stress", 32, -1},        // 15 or 16 steps, both optimal
};
}  // namespace

TEST_CASE("B0-B2 plans reach the verified optimal costs", "[goap][benchmark_domains]") {
  for (const Expected& e : kOptima) {
    GoapLibrary lib;
    const GoapDomain& d = loadDataDomain(lib, e.file);
    GoapPlanner planner;
    const PlanResult& r = planner.plan(request(d, {e.goal}));
    INFO(e.file << " " << e.goal << ": " << explain(r, d) << " expansions " << r.expansions);
    REQUIRE(r.status == PlanStatus::kFound);
    CHECK(r.cost == Approx(e.cost));
    if (e.steps >= 0) CHECK(r.step_count == e.steps);
    CHECK(r.h0 <= r.cost + 1e-4f);  // admissible at the start
    CHECK(firstInvalidStep(d, r, 0, d.initialState()) == -1);
    WARN(e.file << " " << e.goal << ": cost " << r.cost << ", h0 " << r.h0 << ", expansions "
                << r.expansions << ", generated " << r.generated);
  }
}
