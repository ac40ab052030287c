// Wait, Timeout, WaitForEvent, AssertCondition, MonitorCondition, Fail, Halt, Log,
// Breakpoint, SendEvent, SendTransitionEvent, Signal/SendSignal, SendTransitionSignal.
#include <catch2/catch.hpp>

#include "mbt_test_support.h"

using namespace npc;
using namespace npc::test;

namespace {

const std::string kVars = R"(<Variables><Variable name="Ready"/></Variables>
<SignalVariables><Signal name="MakeReady" variable="Ready" value="true"/></SignalVariables>
)";

}  // namespace

TEST_CASE("Wait runs for its duration plus a random variation", "[mbt][nodes][wait]") {
  SECTION("Should be Running until the duration passed, then succeed") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<Wait duration="1"/>)")) == "");
    REQUIRE(f.tick() == MbtStatus::kRunning);  // starts at t = 0
    REQUIRE(f.describe()["running"][0]["text"] == "1.000000 s left");
    REQUIRE(f.run(9) == MbtStatus::kRunning);
    REQUIRE(f.run(2) == MbtStatus::kSuccess);
  }
  SECTION("Should add 0..variation seconds, the same for the same seed") {
    auto finishes = [](uint64_t seed) {
      MbtFixture f;
      REQUIRE(f.load(tree(R"(<Wait duration="1" variation="2"/>)")) == "");
      f.library.bind(f.agent, "Test", f.host.view.id, seed);
      int ticks = 0;
      while (f.run(1) == MbtStatus::kRunning) ++ticks;
      return ticks;
    };
    const int a = finishes(1);
    REQUIRE(a >= 9);
    REQUIRE(a <= 31);
    REQUIRE(finishes(1) == a);
  }
  SECTION("Should wait forever with a negative duration (CryEngine's duration=\"-1\")") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<Wait duration="-1"/>)")) == "");
    REQUIRE(f.run(1000, 1.0) == MbtStatus::kRunning);
    REQUIRE(f.describe()["running"][0]["text"] == "forever");
  }
  SECTION("Should restart its timer after being terminated") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<Wait duration="1"/>)")) == "");
    f.run(5);
    f.agent.terminate(f.host);
    REQUIRE(f.agent.activeNodes() == 0);
    REQUIRE(f.run(9) == MbtStatus::kRunning);
  }
  SECTION("Should ignore events and require a duration") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<Wait duration="1"/>)")) == "");
    f.tick();
    f.event("Anything");
    REQUIRE(f.tick() == MbtStatus::kRunning);
    REQUIRE(f.load(tree("<Wait/>")) == "Test.xml:3: <Wait> needs attribute \"duration\"\n");
  }
}

