// Smart objects (core/goap/smart_objects.h): gathering from the World's spatial index,
// per-action pruning (distance, reachability, 3 candidates), and plans that pick the object
// making the whole plan cheapest rather than the nearest one.
#include <algorithm>
#include <cmath>

#include <catch2/catch.hpp>

#include "goap/smart_objects.h"
#include "goap/trace.h"
#include "goap_test_support.h"
#include "world/world.h"

using namespace npc;
using namespace npc::goap;
using namespace npc::goap::test;

namespace {

const char* kThrower = R"({
  "domain": "thrower",
  "targets": ["enemy"],
  "facts": [ { "name": "holding", "type": "bool" }, { "name": "enemy_hit", "type": "bool" } ],
  "actions": [
    { "name": "PickUpBoulder", "object": { "max_distance_m": 40 },
      "pre": [{ "fact": "holding", "value": false }],
      "effects": [{ "move_to": "$object" }, { "fact": "holding", "set": true }],
      "cost": { "base": 1, "travel_per_m": 1 } },
    { "name": "Throw", "pre": [{ "fact": "holding", "value": true }],
      "effects": [{ "move_near": "enemy", "range": 10 }, { "fact": "holding", "set": false },
                  { "fact": "enemy_hit", "set": true }],
      "cost": { "base": 1, "travel_per_m": 1 } }
  ],
  "smart_objects": [ { "species": "boulder", "actions": ["PickUpBoulder"] } ],
  "goals": [ { "name": "hit", "desired": [{ "fact": "enemy_hit", "value": true }] } ]
})";

EntityHandle addEntity(World& w, uint64_t id, EntityKind kind, const char* species, Vec3 p,
                       bool active = true) {
  const EntityHandle h = w.entities().insert(EntityId{id});
  Entity* e = w.entities().get(h);
  e->kind = kind;
  e->species = w.species().intern(species);
  e->position = p;
  e->active = active;
  w.markMoved();
  return h;
}

struct Scene {
  World world;
  std::vector<SmartObjectCandidate> objects;
  std::array<TargetPosition, 1> targets{};
  explicit Scene(const GoapDomain& d) {
    addEntity(world, 1, EntityKind::kObject, "boulder", {-5, 0, 0});   // A: nearest, behind
    addEntity(world, 2, EntityKind::kObject, "boulder", {8, 3, 0});    // B: on the way
    addEntity(world, 3, EntityKind::kObject, "boulder", {0, 12, 0});   // C
    addEntity(world, 4, EntityKind::kObject, "boulder", {3, -14, 0});  // D: 4th nearest
    addEntity(world, 5, EntityKind::kObject, "boulder", {-30, 0, 0});  // E: 5th
    addEntity(world, 6, EntityKind::kObject, "boulder", {45, 45, 0});  // F: beyond 40 m
    addEntity(world, 7, EntityKind::kNpc, "boulder", {1, 1, 0});       // not an object
    addEntity(world, 8, EntityKind::kObject, "rock", {1, 0, 0});       // not registered
    addEntity(world, 9, EntityKind::kObject, "boulder", {2, 0, 0}, false);  // inactive
    world.refreshSpatialIndex();
    SmartObjectSpecies species(d);
    species.sync(world.species());
    std::array<SmartObjectCandidate, 16> buffer;
    const uint32_t n = gatherSmartObjects(world, species, {0, 0, 0}, 80.f, buffer);
    objects.assign(buffer.begin(), buffer.begin() + n);
    targets[0] = {true, {40, 0, 0}, EntityId{99}};
  }
  PlanRequest request(const GoapDomain& d) const {
    PlanRequest r = test::request(d, {"hit"});
    r.self_position = {0, 0, 0};
    r.objects = objects;
    r.targets = targets;
    return r;
  }
};

}  // namespace

