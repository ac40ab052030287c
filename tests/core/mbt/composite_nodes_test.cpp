// Sequence, Selector, Parallel, Priority and StateMachine: success, failure, running,
// termination of running children, and events (BT-REFERENCE.md §2a).
#include <catch2/catch.hpp>

#include "mbt_test_support.h"

using namespace npc;
using namespace npc::test;

namespace {

const std::string kVariables = R"(<Variables>
  <Variable name="A"/>
  <Variable name="B"/>
</Variables>
<SignalVariables>
  <Signal name="SetA" variable="A" value="true"/>
  <Signal name="ClearA" variable="A" value="false"/>
  <Signal name="SetB" variable="B" value="true"/>
</SignalVariables>
)";

}  // namespace

TEST_CASE("Sequence runs children in order until one fails", "[mbt][nodes][sequence]") {
  MbtFixture f;
  REQUIRE(f.load(tree(R"(<Sequence>
  <Animate name="A"/>
  <Shoot at="1,2,3"/>
</Sequence>)")) == "");
  SECTION("Should run the first child and report Running while it runs") {
    REQUIRE(f.tick() == MbtStatus::kRunning);
    REQUIRE(f.host.running("Animate") == 1);
    REQUIRE(f.host.started("Shoot") == 0);
    REQUIRE(f.runningPath() == "Sequence/Animate");
  }
  SECTION("Should start the next child in the same tick when one succeeds") {
    f.tick();
    f.host.finish("Animate");
    REQUIRE(f.tick() == MbtStatus::kRunning);
    REQUIRE(f.host.running("Shoot") == 1);
    f.host.finish("Shoot");
    REQUIRE(f.tick() == MbtStatus::kSuccess);
  }
  SECTION("Should fail as soon as a child fails, without running the rest") {
    f.tick();
    f.host.finish("Animate", false);
    REQUIRE(f.tick() == MbtStatus::kFailure);
    REQUIRE(f.host.started("Shoot") == 0);
  }
  SECTION("Should terminate the running child when interrupted") {
    f.tick();
    f.agent.terminate(f.host);
    REQUIRE(f.host.last("Animate")->cancelled);
    REQUIRE(f.agent.activeNodes() == 0);
  }
  SECTION("Should pass events to the running child only") {
    MbtFixture g;
    REQUIRE(g.load(tree(R"(<Sequence>
  <WaitForEvent name="Go"/>
  <WaitForEvent name="Go"/>
</Sequence>)")) == "");
    g.tick();
    g.event("Go");
    REQUIRE(g.tick() == MbtStatus::kRunning);  // the second one has not seen "Go"
    g.event("Go");
    REQUIRE(g.tick() == MbtStatus::kSuccess);
  }
}

TEST_CASE("Selector runs children in order until one succeeds", "[mbt][nodes][selector]") {
  MbtFixture f;
  REQUIRE(f.load(tree(R"(<Selector>
  <Animate name="A"/>
  <Shoot at="1,2,3"/>
</Selector>)")) == "");
  SECTION("Should succeed with the first child that succeeds") {
    f.tick();
    f.host.finish("Animate");
    REQUIRE(f.tick() == MbtStatus::kSuccess);
    REQUIRE(f.host.started("Shoot") == 0);
  }
  SECTION("Should try the next child in the same tick when one fails") {
    f.tick();
    f.host.finish("Animate", false);
    REQUIRE(f.tick() == MbtStatus::kRunning);
    REQUIRE(f.host.running("Shoot") == 1);
  }
  SECTION("Should fail when every child failed") {
    f.tick();
    f.host.finish("Animate", false);
    f.tick();
    f.host.finish("Shoot", false);
    REQUIRE(f.tick() == MbtStatus::kFailure);
  }
  SECTION("Should terminate the running child when interrupted") {
    f.tick();
    f.host.finish("Animate", false);
    f.tick();
    f.agent.terminate(f.host);
    REQUIRE(f.host.last("Shoot")->cancelled);
  }
  SECTION("Should pass events to the running child") {
    MbtFixture g;
    REQUIRE(g.load(tree(R"(<Selector><Fail/><WaitForEvent name="Go" result="Failure"/></Selector>)")) ==
            "");
    REQUIRE(g.tick() == MbtStatus::kRunning);
    g.event("Go");
    REQUIRE(g.tick() == MbtStatus::kFailure);
  }
}

TEST_CASE("Parallel ticks all children with success and failure modes",
          "[mbt][nodes][parallel]") {
  SECTION("Should succeed when all succeed (default) and fail on the first failure") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<Parallel>
  <Animate name="A"/>
  <Shoot at="Target"/>
</Parallel>)")) == "");
    f.host.seeTarget(EntityId{5}, {1, 0, 0});
    REQUIRE(f.tick() == MbtStatus::kRunning);
    REQUIRE(f.host.running("Animate") == 1);
    REQUIRE(f.host.running("Shoot") == 1);
    f.host.finish("Animate");
    REQUIRE(f.tick() == MbtStatus::kRunning);
    f.host.finish("Shoot");
    REQUIRE(f.tick() == MbtStatus::kSuccess);

    MbtFixture g;
    REQUIRE(g.load(tree(R"(<Parallel><Animate name="A"/><Fail/></Parallel>)")) == "");
    REQUIRE(g.tick() == MbtStatus::kFailure);
    REQUIRE(g.host.last("Animate")->cancelled);  // still running: terminated
  }
  SECTION("Should succeed on the first success with successMode=any, terminating the rest") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<Parallel successMode="any">
  <Animate name="A"/>
  <Wait duration="1"/>
</Parallel>)")) == "");
    REQUIRE(f.run(5) == MbtStatus::kRunning);
    REQUIRE(f.run(7) == MbtStatus::kSuccess);
    REQUIRE(f.host.last("Animate")->cancelled);
    REQUIRE(f.agent.activeNodes() == 0);
  }
  SECTION("Should fail only when all failed with failureMode=all") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<Parallel failureMode="all" successMode="any">
  <Fail/>
  <Animate name="A"/>
</Parallel>)")) == "");
    REQUIRE(f.tick() == MbtStatus::kRunning);
    f.host.finish("Animate", false);
    REQUIRE(f.tick() == MbtStatus::kFailure);
  }
  SECTION("Should check the success rule first when both hold") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<Parallel successMode="any"><Fail/><SuppressFailure><Fail/></SuppressFailure></Parallel>)")) ==
            "");
    REQUIRE(f.tick() == MbtStatus::kSuccess);
  }
  SECTION("Should pass events to every running child") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<Parallel>
  <WaitForEvent name="Go"/>
  <WaitForEvent name="Go"/>
