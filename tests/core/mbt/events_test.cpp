// Variables, signal variables and events: signals become events dispatched from the root
// down the running nodes, after the signal variables and timestamps were applied.
#include <catch2/catch.hpp>

#include "mbt_test_support.h"

using namespace npc;
using namespace npc::test;

TEST_CASE("Signal variables set variables when their signal arrives", "[mbt][events]") {
  MbtFixture f;
  REQUIRE(f.load(tree("<Halt/>", R"(<Variables>
  <Variable name="TargetVisible"/>
  <Variable name="Calm" default="true"/>
</Variables>
<SignalVariables>
  <Signal name="OnEnemySeen" variable="TargetVisible" value="true"/>
  <Signal name="OnEnemySeen" variable="Calm" value="!TargetVisible"/>
  <Signal name="OnLostSightOfTarget" variable="TargetVisible" value="false"/>
</SignalVariables>
)")) == "");
  SECTION("Should start from the declared defaults") {
    REQUIRE(f.agent.variable("TargetVisible") == false);
    REQUIRE(f.agent.variable("Calm") == true);
  }
  SECTION("Should apply entries in file order, each seeing the previous ones") {
    f.event("OnEnemySeen");
    REQUIRE(f.agent.variable("TargetVisible") == true);
    REQUIRE(f.agent.variable("Calm") == false);
    f.event("OnLostSightOfTarget");
    REQUIRE(f.agent.variable("TargetVisible") == false);
  }
  SECTION("Should let the API set declared variables only") {
    REQUIRE(f.agent.setVariable("Calm", false));
    REQUIRE_FALSE(f.agent.setVariable("Nope", true));
    REQUIRE_FALSE(f.agent.variable("Nope").has_value());
  }
}

TEST_CASE("Events reach running nodes only, after variables and timestamps",
          "[mbt][events]") {
  MbtFixture f;
  REQUIRE(f.load(tree(R"(<Parallel>
  <Sequence>
    <WaitForEvent name="OnEnemySeen"/>
    <AssertCondition condition="Seen"/>
    <AssertTime since="Spotted" isLessThan="1"/>
    <Animate name="React"/>
  </Sequence>
  <StateMachine>
    <State name="A">
      <Transitions><Transition onEvent="OnEnemySeen" to="B"/></Transitions>
      <BehaviorTree><Halt/></BehaviorTree>
    </State>
    <State name="B">
      <BehaviorTree><Animate name="InB"/></BehaviorTree>
    </State>
  </StateMachine>
</Parallel>)",
                      R"(<Variables><Variable name="Seen"/></Variables>
<SignalVariables><Signal name="OnEnemySeen" variable="Seen" value="true"/></SignalVariables>
<Timestamps><Timestamp name="Spotted" setOnEvent="OnEnemySeen"/></Timestamps>
)")) == "");
  SECTION("Should update variables and timestamps before the nodes see the event") {
    f.tick();
    f.event("OnEnemySeen");
    f.tick();
    REQUIRE(f.host.running("Animate") == 2);  // React and InB
  }
  SECTION("Should still update variables when no node is running") {
    f.event("OnEnemySeen");
    REQUIRE(f.agent.variable("Seen") == true);
    f.tick();
    REQUIRE(f.host.started("Animate") == 0);  // WaitForEvent started after the event
  }
  SECTION("Should not reach nodes a previous sibling has not started") {
    MbtFixture g;
    REQUIRE(g.load(tree(R"(<Sequence>
  <Animate name="First"/>
  <WaitForEvent name="Go"/>
</Sequence>)")) == "");
    g.tick();
    g.event("Go");
    g.host.finish("Animate");
    REQUIRE(g.tick() == MbtStatus::kRunning);
  }
}

TEST_CASE("Priority re-evaluates on variable changes from events, the API and Lua",
          "[mbt][events][priority]") {
  MbtFixture f;
  REQUIRE(f.load(tree(R"~(<Priority>
  <Case condition="Danger"><Animate name="Flee"/></Case>
  <Case><Sequence><ExecuteLua code="entity:SetVariable('Danger', entity.flip == true)"/><Animate name="Idle"/></Sequence></Case>
</Priority>)~",
                      R"(<Variables><Variable name="Danger"/></Variables>
<SignalVariables><Signal name="Threat" variable="Danger" value="true"/></SignalVariables>
)")) == "");
  f.tick();
  REQUIRE(f.runningPath() == "Priority/Sequence/Animate");
  SECTION("Should switch after a signal") {
    f.event("Threat");
    f.tick();
    REQUIRE(f.runningPath() == "Priority/Animate");
  }
  SECTION("Should switch after the API sets a variable") {
    f.agent.setVariable("Danger", true);
    f.tick();
    REQUIRE(f.runningPath() == "Priority/Animate");
  }
  SECTION("Should not switch when a variable is set to the value it had") {
    f.agent.setVariable("Danger", false);
    REQUIRE_FALSE(f.agent.variablesChanged());
  }
}