TEST_CASE("Smart objects are gathered from the world's spatial index", "[goap][smart_objects]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDomain(lib, kThrower);
  Scene scene(d);

  SECTION("Should keep active objects of registered species, nearest first") {
    std::vector<uint64_t> ids;
    for (const auto& o : scene.objects) ids.push_back(raw(o.entity));
    CHECK(ids == std::vector<uint64_t>{1, 2, 3, 4, 5, 6});
    CHECK(scene.objects[0].type == d.findSmartObjectType("boulder"));
  }
  SECTION("Should keep the nearest and report truncation when the buffer is short") {
    SmartObjectSpecies species(d);
    species.sync(scene.world.species());
    std::array<SmartObjectCandidate, 2> two;
    bool truncated = false;
    const uint32_t n = gatherSmartObjects(scene.world, species, {0, 0, 0}, 80.f, two, &truncated);
    CHECK(n == 2);
    CHECK(truncated);
    CHECK(two[0].entity == EntityId{1});
    CHECK(two[1].entity == EntityId{2});
  }
  SECTION("Should only see what is within the radius") {
    SmartObjectSpecies species(d);
    species.sync(scene.world.species());
    std::array<SmartObjectCandidate, 8> buf;
    CHECK(gatherSmartObjects(scene.world, species, {0, 0, 0}, 9.f, buf) == 2);
  }
}

TEST_CASE("The plan picks the object that makes the whole plan cheapest",
          "[goap][smart_objects]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDomain(lib, kThrower);
  Scene scene(d);
  GoapPlanner planner;
  PlanTrace trace;
  PlanRequest r = scene.request(d);
  r.trace = &trace;
  const PlanResult res = planner.plan(r);  // a copy: sections plan again
  REQUIRE(res.status == PlanStatus::kFound);
  REQUIRE(names(d, res) == std::vector<std::string>{"PickUpBoulder", "Throw"});

  SECTION("Should take boulder B on the way, not the nearest boulder A behind the agent") {
    CHECK(res.steps[0].object == EntityId{2});
    CHECK(res.steps[0].object_position == Vec3{8, 3, 0});
    const float via_b = 1 + length(Vec3{8, 3, 0}) + 1 + (length(Vec3{32, -3, 0}) - 10);
    CHECK(res.cost == Approx(via_b).margin(0.002));
  }
  SECTION("Should consider 3 candidates per action and say why the others were left out") {
    CHECK(trace.instances.size() == 4);  // 3 boulders + Throw
    std::vector<std::pair<uint64_t, RejectReason>> pruned;
    for (const auto& rej : trace.rejections)
      if (rej.node == kTraceNoNode && rej.object != EntityId::kNone)
        pruned.push_back({raw(rej.object), rej.reason});
    CHECK(pruned == std::vector<std::pair<uint64_t, RejectReason>>{
                        {6, RejectReason::kObjectTooFar},
                        {4, RejectReason::kObjectOverCap},
                        {5, RejectReason::kObjectOverCap}});
  }
  SECTION("Should do worse when only the nearest object is considered (AC Odyssey's rule)") {
    GoapLibrary l2;
    std::string one(kThrower);
    one.replace(one.find("\"max_distance_m\": 40"), 20, "\"max_distance_m\": 40, \"max_candidates\": 1");
    const GoapDomain& d1 = loadDomain(l2, one);
    PlanRequest r1 = scene.request(d1);
    const PlanResult& nearest = planner.plan(r1);
    REQUIRE(nearest.status == PlanStatus::kFound);
    CHECK(nearest.steps[0].object == EntityId{1});
    CHECK(nearest.cost > res.cost + 5);
  }
  SECTION("Should leave out objects the reachability test refuses") {
    struct NotB : Reachability {
      bool reachable(Vec3, Vec3 to) const override { return !(to == Vec3{8, 3, 0}); }
    } not_b;
    PlanRequest rr = scene.request(d);
    rr.reachability = &not_b;
    PlanTrace t2;
    rr.trace = &t2;
    const PlanResult& alt = planner.plan(rr);
    REQUIRE(alt.status == PlanStatus::kFound);
    CHECK(alt.steps[0].object == EntityId{1});  // A now beats C and D
    CHECK(t2.count(RejectReason::kObjectUnreachable) == 1);
  }
  SECTION("Should price travel by the reachability's walking distance") {
    // A wall between the agent and B: 30 m on foot instead of 8.5 m.
    struct WallBeforeB : Reachability {
      bool reachable(Vec3, Vec3) const override { return true; }
      float travelDistance(Vec3 from, Vec3 to) const override {
        const float straight = length(to - from);
        return from == Vec3{0, 0, 0} && to == Vec3{8, 3, 0} ? 30.f : straight;
      }
    } wall;
    PlanRequest rw = scene.request(d);
    rw.reachability = &wall;
    const PlanResult& around = planner.plan(rw);
    REQUIRE(around.status == PlanStatus::kFound);
    CHECK(around.steps[0].object != EntityId{2});
    CHECK(around.cost > res.cost);
  }
  SECTION("Should not take a step whose walk the reachability calls endless") {
    struct NoWalkToB : Reachability {
      bool reachable(Vec3, Vec3) const override { return true; }
      float travelDistance(Vec3 from, Vec3 to) const override {
        return to == Vec3{8, 3, 0} ? kInfiniteCost : length(to - from);
      }
    } no_walk;
    PlanRequest rn = scene.request(d);
    rn.reachability = &no_walk;
    PlanTrace t3;
    rn.trace = &t3;
    const PlanResult& alt = planner.plan(rn);
    REQUIRE(alt.status == PlanStatus::kFound);
    CHECK(alt.steps[0].object == EntityId{1});
    CHECK(std::isfinite(alt.cost));
    CHECK(t3.count(RejectReason::kObjectUnreachable) >= 1);
  }
}

