// Behaviors run as modular behavior trees inside the simulation: action nodes become
// intentions the game performs, signals reach the tree as events, leaving the behavior
// terminates the tree and cancels its action.
#include <algorithm>
#include <optional>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "sim/simulation.h"
#include "sim_fixture.h"

using namespace npc;
using namespace npc::test;

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
    const DefinitionReport r = sim.loadBehaviorTrees({{"Patrol.xml", kPatrol}});
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

TEST_CASE("Every action node type is an action a tree's agent can perform", "[sim][mbt]") {
  Fixture f;
  const std::vector<std::string> types = f.sim.behaviorTrees().factory().actionNames();
  for (const char* seed_node : {"AdjustCoverStance", "Bubble", "TurnBody", "ClearTargets",
                                "PullDownThreatLevel", "LuaBehavior", "Move", "Shoot"}) {
    REQUIRE(std::find(types.begin(), types.end(), seed_node) != types.end());
  }
  // Programmed as its controller would: refused with NOT_FOUND if the daemon lacked it.
  auto perform = [&](const std::string& action) {
    std::optional<Status> replied;
    IntentionId id = IntentionId::kNone;
    ProgramIntention program;
    program.agent = EntityId{7};
    program.action = action;
    program.reply = [&](const Status& s, IntentionId got) {
      replied = s;
      id = got;
    };
    f.sim.submit({ClientId{1}, 0, std::move(program)});
    f.tick();
    REQUIRE(replied.has_value());
    INFO(action << ": " << replied->message());
    REQUIRE(replied->isOk());
    CancelIntention cancel;
    cancel.agent = EntityId{7};
    cancel.intention = id;
    f.sim.submit({ClientId{1}, 0, std::move(cancel)});
    f.tick();
  };

  SECTION("Should register every standard action node of the factory") {
    for (const std::string& type : types) perform(type);
  }
  SECTION("Should register a game's own action node once trees are loaded again") {
    MbtNodeFactory& factory = f.sim.behaviorTrees().factory();
    factory.addAction("Hover", [&factory] {
      std::string_view registered;
      return factory.create("TurnBody", registered);  // any action node will do here
    });
    REQUIRE(f.sim.loadBehaviorTrees({{"Patrol.xml", kPatrol}}).ok());
    perform("Hover");
  }
}

namespace {

// Seed 001's Investigate behavior: its OnSoundHeard(entity, distance) sets AwareOfEnemy
// only when the sound was within 5 m, so a sound close by selects Attack at once.
constexpr const char* kListenTree = R"(<BehaviorTree>
  <Root>
    <Parallel>
      <OnSignal name="OnHearSound" code="
        heard = {subject = signal.subject, value = signal.value, x = signal.position.x}
        if signal.distance &lt; 5 then AI.SetBehaviorVariable(entity.id, 'AwareOfEnemy', true) end"/>
      <Sequence>
        <WaitForEvent name="OnHearSound"/>
        <AssertLua code="return heard ~= nil and heard.subject == 42 and heard.x == signal_x"/>
        <Animate name="Listen"/>
        <Halt/>
      </Sequence>
    </Parallel>
  </Root>
</BehaviorTree>)";

constexpr const char* kEarsTree = R"(<SelectionTree name="Ears" type="BehaviorSelectionTree">
  <Variables>
    <Variable name="AwareOfEnemy"/>
    <Variable name="Alarmed"/>
  </Variables>
  <Priority name="Root">
    <Leaf name="Attack" condition="AwareOfEnemy"/>
    <Leaf name="Alert" condition="Alarmed"/>
    <Leaf name="Investigate"/>
  </Priority>
</SelectionTree>)";

constexpr const char* kAlertTree = R"(<BehaviorTree>
  <Root>
    <Sequence>
      <SetBehaviorVariable name="Alarmed" value="false"/>
      <SetBehaviorVariable name="NoSuchVariable"/>
    </Sequence>
  </Root>
</BehaviorTree>)";

struct Listener {
  Simulation sim{SimConfig{}, archetypes()};
  std::vector<std::string> behaviors;
  std::vector<std::string> actions;
  std::vector<std::string> logs;