TEST_CASE("Timeout fails after its duration", "[mbt][nodes][timeout]") {
  MbtFixture f;
  REQUIRE(f.load(tree(R"(<Parallel successMode="any">
  <Animate name="A"/>
  <Timeout duration="2"/>
</Parallel>)")) == "");
  SECTION("Should be Running before the duration and show the time left") {
    REQUIRE(f.run(5) == MbtStatus::kRunning);
    REQUIRE(f.describe()["running"][2]["text"] == "1.600000 s left");
  }
  SECTION("Should fail after the duration, bounding its Parallel siblings") {
    REQUIRE(f.run(21) == MbtStatus::kFailure);
    REQUIRE(f.host.last("Animate")->cancelled);
  }
  SECTION("Should not fail once a sibling succeeded first") {
    f.run(3);
    f.host.finish("Animate");
    REQUIRE(f.tick() == MbtStatus::kSuccess);
  }
  SECTION("Should be terminated with its Parallel and ignore events") {
    f.run(3);
    f.event("Go");
    f.agent.terminate(f.host);
    REQUIRE(f.agent.runtimeBytes() == 0);
  }
}

TEST_CASE("WaitForEvent waits for a named event while it runs", "[mbt][nodes][waitforevent]") {
  MbtFixture f;
  REQUIRE(f.load(tree(R"(<Sequence>
  <WaitForEvent name="OnEnemySeen"/>
  <Communicate name="ThereHeIs"/>
</Sequence>)")) == "");
  SECTION("Should be Running until the event arrives, then succeed") {
    REQUIRE(f.tick() == MbtStatus::kRunning);
    REQUIRE(f.describe()["running"][1]["text"] == "waiting for OnEnemySeen");
    f.event("OnSomethingElse");
    REQUIRE(f.tick() == MbtStatus::kRunning);
    f.event("OnEnemySeen");
    REQUIRE(f.tick() == MbtStatus::kRunning);
    REQUIRE(f.host.running("Communicate") == 1);
  }
  SECTION("Should miss events sent before it started") {
    f.event("OnEnemySeen");
    REQUIRE(f.tick() == MbtStatus::kRunning);
    REQUIRE(f.host.started("Communicate") == 0);
  }
  SECTION("Should forget a received event when terminated") {
    f.tick();
    f.event("OnEnemySeen");
    f.agent.terminate(f.host);
    f.tick();
    REQUIRE(f.host.started("Communicate") == 0);
  }
  SECTION("Should return Failure with result=\"Failure\"") {
    MbtFixture g;
    REQUIRE(g.load(tree(R"(<WaitForEvent name="Abort" result="Failure"/>)")) == "");
    g.tick();
    g.event("Abort");
    REQUIRE(g.tick() == MbtStatus::kFailure);
  }
}

TEST_CASE("AssertCondition succeeds or fails at once on a condition",
          "[mbt][nodes][assertcondition]") {
  MbtFixture f;
  REQUIRE(f.load(tree(R"(<AssertCondition condition="Ready"/>)", kVars)) == "");
  SECTION("Should fail while the condition is false") { REQUIRE(f.tick() == MbtStatus::kFailure); }
  SECTION("Should succeed once it holds") {
    f.event("MakeReady");
    REQUIRE(f.tick() == MbtStatus::kSuccess);
    REQUIRE(f.agent.activeNodes() == 0);  // never Running: nothing to terminate
  }
  SECTION("Should refuse undeclared variables and trailing tokens with lines") {
    REQUIRE(f.load(tree(R"(<AssertCondition condition="Ready and Steady"/>)", kVars)) ==
            "Test.xml:3: <AssertCondition> condition \"Ready and Steady\": unknown variable "
            "\"Steady\"\n");
    REQUIRE(f.load(tree(R"(<AssertCondition condition="Ready Steady"/>)", kVars)) ==
            "Test.xml:3: <AssertCondition> condition \"Ready Steady\": unexpected \"Steady\" "
            "after a complete expression\n");
  }
}

TEST_CASE("MonitorCondition runs until a condition holds", "[mbt][nodes][monitorcondition]") {
  SECTION("Should run until the condition holds (after an event), never failing") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<MonitorCondition condition="Ready"/>)", kVars)) == "");
    REQUIRE(f.run(10) == MbtStatus::kRunning);
    f.event("MakeReady");
    REQUIRE(f.tick() == MbtStatus::kSuccess);
  }
  SECTION("Should be terminated by its Parallel") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<Parallel successMode="any"><MonitorCondition condition="Ready"/><Animate name="A"/></Parallel>)",
                        kVars)) == "");
    f.tick();
    f.host.finish("Animate");
    REQUIRE(f.tick() == MbtStatus::kSuccess);
    REQUIRE(f.agent.activeNodes() == 0);
  }
}

TEST_CASE("Fail fails", "[mbt][nodes][fail]") {
  MbtFixture f;
  REQUIRE(f.load(tree("<Fail/>")) == "");
  SECTION("Should fail at once") { REQUIRE(f.tick() == MbtStatus::kFailure); }
  SECTION("Should take no children (a leaf in code, a decorator in CE5's docs)") {
    REQUIRE(f.load(tree("<Fail>\n<Halt/>\n</Fail>")) == "Test.xml:3: <Fail> takes no child nodes\n");
  }
}

TEST_CASE("Halt runs forever", "[mbt][nodes][halt]") {
  MbtFixture f;
  REQUIRE(f.load(tree("<Halt/>")) == "");
  SECTION("Should be Running forever, ignoring events") {
    f.tick();
    f.event("Anything");
    REQUIRE(f.run(100) == MbtStatus::kRunning);
    REQUIRE(f.agent.activeNodes() == 1);
  }
  SECTION("Should stop when terminated") {
    f.tick();
    f.agent.terminate(f.host);
    REQUIRE(f.agent.activeNodes() == 0);
  }
}

TEST_CASE("Log appends its message to the agent's log", "[mbt][nodes][log]") {
  MbtFixture f;
  REQUIRE(f.load(tree(R"(<Sequence><Log message="Now I should fight you!"/><Halt/></Sequence>)")) ==
          "");
  SECTION("Should log to the history and the host, then succeed") {
    REQUIRE(f.tick() == MbtStatus::kRunning);
    REQUIRE(f.host.logs == std::vector<std::string>{"Now I should fight you!"});
    REQUIRE(f.describe()["log"][0]["text"] == "Now I should fight you!");
    REQUIRE(f.describe()["log"][0]["line"] == 3);
    REQUIRE(f.runningPath() == "Sequence/Halt");
  }
  SECTION("Should need a message") {
    REQUIRE(f.load(tree("<Log/>")) == "Test.xml:3: <Log> needs attribute \"message\"\n");
  }
}

TEST_CASE("Breakpoint logs and goes on", "[mbt][nodes][breakpoint]") {
  MbtFixture f;
  REQUIRE(f.load(tree("<Sequence><Breakpoint/><Halt/></Sequence>")) == "");
  SECTION("Should log a breakpoint entry and succeed (a server does not stop)") {
    REQUIRE(f.tick() == MbtStatus::kRunning);
    REQUIRE(f.describe()["log"][0]["kind"] == "breakpoint");
    REQUIRE(f.host.logs == std::vector<std::string>{"breakpoint"});
  }
}

