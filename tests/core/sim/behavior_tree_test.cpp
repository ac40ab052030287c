// Behaviors run as modular behavior trees inside the simulation: action nodes become
// intentions the game performs, signals reach the tree as events, leaving the behavior
// terminates the tree and cancels its action.
#include <algorithm>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "sim/simulation.h"

using namespace npc;

namespace {

constexpr const char* kPatrol = R"(<BehaviorTree>
  <Root>
    <Sequence>
      <Move to="InitialPosition" speed="Walk"/>
      <WaitForEvent name="OnAlarm"/>
      <Animate name="Salute"/>
      <Halt/>
    </Sequence>
  </Root>
</BehaviorTree>)";

// An archetype with no senses whose one behavior runs `tree` (named like the tree).
Archetype treeRunner(const std::string& name, const std::string& tree) {
  Archetype type;
  type.name = name;
  type.species = "human";
  type.sensors.vision = false;
  type.sensors.hearing = false;
  BehaviorDef behavior;
  behavior.name = tree;
  behavior.tree = tree;
  type.behaviors.push_back(behavior);
  type.behavior = tree;
  return type;
}

ArchetypeSet archetypes() {
  ArchetypeSet set;
  set.add(treeRunner("sentry", "Patrol"));
  return set;
}

// Agent 7, a sentry of client 1.
UpsertEntity sentry() {
  EntityState s;
  s.id = EntityId{7};
  s.kind = EntityKind::kNpc;
  s.archetype = "sentry";
  s.position = Vec3{3, 4, 0};
  return UpsertEntity{s};
}

struct Fixture {
  Simulation sim{SimConfig{}, archetypes()};
  std::vector<std::string> actions;
  std::vector<ActionOut> last;

  Fixture() {
    const MbtLoadReport r = sim.loadBehaviorTrees({{"Patrol.xml", kPatrol}});
    INFO(r.text());
    REQUIRE(r.ok());
    sim.submit({ClientId{1}, 0, sentry()});
  }
  void tick() {
    sim.tick();
    last.assign(sim.output().actions.begin(), sim.output().actions.end());
    for (const ActionOut& a : last) actions.push_back(sim.names().name(a.name));
  }
  void complete(const ActionOut& a) {
    ActionResult r;
    r.agent = a.agent;
    r.intention = a.intention;
    sim.submit({ClientId{1}, 0, r});
  }
  nlohmann::json agent() {
    std::string json;
    REQUIRE(sim.describeAgent(EntityId{7}, json).isOk());
    return nlohmann::json::parse(json);
  }
};

}  // namespace

TEST_CASE("A behavior runs as a modular behavior tree", "[sim][mbt]") {
  Fixture f;
  f.tick();

  SECTION("Should send the tree's Move to the owning client as an intention") {
    REQUIRE(f.actions == std::vector<std::string>{"Move"});
    REQUIRE(f.last[0].owner == ClientId{1});
    REQUIRE(f.last[0].intention != IntentionId::kNone);
    REQUIRE(f.agent()["behavior"]["tree"] == "Patrol");
    REQUIRE(f.agent()["mbt"].is_object());
  }
  SECTION("Should wait for the event after the move, then act on it") {
    f.complete(f.last[0]);
    for (int i = 0; i < 5; ++i) f.tick();
    REQUIRE(f.actions == std::vector<std::string>{"Move"});  // waiting for OnAlarm
    SignalEvent alarm;
    alarm.target = EntityId{7};
    alarm.name = "OnAlarm";
    f.sim.submit({ClientId{1}, 0, alarm});
    f.tick();
    f.tick();
    REQUIRE(f.actions == std::vector<std::string>{"Move", "Animate"});
  }
  SECTION("Should fail the node when the game fails the action") {
    ActionResult r;
    r.agent = f.last[0].agent;
    r.intention = f.last[0].intention;
    r.outcome = ActionOutcome::kFailed;
    f.sim.submit({ClientId{1}, 0, r});
    f.tick();
    f.tick();
    // The sequence failed at Move; the tree reboots and moves again.
    REQUIRE(std::count(f.actions.begin(), f.actions.end(), "Move") == 2);
  }
}

// Regression: one broken tree file made the healthy trees' archetypes report "tree ... is
// not loaded" and nothing ran.
TEST_CASE("A broken tree file on the first load leaves the healthy trees running", "[sim][mbt]") {
  ArchetypeSet set = archetypes();
  set.add(treeRunner("guard", "Fight"));
  Simulation sim{SimConfig{}, std::move(set)};
  const MbtLoadReport report =
      sim.loadBehaviorTrees({{"behavior_trees/Patrol.xml", kPatrol},
                             {"behavior_trees/Fight.xml",
                              "<BehaviorTree>\n<Root>\n<Move speed=\"1\"/>\n</Root>\n</BehaviorTree>"}});
  REQUIRE(report.trees == 1);
  REQUIRE(report.errors.size() == 2);
  REQUIRE(report.errors[0] == "behavior_trees/Fight.xml:3: <Move> needs attribute \"to\"");
  REQUIRE(report.errors[1] == "archetype \"guard\": behavior \"Fight\": tree \"Fight\" is not loaded");
  sim.submit({ClientId{1}, 0, sentry()});
  sim.tick();
  REQUIRE(sim.output().actions.size() == 1);
  REQUIRE(sim.names().name(sim.output().actions[0].name) == "Move");
}
