#include <type_traits>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "bst_test_support.h"
#include "allocation_counter.h"

using namespace npc;
using namespace npc::test;

static_assert(sizeof(BstAgentState) == 32, "per-agent selection state stays at 32 bytes");
static_assert(std::is_trivially_copyable_v<BstAgentState>);

TEST_CASE("Evaluation reports behavior changes so the caller can run exit and enter",
          "[bst][evaluation]") {
  SelectionTreeLibrary library;
  REQUIRE(load(library, {{"Grunt.xml", kSeedGrunt}}).ok());
  BstAgentState grunt = agentOn(library, "Grunt");
  const BehaviorId idle = library.findBehavior("GruntIdle");
  const BehaviorId attack = library.findBehavior("GruntAttack");

  SECTION("Should enter the first behavior from No Behavior") {
    const BehaviorSelection s = library.evaluate(grunt);
    REQUIRE(s.changed);
    REQUIRE(s.previous == BehaviorId::kNone);
    REQUIRE(s.current == idle);
  }
  SECTION("Should report old and new behavior when the selection changes") {
    library.evaluate(grunt);
    signal(library, grunt, "OnEnemySeen");
    const BehaviorSelection s = library.evaluate(grunt);
    REQUIRE(s.changed);
    REQUIRE(s.previous == idle);
    REQUIRE(s.current == attack);
  }
  SECTION("Should report no change when the same behavior is selected again") {
    library.evaluate(grunt);
    const BehaviorSelection s = library.evaluate(grunt);
    REQUIRE_FALSE(s.changed);
    REQUIRE(s.previous == idle);
    REQUIRE(s.current == idle);
    signal(library, grunt, "OnEnemySeen");
    library.evaluate(grunt);
    signal(library, grunt, "OnHearSound");  // values change, behavior does not
    REQUIRE_FALSE(library.evaluate(grunt).changed);
  }
}

TEST_CASE("Evaluation is skipped while the variables stay the same", "[bst][evaluation]") {
  SelectionTreeLibrary library;
  REQUIRE(load(library, {{"Grunt.xml", kSeedGrunt}}).ok());
  BstAgentState grunt = agentOn(library, "Grunt");
  library.evaluate(grunt);
  SECTION("Should stay clean after an evaluation") { REQUIRE_FALSE(grunt.dirty); }
  SECTION("Should stay clean when a signal or a set leaves every value as it was") {
    REQUIRE(signal(library, grunt, "OnNoTarget"));
    REQUIRE(library.setVariable(grunt, library.findVariable("AwareOfSound"), false));
    REQUIRE_FALSE(grunt.dirty);
  }
  SECTION("Should mark the agent when a value changes") {
    REQUIRE(signal(library, grunt, "OnHearSound"));
    REQUIRE(grunt.dirty);
  }
  SECTION("Should ignore signals the tree does not handle") {
    REQUIRE_FALSE(signal(library, grunt, "OnBulletRain"));
    REQUIRE_FALSE(library.applySignal(grunt, SignalId::kNone));
    REQUIRE_FALSE(grunt.dirty);
  }
  SECTION("Should allocate nothing when applying signals and evaluating") {
    const SignalId seen = library.internSignal("OnEnemySeen");
    const SignalId none = library.internSignal("OnNoTarget");
    const SelectionVariableId sound = library.findVariable("AwareOfSound");
    const uint64_t before = npc::test::allocationCount();
    for (int i = 0; i < 1000; ++i) {
      library.applySignal(grunt, i % 2 ? seen : none);
      library.setVariable(grunt, sound, i % 3 == 0);
      library.evaluate(grunt);
    }
    REQUIRE(npc::test::allocationCount() == before);
  }
}