  static ArchetypeSet archetypes() {
    ArchetypeSet set;
    Archetype guard;
    guard.name = "listener";
    guard.species = "human";
    guard.selection_tree = "Ears";
    guard.sensors.vision = false;
    BehaviorDef investigate;
    investigate.name = "Investigate";
    investigate.tree = "Listen";
    guard.behaviors.push_back(investigate);
    guard.behaviors.push_back({"Attack", BehaviorMode::kIdle});
    BehaviorDef alert;
    alert.name = "Alert";
    alert.tree = "Alert";
    guard.behaviors.push_back(alert);
    set.add(guard);
    return set;
  }
  Listener(float sound_x) {
    sim.setTreeLogSink([this](const MbtLogMessage& m) { logs.emplace_back(m.text); });
    std::string listen = kListenTree;
    listen.replace(listen.find("signal_x"), 8, std::to_string(static_cast<int>(sound_x)));
    REQUIRE(sim.loadBehaviorTrees({{"Listen.xml", listen}, {"Alert.xml", kAlertTree}}).ok());
    REQUIRE(sim.loadSelectionTrees({{"Ears.xml", kEarsTree}}).ok());
    sim.submit(test::upsert(7, EntityKind::kNpc, {0, 0, 0}, "listener", ClientId{1}));
    tick(2);
    SoundEvent sound;
    sound.source = EntityId{42};
    sound.position = Vec3{sound_x, 0, 0};
    sound.radius_m = 30.f;
    sound.kind = "generic";
    sim.submit({ClientId{1}, 0, sound});
    tick(3);
  }
  void tick(int n) {
    for (int i = 0; i < n; ++i) {
      sim.tick();
      for (const EventOut& e : sim.output().events) {
        if (e.kind == EventKind::kBehavior) behaviors.push_back(e.text);
      }
      for (const ActionOut& a : sim.output().actions) actions.push_back(sim.names().name(a.name));
    }
  }
};

}  // namespace

TEST_CASE("Signals carry their data into behavior trees", "[sim][mbt]") {
  SECTION("Should select Attack when the handler hears a sound within 5 m") {
    Listener near(3.f);
    REQUIRE(near.behaviors == std::vector<std::string>{"No Behavior -> Investigate",
                                                       "Investigate -> Attack"});
  }
  SECTION("Should keep investigating a sound 10 m away, with subject and position at hand") {
    Listener far(10.f);
    REQUIRE(far.behaviors == std::vector<std::string>{"No Behavior -> Investigate"});
    REQUIRE(far.actions == std::vector<std::string>{"Animate"});  // AssertLua saw the data
  }
}

TEST_CASE("Behavior trees set selection variables", "[sim][mbt]") {
  Listener f(10.f);
  SetBehaviorVariable alarm;
  alarm.agent = EntityId{7};
  alarm.name = "Alarmed";
  alarm.value = true;
  alarm.reply = [](const Status& s) { REQUIRE(s.isOk()); };
  f.sim.submit({ClientId{1}, 0, alarm});
  f.tick(3);

  SECTION("Should let a SetBehaviorVariable node change the agent's selection") {
    REQUIRE(f.behaviors == std::vector<std::string>{"No Behavior -> Investigate",
                                                    "Investigate -> Alert",
                                                    "Alert -> Investigate"});
  }
  SECTION("Should fail the node, with a located message, for an undeclared variable") {
    REQUIRE(std::find(f.logs.begin(), f.logs.end(),
                      "Alert.xml:5: <SetBehaviorVariable> [agent 7]: the agent's selection tree "
                      "declares no variable NoSuchVariable") != f.logs.end());
  }
}

// Regression: one broken tree file made the healthy trees' archetypes report "tree ... is
// not loaded" and nothing ran. The broken file's error is the one message about it: the
// archetype whose tree is in that file does not add a second.
TEST_CASE("A broken tree file on the first load leaves the healthy trees running", "[sim][mbt]") {
  ArchetypeSet set = archetypes();
  set.add(treeRunner("guard", "Fight"));
  Simulation sim{SimConfig{}, std::move(set)};
  const DefinitionReport report =
      sim.loadBehaviorTrees({{"behavior_trees/Patrol.xml", kPatrol},
                             {"behavior_trees/Fight.xml",
                              "<BehaviorTree>\n<Root>\n<Move speed=\"1\"/>\n</Root>\n</BehaviorTree>"}});
  REQUIRE(report.behavior_trees == 1);
  REQUIRE(report.loaded.size() == 1);
  REQUIRE(report.errors == std::vector<std::string>{
                               "behavior_trees/Fight.xml:3: <Move> needs attribute \"to\""});
  sim.submit({ClientId{1}, 0, sentry()});
  sim.tick();
  REQUIRE(sim.output().actions.size() == 1);
  REQUIRE(sim.names().name(sim.output().actions[0].name) == "Move");
}

TEST_CASE("An archetype naming a tree no file defines is reported", "[sim][mbt]") {
  ArchetypeSet set = archetypes();
  set.add(treeRunner("guard", "Fight"));
  Simulation sim{SimConfig{}, std::move(set)};
  const DefinitionReport report = sim.loadBehaviorTrees({{"behavior_trees/Patrol.xml", kPatrol}});
  REQUIRE(report.errors == std::vector<std::string>{
                               "archetype \"guard\": behavior \"Fight\": tree \"Fight\" is not loaded"});
  REQUIRE(report.refused.empty());  // the healthy set runs
}
