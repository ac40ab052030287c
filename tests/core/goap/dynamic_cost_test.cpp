// Dynamic costs: every step's cost is evaluated on the planned state — planned positions
// (MoveTo / MoveNear), fact tables — and equals what a brute-force search over real
// positions finds.
#include <cmath>
#include <functional>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "base/rng.h"
#include "goap_test_support.h"

using namespace npc;
using namespace npc::goap;
using namespace npc::goap::test;

namespace {

const char* kErrand = R"({
  "domain": "errand",
  "targets": ["key", "door"],
  "facts": [ { "name": "has_key", "type": "bool" }, { "name": "open", "type": "bool" } ],
  "actions": [
    { "name": "FetchKey", "pre": [{ "fact": "has_key", "value": false }],
      "effects": [{ "move_to": "key" }, { "fact": "has_key", "set": true }],
      "cost": { "base": 1, "travel_per_m": 1 } },
    { "name": "OpenDoor", "pre": [{ "fact": "has_key", "value": true }],
      "effects": [{ "move_near": "door", "range": 1 }, { "fact": "open", "set": true }],
      "cost": { "base": 2, "travel_per_m": 1 } }
  ],
  "goals": [ { "name": "open", "desired": [{ "fact": "open", "value": true }] } ]
})";

}  // namespace

TEST_CASE("Costs are evaluated against planned positions", "[goap][dynamic_cost]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDomain(lib, kErrand);
  std::array<TargetPosition, 2> targets{};
  targets[0] = {true, {10, 0, 0}, EntityId{7}};
  targets[1] = {true, {10, 10, 0}, EntityId{8}};
  PlanRequest r = request(d, {"open"});
  r.self_position = {0, 0, 0};
  r.targets = targets;
  GoapPlanner planner;
  const PlanResult res = planner.plan(r);  // a copy: sections plan again
  REQUIRE(res.status == PlanStatus::kFound);
  REQUIRE(names(d, res) == std::vector<std::string>{"FetchKey", "OpenDoor"});

  SECTION("Should price the second move from where the first one ends, not from the start") {
    CHECK(res.steps[0].cost == Approx(1 + 10));
    // key → 1 m short of the door (1 mm inside the range)
    CHECK(res.steps[1].cost == Approx(2 + 9).margin(0.002));
    CHECK(res.cost == Approx(22).margin(0.002));
  }
  SECTION("Should hand the planned destinations to the caller") {
    CHECK(res.steps[0].moves);
    CHECK(res.steps[0].destination == Vec3{10, 0, 0});
    CHECK(res.steps[1].destination.x == Approx(10));
    CHECK(res.steps[1].destination.y == Approx(9).margin(0.01));
    CHECK(res.steps[1].target == TargetIndex{1});
  }
  SECTION("Should give the same cost to the same action on the same state") {
    const PlanResult again = planner.plan(r);
    CHECK(again.cost == res.cost);
    CHECK(again.steps[1].cost == res.steps[1].cost);
  }
  SECTION("Should skip the move when already within range") {
    PlanRequest near = r;
    near.self_position = {10, 0, 0};
    targets[1].position = {10, 0.5f, 0};
    const PlanResult& n = planner.plan(near);
    REQUIRE(n.status == PlanStatus::kFound);
    CHECK(n.steps[0].cost == Approx(1));
    CHECK(n.steps[1].cost == Approx(2));
  }
}