TEST_CASE("Object actions without candidates are pruned before the search",
          "[goap][smart_objects]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDomain(lib, kThrower);
  GoapPlanner planner;
  PlanTrace trace;
  std::array<TargetPosition, 1> targets{};
  targets[0] = {true, {40, 0, 0}, EntityId{99}};
  PlanRequest r = request(d, {"hit"});
  r.targets = targets;
  r.trace = &trace;
  const PlanResult& res = planner.plan(r);
  CHECK(res.status == PlanStatus::kNoPlan);
  CHECK(trace.count(RejectReason::kNoCandidate) == 1);
  CHECK(explain(res, d).find("PickUpBoulder") == std::string::npos);  // not an achiever of the goal
  CHECK(explain(res, d).find("Throw (never \"holding = true\")") != std::string::npos);
}

// Melee or ranged by whether the enemy can be reached: the melee walks up to the enemy,
// and a walk the navmesh cannot make is never a step, so no fact is needed for it.
TEST_CASE("A planner fights from range when no walk reaches the enemy", "[goap][smart_objects]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDomain(lib, R"({
    "domain": "fighter",
    "targets": ["enemy"],
    "facts": [ { "name": "enemy_hit", "type": "bool" } ],
    "actions": [
      { "name": "Melee", "effects": [{ "move_near": "enemy", "range": 1.5 },
                                     { "fact": "enemy_hit", "set": true }],
        "cost": { "base": 1, "travel_per_m": 1 } },
      { "name": "Shoot", "effects": [{ "fact": "enemy_hit", "set": true }], "cost": 20 }
    ],
    "goals": [ { "name": "hit", "desired": [{ "fact": "enemy_hit", "value": true }] } ]
  })");
  GoapPlanner planner;
  std::array<TargetPosition, 1> enemy{};
  enemy[0] = {true, {10, 0, 0}, EntityId{7}};
  PlanRequest r = test::request(d, {"hit"});
  r.self_position = {0, 0, 0};
  r.targets = enemy;
  SECTION("Should walk up and strike when the enemy stands on open ground") {
    const PlanResult& res = planner.plan(r);
    REQUIRE(res.status == PlanStatus::kFound);
    CHECK(test::names(d, res) == std::vector<std::string>{"Melee"});
  }
  SECTION("Should shoot when the enemy is on a roof no path climbs") {
    struct Roof : Reachability {
      bool reachable(Vec3, Vec3) const override { return true; }
      float travelDistance(Vec3 from, Vec3 to) const override {
        return to == from ? 0.f : kInfiniteCost;
      }
    } roof;
    r.reachability = &roof;
    const PlanResult& res = planner.plan(r);
    REQUIRE(res.status == PlanStatus::kFound);
    CHECK(test::names(d, res) == std::vector<std::string>{"Shoot"});
  }
  SECTION("Should shoot when the only way up is a long walk round") {
    struct LongWay : Reachability {
      bool reachable(Vec3, Vec3) const override { return true; }
      float travelDistance(Vec3 from, Vec3 to) const override { return 4.f * length(to - from); }
    } long_way;
    r.reachability = &long_way;
    const PlanResult& res = planner.plan(r);
    REQUIRE(res.status == PlanStatus::kFound);
    CHECK(test::names(d, res) == std::vector<std::string>{"Shoot"});
  }
}