</Parallel>)")) == "");
    f.tick();
    f.event("Go");
    REQUIRE(f.tick() == MbtStatus::kSuccess);
  }
  SECTION("Should refuse more than 32 children and unknown modes") {
    MbtFixture f;
    std::string many = "<Parallel>";
    for (int i = 0; i < 33; ++i) many += "<Halt/>";
    many += "</Parallel>";
    REQUIRE(f.load(tree(many)) == "Test.xml:3: <Parallel> takes at most 32 child nodes, has 33\n");
    REQUIRE(f.load(tree(R"(<Parallel successMode="some"><Halt/></Parallel>)")) ==
            "Test.xml:3: <Parallel> successMode \"some\" is not one of: all, any\n");
  }
}

TEST_CASE("Priority runs the first true case and switches on variable changes",
          "[mbt][nodes][priority]") {
  MbtFixture f;
  REQUIRE(f.load(tree(R"(<Priority>
  <Case condition="A">
    <Animate name="A"/>
  </Case>
  <Case condition="B and !A">
    <Shoot at="1,1,1"/>
  </Case>
  <Case>
    <Halt/>
  </Case>
</Priority>)",
                      kVariables)) == "");
  SECTION("Should run the first case whose condition holds (an empty one is true)") {
    REQUIRE(f.tick() == MbtStatus::kRunning);
    REQUIRE(f.runningPath() == "Priority/Halt");
    REQUIRE(f.describe()["running"][0]["text"] == "case 3 (line 11)");
  }
  SECTION("Should switch when a variable change makes an earlier case true") {
    f.tick();
    f.event("SetB");
    f.tick();
    REQUIRE(f.runningPath() == "Priority/Shoot");
    f.event("SetA");
    f.tick();
    REQUIRE(f.runningPath() == "Priority/Animate");
    REQUIRE(f.host.last("Shoot")->cancelled);  // the old case was terminated
  }
  SECTION("Should return the running case's result") {
    f.event("SetA");
    f.tick();
    f.host.finish("Animate", false);
    REQUIRE(f.tick() == MbtStatus::kFailure);
  }
  SECTION("Should fail when no case holds") {
    MbtFixture g;
    REQUIRE(g.load(tree(R"(<Priority><Case condition="A"><Halt/></Case></Priority>)", kVariables)) ==
            "");
    REQUIRE(g.tick() == MbtStatus::kFailure);
  }
  SECTION("Should keep the case while no variable changes (not re-evaluated on time)") {
    f.event("SetA");
    f.tick();
    f.run(10);
    REQUIRE(f.host.started("Animate") == 1);
  }
  SECTION("Should refuse children that are not <Case> and cases without one node") {
    MbtFixture g;
    REQUIRE(g.load(tree("<Priority>\n<Halt/>\n<Case>\n</Case>\n</Priority>", kVariables)) ==
            "Test.xml:4: <Halt> is not allowed in <Priority>; expected <Case condition>\n"
            "Test.xml:5: <Case> takes exactly 1 child node, has 0\n");
  }
}