TEST_CASE("An agent without a tree has No Behavior", "[bst][no_tree]") {
  SelectionTreeLibrary library;
  REQUIRE(load(library, {{"Grunt.xml", kSeedGrunt}}).ok());
  BstAgentState nobody;
  library.bind(nobody, library.findTree("NoSuchTree"));
  SECTION("Should select No Behavior and never change") {
    const BehaviorSelection s = library.evaluate(nobody);
    REQUIRE_FALSE(s.changed);
    REQUIRE(s.current == BehaviorId::kNone);
    REQUIRE(library.behaviorName(s.current) == "No Behavior");
  }
  SECTION("Should ignore signals and refuse variables with a clear status") {
    REQUIRE_FALSE(signal(library, nobody, "OnEnemySeen"));
    const Status s = library.setVariable(nobody, "AwareOfEnemy", true);
    REQUIRE(s.code() == StatusCode::kFailedPrecondition);
    REQUIRE(s.message() == "the agent has no selection tree, so no variable \"AwareOfEnemy\"");
  }
  SECTION("Should show No Behavior in the debug view") {
    REQUIRE(library.describe(nobody) == nlohmann::json::parse(R"({
      "tree": null, "behavior": "No Behavior", "leaf": null, "evaluated": false,
      "variables": {}, "path": [] })"));
  }
  SECTION("Should report leaving the old behavior when an agent loses its tree") {
    BstAgentState grunt = agentOn(library, "Grunt");
    library.evaluate(grunt);
    library.bind(grunt, SelectionTreeId::kNone);
    const BehaviorSelection s = library.evaluate(grunt);
    REQUIRE(s.changed);
    REQUIRE(library.behaviorName(s.previous) == "GruntIdle");
    REQUIRE(s.current == BehaviorId::kNone);
  }
}

TEST_CASE("Binding another tree resets values and reports the behavior change", "[bst][bind]") {
  SelectionTreeLibrary library;
  REQUIRE(load(library, {{"Common.xml", kSeedCommon},
                         {"Grunt.xml", kSeedGruntWithRefs},
                         {"Alien.xml", kSeedAlien}})
              .ok());
  BstAgentState agent = agentOn(library, "Grunt");
  signal(library, agent, "OnEnemySeen");
  library.evaluate(agent);
  library.bind(agent, library.findTree("Alien"));
  SECTION("Should go from the old tree's behavior to the new tree's default") {
    const BehaviorSelection s = library.evaluate(agent);
    REQUIRE(s.changed);
    REQUIRE(library.behaviorName(s.previous) == "GruntAttack");
    REQUIRE(library.behaviorName(s.current) == "AlienIdle");
  }
}

TEST_CASE("Variables are set by interned id or, for the API, by name", "[bst][variables]") {
  SelectionTreeLibrary library;
  REQUIRE(load(library, {{"Grunt.xml", kSeedGrunt}}).ok());
  BstAgentState grunt = agentOn(library, "Grunt");
  SECTION("Should set by id and read back") {
    const SelectionVariableId enemy = library.internVariable("AwareOfEnemy");
    REQUIRE(library.setVariable(grunt, enemy, true));
    REQUIRE(library.variable(grunt, enemy) == true);
  }
  SECTION("Should refuse names the agent's tree does not declare") {
    REQUIRE_FALSE(library.setVariable(grunt, library.internVariable("Hungry"), true));
    REQUIRE_FALSE(library.variable(grunt, library.internVariable("Hungry")).has_value());
    const Status s = library.setVariable(grunt, "Hungry", true);
    REQUIRE(s.code() == StatusCode::kNotFound);
    REQUIRE(s.message() == "selection tree \"Grunt\" has no variable \"Hungry\"");
  }
}