namespace {

const std::string kMachine = tree(R"(<StateMachine>
  <State name="A">
    <Transitions><Transition onEvent="ToB" to="B"/></Transitions>
    <BehaviorTree>
      <Sequence>
        <SendEvent name="MakeReady"/>
        <SendTransitionEvent name="ToB"/>
      </Sequence>
    </BehaviorTree>
  </State>
  <State name="B">
    <BehaviorTree><Animate name="InB"/></BehaviorTree>
  </State>
</StateMachine>)",
                                  kVars);

}  // namespace

TEST_CASE("SendEvent dispatches an event to the agent's own tree at once",
          "[mbt][nodes][sendevent]") {
  MbtFixture f;
  REQUIRE(f.load(kMachine) == "");
  SECTION("Should apply signal variables immediately and succeed") {
    f.tick();
    REQUIRE(f.agent.variable("Ready") == true);
    REQUIRE(f.host.signal_log.empty());  // events never leave the agent
  }
  SECTION("Should reach running nodes in the same tick") {
    MbtFixture g;
    REQUIRE(g.load(tree(R"(<Parallel><WaitForEvent name="Ping"/><SendEvent name="Ping"/></Parallel>)")) ==
            "");
    REQUIRE(g.tick() == MbtStatus::kRunning);
    REQUIRE(g.tick() == MbtStatus::kSuccess);
  }
}

TEST_CASE("SendTransitionEvent waits for the transition it triggers",
          "[mbt][nodes][sendtransitionevent]") {
  MbtFixture f;
  REQUIRE(f.load(kMachine) == "");
  SECTION("Should stay Running until its state machine switches on the next tick") {
    REQUIRE(f.tick() == MbtStatus::kRunning);
    REQUIRE(f.runningPath() == "StateMachine/Sequence/SendTransitionEvent");
    f.tick();
    REQUIRE(f.runningPath() == "StateMachine/Animate");
  }
  SECTION("Should be terminated with its state") {
    f.tick();
    f.agent.terminate(f.host);
    REQUIRE(f.agent.activeNodes() == 0);
  }
}

TEST_CASE("Signal sends a signal through the host (SendSignal is the same node)",
          "[mbt][nodes][signal][sendsignal]") {
  MbtFixture f;
  REQUIRE(f.load(tree(R"(<Sequence>
  <Signal name="GroupMemberEnteredCombat" filter="Group"/>
  <SendSignal name="Hello"/>
  <Signal name="Psst" filter="GroupExcludingSender"/>
</Sequence>)")) == "");
  SECTION("Should send with the filter as scope (Sender by default) and succeed") {
    REQUIRE(f.tick() == MbtStatus::kSuccess);
    REQUIRE(f.host.signal_log.size() == 3);
    REQUIRE(f.host.signal_log[0] ==
            std::make_pair(f.signal("GroupMemberEnteredCombat"), MbtSignalScope::kGroup));
    REQUIRE(f.host.signal_log[1] == std::make_pair(f.signal("Hello"), MbtSignalScope::kSelf));
    REQUIRE(f.host.signal_log[2] ==
            std::make_pair(f.signal("Psst"), MbtSignalScope::kGroupExcludingSender));
  }
  SECTION("Should refuse unknown filters") {
    REQUIRE(f.load(tree(R"(<Signal name="X" filter="Everyone"/>)")) ==
            "Test.xml:3: <Signal> filter \"Everyone\" is not one of: Sender, Group, "
            "GroupExcludingSender\n");
  }
}

TEST_CASE("SendTransitionSignal sends a signal and waits for the transition",
          "[mbt][nodes][sendtransitionsignal]") {
  MbtFixture f;
  REQUIRE(f.load(tree(R"(<StateMachine>
  <State name="A">
    <Transitions><Transition onEvent="GoTo_B" to="B"/></Transitions>
    <BehaviorTree><SendTransitionSignal name="GoTo_B" filter="Group"/></BehaviorTree>
  </State>
  <State name="B"><BehaviorTree><Halt/></BehaviorTree></State>
</StateMachine>)")) == "");
  SECTION("Should send once on entry and stay Running") {
    REQUIRE(f.tick() == MbtStatus::kRunning);
    REQUIRE(f.run(10) == MbtStatus::kRunning);
    REQUIRE(f.host.signal_log.size() == 1);
    REQUIRE(f.host.signal_log[0].second == MbtSignalScope::kGroup);
  }
  SECTION("Should be left when the signal comes back as the transition's event") {
    f.tick();
    f.event("GoTo_B");
    f.tick();
    REQUIRE(f.runningPath() == "StateMachine/Halt");
  }
  SECTION("Should be terminated like any node") {
    f.tick();
    f.agent.terminate(f.host);
    REQUIRE(f.agent.activeNodes() == 0);
  }
}
