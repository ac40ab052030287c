// Blackboards (core/goap/blackboard.h): typed keys from one schema, per-agent and group
// storage, and two planners on one agent coordinating through it.
#include <catch2/catch.hpp>

#include "goap/plan_runner.h"
#include "goap_test_support.h"

using namespace npc;
using namespace npc::goap;
using namespace npc::goap::test;

TEST_CASE("Blackboard keys are typed once and read the same way everywhere",
          "[goap][blackboard]") {
  BlackboardSchema schema;
  const BlackboardKeyId k = schema.declare("threat", BlackboardType::kFloat);
  REQUIRE(k != BlackboardKeyId::kNone);
  CHECK(schema.declare("threat", BlackboardType::kFloat) == k);
  CHECK(schema.declare("threat", BlackboardType::kBool) == BlackboardKeyId::kNone);
  CHECK_FALSE(schema.key<bool>("threat").valid());
  CHECK_FALSE(schema.key<float>("unknown").valid());
  const auto threat = schema.key<float>("threat");
  const auto target = schema.key<EntityId>(schema.name(schema.declare("target", BlackboardType::kEntity)));
  const auto spot = schema.key<Vec3>(schema.name(schema.declare("spot", BlackboardType::kVec3)));

  Blackboard bb;
  CHECK_FALSE(bb.get(threat).has_value());
  CHECK(bb.getOr(threat, 0.25f) == 0.25f);
  const uint32_t v0 = bb.version();
  bb.set(threat, 0.75f);
  bb.set(target, EntityId{42});
  bb.set(spot, Vec3{1, 2, 3});
  CHECK(bb.version() == v0 + 3);
  bb.set(threat, 0.75f);  // same value: no change
  CHECK(bb.version() == v0 + 3);
  CHECK(bb.get(threat) == 0.75f);
  CHECK(bb.get(target) == EntityId{42});
  CHECK(bb.get(spot) == Vec3{1, 2, 3});
  CHECK(bb.number(threat.id) == 0.75f);
  CHECK_FALSE(bb.number(target.id).has_value());
  bb.erase(threat.id);
  CHECK_FALSE(bb.has(threat.id));
  bb.clear();
  CHECK_FALSE(bb.has(target.id));
  static_assert(sizeof(Blackboard) <= 512, "per-agent blackboard stays small");
  static_assert(std::is_trivially_copyable_v<Blackboard>);
}

namespace {
const char* kMovement = R"({
  "domain": "movement",
  "targets": ["cover"],
  "blackboard": { "in_position": "bool", "suppressed": "bool" },
  "facts": [ { "name": "in_cover", "type": "bool" } ],
  "actions": [ { "name": "TakeCover", "effects": [{ "move_to": "cover" }, { "fact": "in_cover", "set": true }],
                 "cost": { "base": 1, "travel_per_m": 0.2 }, "on_success": [{ "blackboard": "in_position", "set": true }] } ],
  "goals": [ { "name": "cover", "desired": [{ "fact": "in_cover", "value": true }] } ]
})";
const char* kAttack = R"({
  "domain": "attack",
  "blackboard": { "in_position": "bool", "suppressed": "bool" },
  "facts": [ { "name": "target_down", "type": "bool" } ],
  "actions": [
    { "name": "AimedShot", "pre": [{ "blackboard": "in_position", "value": true },
                                   { "blackboard": "suppressed", "scope": "group", "value": false }],
      "effects": [{ "fact": "target_down", "set": true }], "cost": 2 },
    { "name": "Wait", "cost": 1 } ],
  "goals": [ { "name": "shoot", "desired": [{ "fact": "target_down", "value": true }],
               "relevant": [{ "blackboard": "in_position", "value": true }] } ],
  "buckets": [ { "name": "Attack", "actions": ["AimedShot"], "goals": ["shoot"], "fallback": "Wait" } ]
})";
}  // namespace

TEST_CASE("Two planners on one agent coordinate through its blackboard", "[goap][blackboard]") {
  GoapLibrary lib;
  const GoapDomain& movement = loadDomain(lib, kMovement, "movement.json");
  const GoapDomain& attack = loadDomain(lib, kAttack, "attack.json");
  Blackboard agent, squad;
  squad.set(lib.blackboard().key<bool>("suppressed"), false);
  GoapPlanner planner;
  PlanRunner move_runner, attack_runner;
  std::array<TargetPosition, 1> cover{};
  cover[0] = {true, {5, 0, 0}, EntityId{3}};

  // The attack planner has nothing to do until the movement planner says it is in position.
  CHECK(attack_runner.update(attack, BucketId{0}, attack.initialState(), &agent, &squad, 0) ==
        RunnerCommand::kRunFallback);
  PlanRequest ar = request(attack, {"shoot"});
  ar.blackboard = &agent;
  ar.group_blackboard = &squad;
  const PlanResult& blocked = planner.plan(ar);
  CHECK(blocked.status == PlanStatus::kNoPlan);
  CHECK(explain(blocked, attack).find("AimedShot (pruned: context_condition \"blackboard.in_position = 1\")") !=
        std::string::npos);

  // Movement: plan and execute TakeCover; its on_success writes in_position.
  REQUIRE(move_runner.update(movement, BucketId{0}, movement.initialState(), &agent, nullptr, 0) ==
          RunnerCommand::kRequestPlan);
  PlanRequest mr = request(movement, {"cover"});
  mr.targets = cover;
  move_runner.onPlanReady(planner.plan(mr), 0);
  REQUIRE(move_runner.update(movement, BucketId{0}, movement.initialState(), &agent, nullptr, 0) ==
          RunnerCommand::kStartStep);
  move_runner.onStepSucceeded(1.0, &agent, nullptr, nullptr);
  CHECK(agent.get(lib.blackboard().key<bool>("in_position")) == true);

  // Now the attack goal is relevant and AimedShot passes its context conditions.
  attack_runner.onStepSucceeded(1.0, &agent, nullptr, nullptr);  // the fallback wait ended
  CHECK(attack_runner.update(attack, BucketId{0}, attack.initialState(), &agent, &squad, 1.0) ==
        RunnerCommand::kRequestPlan);
  const PlanResult& go = planner.plan(ar);
  REQUIRE(go.status == PlanStatus::kFound);
  CHECK(names(attack, go) == std::vector<std::string>{"AimedShot"});
  // The squad's blackboard can veto it.
  squad.set(lib.blackboard().key<bool>("suppressed"), true);
  CHECK(planner.plan(ar).status == PlanStatus::kNoPlan);
}
