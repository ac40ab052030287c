// The demo domains of config/goap (item 11): the seed's pyromaniac guard, who burns nearby
// objects choosing by distance, and an attacker sequencing movement with one of several
// attacks of different reach.
#include <catch2/catch.hpp>

#include "goap/goal_selector.h"
#include "goap/plan_runner.h"
#include "goap/smart_objects.h"
#include "goap_test_support.h"
#include "world/world.h"

using namespace npc;
using namespace npc::goap;
using namespace npc::goap::test;

namespace {

struct Demo {
  GoapLibrary lib;
  Demo() {
    const GoapLoadReport r = lib.loadDirectory(std::string(NPCD_SOURCE_DIR) + "/config/goap");
    INFO(r.text());
    REQUIRE(r.ok());
  }
  const GoapDomain& domain(const char* name) { return *lib.find(name); }
};

void addObject(World& w, uint64_t id, const char* species, Vec3 p) {
  Entity* e = w.entities().get(w.entities().insert(EntityId{id}));
  e->kind = EntityKind::kObject;
  e->species = w.species().intern(species);
  e->position = p;
  w.markMoved();
}

std::vector<std::string> describe(const GoapDomain& d, const PlanResult& r) {
  std::vector<std::string> out;
  for (int i = 0; i < r.step_count; ++i) {
    std::string s = d.action(r.steps[i].action).name;
    if (r.steps[i].object != EntityId::kNone) s += "@" + std::to_string(raw(r.steps[i].object));
    out.push_back(s);
  }
  return out;
}

}  // namespace

TEST_CASE("The pyromaniac guard burns what the whole route makes cheapest", "[goap][demo]") {
  Demo demo;
  const GoapDomain& d = demo.domain("guard");
  World world;
  addObject(world, 1, "torch", {-4, 0, 0});     // nearest torch, but the wrong way
  addObject(world, 2, "torch", {6, 2, 0});
  addObject(world, 3, "brazier", {10, 0, 0});
  addObject(world, 4, "haystack", {14, 0, 0});
  addObject(world, 5, "cart", {-20, 5, 0});
  addObject(world, 6, "oil_lamp", {0, -25, 0});
  addObject(world, 7, "barrel", {1, 1, 0});     // not a smart object of this domain
  world.refreshSpatialIndex();
  SmartObjectSpecies species(d);
  species.sync(world.species());
  std::array<SmartObjectCandidate, 32> buffer;
  const uint32_t n = gatherSmartObjects(world, species, {0, 0, 0}, d.search().object_radius_m, buffer);
  REQUIRE(n == 6);
  std::array<TargetPosition, 1> post{};
  post[0] = {true, {0, 0, 0}, EntityId::kNone};
  Blackboard bb;
  GoapPlanner planner;

  SECTION("Should only think of fire when bored, and patrol otherwise") {
    PlanRunner runner;
    CHECK(runner.update(d, d.findBucket("GuardIdle"), d.initialState(), &bb, nullptr, 0) ==
          RunnerCommand::kRunFallback);
    CHECK(d.action(runner.fallback()).name == "Patrol");
    bb.set(demo.lib.blackboard().key<bool>("bored"), true);
    runner.onStepSucceeded(1, &bb, nullptr, nullptr);
    CHECK(runner.update(d, d.findBucket("GuardIdle"), d.initialState(), &bb, nullptr, 1) ==
          RunnerCommand::kRequestPlan);
    CHECK(runner.goal() == d.findGoal("StartFire"));
  }
  SECTION("Should fetch the torch on the way to the brazier, then burn the haystack") {
    PlanRequest r = request(d, {"StartFire"});
    r.bucket = d.findBucket("GuardIdle");
    r.objects = {buffer.data(), n};
    r.targets = post;
    const PlanResult& res = planner.plan(r);
    REQUIRE(res.status == PlanStatus::kFound);
    CHECK(describe(d, res) ==
          std::vector<std::string>{"PickUpTorch@2", "LightTorchAt@3", "BurnWith@4", "Gloat"});
    const float route = 1 + 0.25f * length(Vec3{6, 2, 0}) + 1 + 0.25f * length(Vec3{4, -2, 0}) +
                        2 + 0.25f * 2.5f + 0.5f;
    CHECK(res.cost == Approx(route).epsilon(1e-3));
    CHECK(res.steps[2].destination.x == Approx(12.5f).margin(0.01));  // 1.5 m from the haystack
    CHECK(d.action(res.steps[2].action).params[0].text == "burn");
  }
  SECTION("Should switch to the lamp after a recent torch fire (pacing)") {
    GoapState s = d.initialState();
    for (auto [f, v] : {std::pair{"has_torch", "true"}, {"torch_lit", "true"}, {"fires_started", "1"}})
      REQUIRE(d.set(s, f, v));
    std::vector<SmartObjectCandidate> objects = {
        {EntityId{10}, d.findSmartObjectType("haystack"), {30, 0, 0}},
        {EntityId{11}, d.findSmartObjectType("oil_lamp"), {2, 0, 0}}};
    PlanRequest r = request(d, {"StartFire"}, &s);
    r.objects = objects;
    r.targets = post;
    PacingMemory memory;
    r.pacing = &memory;
    r.now_s = 10;
    CHECK(describe(d, planner.plan(r)) == std::vector<std::string>{"BurnWith@10", "Gloat"});
    memory.record(demo.lib.findPacingTag("torch_fire"), 0.0);
    CHECK(describe(d, planner.plan(r)) ==
          std::vector<std::string>{"PickUpLamp@11", "ThrowLamp@10", "Gloat"});
    r.now_s = 200;  // long forgotten
    CHECK(describe(d, planner.plan(r)) == std::vector<std::string>{"BurnWith@10", "Gloat"});
  }
  SECTION("Should stop at three fires (bounded counter)") {
    GoapState s = d.initialState();
    REQUIRE(d.set(s, "fires_started", "3"));
    PlanRequest r = request(d, {"StartFire"}, &s);
    r.objects = {buffer.data(), n};
    r.targets = post;
    const PlanResult& res = planner.plan(r);
    CHECK(res.status == PlanStatus::kNoPlan);
    CHECK(res.fallback == d.findAction("Patrol"));
  }
}