TEST_CASE("StateMachine switches states on events at the next tick",
          "[mbt][nodes][statemachine]") {
  MbtFixture f;
  REQUIRE(f.load(tree(R"(<StateMachine>
  <State name="Idle">
    <Transitions>
      <Transition onEvent="OnEnemySeen" to="Combat"/>
    </Transitions>
    <BehaviorTree>
      <Animate name="Idle" loop="1"/>
    </BehaviorTree>
  </State>
  <State name="Combat">
    <Transitions>
      <Transition onEvent="Calm" to="idle"/>
      <Transition onEvent="Again" to="Combat"/>
    </Transitions>
    <BehaviorTree>
      <Shoot at="Target"/>
    </BehaviorTree>
  </State>
</StateMachine>)")) == "");
  f.host.seeTarget(EntityId{3}, {1, 1, 0});
  SECTION("Should start in the first state") {
    REQUIRE(f.tick() == MbtStatus::kRunning);
    REQUIRE(f.describe()["running"][0]["text"] == "state Idle");
    REQUIRE(f.host.running("Animate") == 1);
  }
  SECTION("Should make a transition pending on its event and switch on the next tick") {
    f.tick();
    f.event("OnEnemySeen");
    REQUIRE(f.describe()["running"][0]["text"] == "state Idle (to Combat next tick)");
    REQUIRE(f.host.running("Animate") == 1);
    f.tick();
    REQUIRE(f.host.last("Animate")->cancelled);
    REQUIRE(f.host.running("Shoot") == 1);
    f.event("Calm");  // state names ignore case
    f.tick();
    REQUIRE(f.describe()["running"][0]["text"] == "state Idle");
  }
  SECTION("Should restart the state on a transition to itself") {
    f.tick();
    f.event("OnEnemySeen");
    f.tick();
    f.event("Again");
    f.tick();
    REQUIRE(f.host.started("Shoot") == 2);
    REQUIRE(f.host.actions[1].cancelled);
  }
  SECTION("Should ignore events without a transition in the current state") {
    f.tick();
    f.event("Calm");
    f.tick();
    REQUIRE(f.describe()["running"][0]["text"] == "state Idle");
  }
  SECTION("Should finish when the state's tree finishes") {
    f.tick();
    f.event("OnEnemySeen");
    f.tick();
    f.host.finish("Shoot");
    REQUIRE(f.tick() == MbtStatus::kSuccess);
  }
  SECTION("Should refuse unknown targets, duplicate names and missing trees with lines") {
    MbtFixture g;
    REQUIRE(g.load(tree(R"(<StateMachine>
  <State name="A">
    <Transitions><Transition onEvent="E" to="Nowhere"/></Transitions>
    <BehaviorTree><Halt/></BehaviorTree>
  </State>
  <State name="a">
  </State>
</StateMachine>)")) ==
            "Test.xml:5: <Transition> to \"Nowhere\" is not a state of this <StateMachine>\n"
            "Test.xml:8: <State> duplicate state \"a\" (state names ignore case)\n"
            "Test.xml:8: <State> needs exactly one <BehaviorTree>, has 0\n");
  }
}