TEST_CASE("StateMachine nodes keep their state while their leaf stays current",
          "[bst][state_machine]") {
  SelectionTreeLibrary library;
  REQUIRE(load(library, {{"Guard.xml", R"(<SelectionTree name="Guard" type="BehaviorSelectionTree">
<Variables>
  <Variable name="Alarm"/><Variable name="AllClear"/><Variable name="Dead"/>
  <Variable name="Ring"/>
</Variables>
<Priority name="Root">
  <Leaf name="Die" condition="Dead"/>
  <StateMachine name="Duty">
    <State name="Patrol">
      <Transition state="Alert" condition="Alarm"/>
      <Leaf name="Patrolling"/>
    </State>
    <State name="Alert">
      <Transition state="Patrol" condition="AllClear"/>
      <Transition state="Loop1" condition="Ring"/>
      <Leaf name="Searching"/>
    </State>
    <State name="Loop1">
      <Transition state="Loop2" condition="Ring"/>
      <Leaf name="InLoop1"/>
    </State>
    <State name="Loop2">
      <Transition state="Loop1" condition="Ring"/>
      <Leaf name="InLoop2"/>
    </State>
  </StateMachine>
</Priority>
</SelectionTree>)"}})
              .ok());
  BstAgentState guard = agentOn(library, "Guard");
  auto set = [&](const char* name, bool value) {
    REQUIRE(library.setVariable(guard, name, value).isOk());
  };
  REQUIRE(evaluateName(library, guard) == "Patrolling");

  SECTION("Should follow a transition and stay in the new state after its condition clears") {
    set("Alarm", true);
    REQUIRE(evaluateName(library, guard) == "Searching");
    set("Alarm", false);
    REQUIRE(evaluateName(library, guard) == "Searching");
    set("AllClear", true);
    REQUIRE(evaluateName(library, guard) == "Patrolling");
  }
  SECTION("Should reset to the first state once the current leaf is elsewhere") {
    set("Alarm", true);
    REQUIRE(evaluateName(library, guard) == "Searching");
    set("Alarm", false);
    set("Dead", true);
    REQUIRE(evaluateName(library, guard) == "Die");
    set("Dead", false);
    REQUIRE(evaluateName(library, guard) == "Patrolling");
  }
  SECTION("Should follow transitions repeatedly and stop when a state repeats") {
    set("Alarm", true);
    set("Ring", true);
    // Patrol -> Alert -> Loop1 -> Loop2 -> Loop1 (seen): stops in Loop1.
    REQUIRE(evaluateName(library, guard) == "InLoop1");
    REQUIRE_FALSE(guard.dirty);  // stable: from Loop1 the same walk ends in Loop1
  }
  SECTION("Should show the machine's state in the debug path") {
    set("Alarm", true);
    library.evaluate(guard);
    const nlohmann::json path = library.describe(guard)["path"];
    REQUIRE(path.size() == 3);
    REQUIRE(path[1]["node"] == "Duty");
    REQUIRE(path[1]["state"] == "Alert");
    REQUIRE(path[2]["behavior"] == "Searching");
  }
}

TEST_CASE("A state machine step that needs a second update stays pending",
          "[bst][state_machine]") {
  // From B, X leads to C, whose subtree yields nothing: the Priority falls back. With the
  // leaf outside the machine, the next update restarts it from A, which yields LeafA.
  SelectionTreeLibrary library;
  REQUIRE(load(library, {{"Two.xml", R"(<SelectionTree name="Two" type="BehaviorSelectionTree">
<Variables><Variable name="X"/><Variable name="Y"/><Variable name="Never"/></Variables>
<Priority name="Root">
  <StateMachine name="M">
    <State name="A"><Transition state="B" condition="Y"/><Leaf name="LeafA"/></State>
    <State name="B"><Transition state="C" condition="X"/><Leaf name="LeafB"/></State>
    <State name="C"><Priority name="Gate"><Leaf name="LeafC" condition="Never"/></Priority></State>
  </StateMachine>
  <Leaf name="Fallback"/>
</Priority>
</SelectionTree>)"}})
              .ok());
  BstAgentState agent = agentOn(library, "Two");
  library.setVariable(agent, "Y", true);
  REQUIRE(evaluateName(library, agent) == "LeafB");
  library.setVariable(agent, "Y", false);
  library.setVariable(agent, "X", true);
  SECTION("Should move one step per update, as CryEngine does, and stay dirty until stable") {
    REQUIRE(evaluateName(library, agent) == "Fallback");
    REQUIRE(agent.dirty);
    const BehaviorSelection s = library.evaluate(agent);
    REQUIRE(s.changed);
    REQUIRE(library.behaviorName(s.current) == "LeafA");
    REQUIRE_FALSE(agent.dirty);
  }
}

TEST_CASE("The debug view shows variables, behavior and the path that chose it", "[bst][debug]") {
  SelectionTreeLibrary library;
  REQUIRE(load(library, {{"Common.xml", kSeedCommon}, {"Grunt.xml", kSeedGruntWithRefs}}).ok());
  BstAgentState grunt = agentOn(library, "Grunt");
  signal(library, grunt, "OnEnemySeen");
  library.evaluate(grunt);
  SECTION("Should describe one agent as JSON") {
    REQUIRE(library.describe(grunt) == nlohmann::json::parse(R"({
      "tree": "Grunt",
      "behavior": "GruntAttack",
      "leaf": "Attack",
      "evaluated": true,
      "variables": { "AwareOfSound": false, "AwareOfEnemy": true },
      "path": [
        { "node": "Root", "type": "Priority", "at": "Grunt.xml:13" },
        { "node": "CommonRoot", "type": "Priority", "at": "Common.xml:15" },
        { "node": "Combat", "type": "Priority", "condition": "AwareOfEnemy",
          "at": "Common.xml:16" },
        { "node": "Attack", "type": "Leaf", "behavior": "GruntAttack", "at": "Common.xml:17" }
      ] })"));
  }
  SECTION("Should say when variables changed since the last evaluation") {
    signal(library, grunt, "OnNoTarget");
    REQUIRE(library.describe(grunt)["evaluated"] == false);
  }
}