// --- brute force over real positions -----------------------------------------------------
namespace {

struct World3 {
  std::vector<SmartObjectCandidate> objects;
  Vec3 self, site;
};

// Depth-first search over every action × object with exact positions; the spec of the
// planner's semantics written independently of it.
float bruteForce(const GoapDomain& d, const World3& w, int depth_limit) {
  float best = kInfiniteCost;
  std::function<void(const GoapState&, Vec3, float, int)> dfs = [&](const GoapState& s, Vec3 pos,
                                                                     float g, int depth) {
    if (g >= best) return;
    bool goal = true;
    for (const Condition& c : d.goal(GoalId{0}).desired) goal = goal && holds(c, s, nullptr);
    if (goal) {
      best = g;
      return;
    }
    if (depth == depth_limit) return;
    for (const ActionDef& a : d.actions()) {
      std::vector<const SmartObjectCandidate*> binds;
      if (a.needs_object) {
        for (const auto& o : w.objects)
          if (std::find(a.advertised_by.begin(), a.advertised_by.end(), o.type) != a.advertised_by.end())
            binds.push_back(&o);
      } else {
        binds.push_back(nullptr);
      }
      for (const SmartObjectCandidate* o : binds) {
        auto refPos = [&](LocationRef ref) { return ref.kind == RefKind::kObject ? o->position : w.site; };
        bool ok = true;
        for (const Condition& c : a.conditions) {
          if (c.kind == ConditionKind::kFact) ok = ok && holds(c, s, nullptr);
          else if (c.kind == ConditionKind::kDistance)
            ok = ok && compare(c.op, length(pos - refPos(c.ref)), c.metres);
          else if (c.kind == ConditionKind::kAt) ok = ok && length(pos - refPos(c.ref)) <= c.metres;
        }
        if (!ok) continue;
        GoapState next = s;
        Vec3 npos = pos;
        for (const Effect& e : a.effects) {
          if (e.kind == EffectKind::kSet) d.set(next, e.fact, e.value);
          else if (e.kind == EffectKind::kAdd) ok = ok && d.set(next, e.fact, d.get(s, e.fact) + e.value);
          else if (e.kind == EffectKind::kMoveTo) npos = refPos(e.ref);
          else {
            const Vec3 ref = refPos(e.ref), delta = pos - ref;
            const float dist = length(delta);
            if (dist > e.range_m) npos = ref + delta * (std::max(e.range_m - 1e-3f, 0.f) / dist);
          }
        }
        if (!ok) continue;
        float c = a.cost.base + a.cost.travel_per_m * length(npos - pos);
        if (a.cost.distance_per_m > 0) c += a.cost.distance_per_m * length(refPos(a.cost.distance_ref) - pos);
        dfs(next, npos, g + c, depth + 1);
      }
    }
  };
  dfs(d.initialState(), w.self, 0.f, 0);
  return best;
}

const char* kBuilder = R"({
  "domain": "builder",
  "search": { "max_candidates": 16 },
  "targets": ["site"],
  "facts": [ { "name": "has_stone", "type": "bool" }, { "name": "water", "type": "int", "min": 0, "max": 2 },
             { "name": "done", "type": "bool" } ],
  "actions": [
    { "name": "PickStone", "object": true, "pre": [{ "fact": "has_stone", "value": false }],
      "effects": [{ "move_to": "$object" }, { "fact": "has_stone", "set": true }],
      "cost": { "base": 1, "travel_per_m": 0.5 } },
    { "name": "Fill", "object": true, "pre": [{ "fact": "water", "op": "<", "value": 2 }],
      "effects": [{ "move_near": "$object", "range": 2 }, { "fact": "water", "add": 1 }],
      "cost": { "base": 1, "travel_per_m": 0.3 } },
    { "name": "GoToSite", "pre": [{ "distance_to": "site", "op": ">", "value": 2.5 }],
      "effects": [{ "move_near": "site", "range": 2.5 }], "cost": { "base": 0.5, "travel_per_m": 0.4 } },
    { "name": "Build", "pre": [{ "fact": "has_stone", "value": true }, { "fact": "water", "op": ">=", "value": 1 },
                               { "distance_to": "site", "op": "<=", "value": 3 }],
      "effects": [{ "fact": "done", "set": true }, { "fact": "has_stone", "set": false }],
      "cost": { "base": 2, "distance_to": "site", "distance_per_m": 0.1 } },
    { "name": "Throw", "object": true, "pre": [{ "fact": "has_stone", "value": true }, { "distance_to": "$object", "op": "<", "value": 6 }],
      "effects": [{ "fact": "has_stone", "set": false }, { "fact": "water", "set": 2 }], "cost": 3 }
  ],
  "smart_objects": [ { "species": "stone", "actions": ["PickStone"] },
                     { "species": "well", "actions": ["Fill", "Throw"] } ],
  "goals": [ { "name": "build", "desired": [{ "fact": "done", "value": true }] } ]
})";

}  // namespace

TEST_CASE("Location plans are optimal against brute force over real positions",
          "[goap][dynamic_cost]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDomain(lib, kBuilder);
  const SmartObjectTypeId stone = d.findSmartObjectType("stone");
  const SmartObjectTypeId well = d.findSmartObjectType("well");
  GoapPlanner planner;
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    Rng rng(seed);
    auto coord = [&] { return rng.range(-25.f, 25.f); };
    World3 w;
    w.self = {coord(), coord(), 0};
    w.site = {coord(), coord(), 0};
    for (int i = 0; i < 4; ++i)
      w.objects.push_back({EntityId{100u + i}, i < 2 ? stone : well, {coord(), coord(), 0}});
    const float expected = bruteForce(d, w, 6);
    std::array<TargetPosition, 1> targets{};
    targets[0] = {true, w.site, EntityId{1}};
    PlanRequest r = request(d, {"build"});
    r.self_position = w.self;
    r.targets = targets;
    r.objects = w.objects;
    const PlanResult& res = planner.plan(r);
    INFO("seed " << seed << ": " << explain(res, d));
    REQUIRE(res.status == PlanStatus::kFound);
    CHECK(res.cost == Approx(expected).epsilon(1e-4));
    CHECK(res.h0 <= res.cost + 1e-3f);
  }
}

TEST_CASE("Fact tables price an action by the planned value of a fact", "[goap][dynamic_cost]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDataDomain(lib, "b2_investigate.json");
  GoapPlanner planner;
  // From the post the hall is 4 away; from the roof also 4, from the yard 7.
  for (auto [from, cost] : {std::pair{"post", 4.f}, {"roof", 4.f}, {"yard", 7.f}}) {
    GoapLibrary l2;
    const GoapDomain& d2 = loadDomain(l2, R"({
      "domain": "t", "facts": [ { "name": "at", "type": "enum", "values": ["post", "hall", "roof", "yard"] } ],
      "actions": [ { "name": "goto_hall", "pre": [{ "fact": "at", "op": "!=", "value": "hall" }],
                     "effects": [{ "fact": "at", "set": "hall" }],
                     "cost": { "by_fact": "at", "table": { "post": 4, "hall": 0, "roof": 4, "yard": 7 } } } ],
      "goals": [ { "name": "hall", "desired": [{ "fact": "at", "value": "hall" }] } ] })");
    GoapState s2 = stateWith(d2, {{"at", from}});
    const PlanResult& r = planner.plan(request(d2, {"hall"}, &s2));
    INFO(from);
    REQUIRE(r.status == PlanStatus::kFound);
    CHECK(r.cost == cost);
  }
  // Inside a plan the table reads the planned `at`: search_cellar walks post → hall → cellar.
  const PlanResult& r = planner.plan(request(d, {"search_cellar"}));
  REQUIRE(r.status == PlanStatus::kFound);
  std::vector<float> goto_costs;
  for (int i = 0; i < r.step_count; ++i)
    if (d.action(r.steps[i].action).name.rfind("goto_", 0) == 0) goto_costs.push_back(r.steps[i].cost);
  CHECK(goto_costs == std::vector<float>{4, 5});  // post→hall 4, hall→cellar 5
}