TEST_CASE("The attacker sequences a movement with the attack that fits the distance",
          "[goap][demo]") {
  Demo demo;
  const GoapDomain& d = demo.domain("attacker");
  GoapPlanner planner;
  Blackboard bb;
  PacingMemory pacing;
  std::array<TargetPosition, 1> enemy{};
  auto plan = [&](float distance, double now = 10.0, const GoapState* start = nullptr) {
    enemy[0] = {true, {distance, 0, 0}, EntityId{66}};
    PlanRequest r = request(d, {"HitEnemy"}, start);
    r.bucket = d.findBucket("Fight");
    r.targets = enemy;
    r.blackboard = &bb;
    r.pacing = &pacing;
    r.now_s = now;
    return planner.plan(r);
  };

  SECTION("Should shoot from 20 m rather than run 27 m into sword reach") {
    const PlanResult r = plan(30);
    REQUIRE(r.status == PlanStatus::kFound);
    CHECK(d.action(r.steps[r.step_count - 1].action).name == "Shoot");
    CHECK(r.cost == Approx(1 + 1 + (0.5f + 0.3f * 10) + 2).epsilon(1e-3));
    std::vector<std::string> n = names(d, r);
    std::sort(n.begin(), n.end());
    CHECK(n == std::vector<std::string>{"DrawBow", "MoveInRange_Shoot", "Shoot", "SwitchTo_bow"});
  }
  SECTION("Should step into sword reach when the enemy is close") {
    const PlanResult r = plan(6);
    CHECK(names(d, r) == std::vector<std::string>{"MoveInRange_Swing", "Swing"});
    CHECK(r.cost == Approx(0.5f + 0.3f * 3.5f + 1.5f).epsilon(1e-3));
    CHECK(r.steps[0].destination.x == Approx(3.5f).margin(0.01));
  }
  SECTION("Should vary: a recent swing makes the spear the better choice") {
    pacing.record(demo.lib.findPacingTag("swing"), 9.0);
    CHECK(names(d, plan(6)) == std::vector<std::string>{"SwitchTo_spear", "MoveInRange_Thrust", "Thrust"});
    CHECK(names(d, plan(6, 40.0)) == std::vector<std::string>{"MoveInRange_Swing", "Swing"});
  }
  SECTION("Should charge when the line is clear and stamina allows") {
    bb.set(demo.lib.blackboard().key<bool>("clear_line"), true);
    CHECK(names(d, plan(6)) == std::vector<std::string>{"Charge"});
    GoapState tired = d.initialState();
    REQUIRE(d.set(tired, "stamina", "1"));
    CHECK(names(d, plan(6, 10.0, &tired)) == std::vector<std::string>{"MoveInRange_Swing", "Swing"});
  }
  SECTION("Should catch its breath first only when that is cheaper than another attack") {
    GoapState spent = d.initialState();
    REQUIRE(d.set(spent, "stamina", "0"));
    CHECK(names(d, plan(6, 10.0, &spent)) ==
          std::vector<std::string>{"SwitchTo_spear", "MoveInRange_Thrust", "Thrust"});
  }
}
