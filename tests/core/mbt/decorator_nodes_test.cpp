// Loop, LoopUntilSuccess, SuppressFailure, RandomGate, IfCondition, GroupScope and
// LimitConcurrentUsers (BT-REFERENCE.md §2a–2b).
#include <catch2/catch.hpp>

#include "mbt_test_support.h"

using namespace npc;
using namespace npc::test;

TEST_CASE("Loop repeats its child until it fails or count is reached", "[mbt][nodes][loop]") {
  SECTION("Should succeed after count successes") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<Loop count="3"><Animate name="A"/></Loop>)")) == "");
    for (int i = 0; i < 2; ++i) {
      REQUIRE(f.tick() == MbtStatus::kRunning);
      f.host.finish("Animate");
    }
    REQUIRE(f.tick() == MbtStatus::kRunning);
    f.host.finish("Animate");
    REQUIRE(f.tick() == MbtStatus::kSuccess);
    REQUIRE(f.host.started("Animate") == 3);
  }
  SECTION("Should fail as soon as the child fails") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<Loop><Animate name="A"/></Loop>)")) == "");
    f.tick();
    f.host.finish("Animate", false);
    REQUIRE(f.tick() == MbtStatus::kFailure);
  }
  SECTION("Should restart a child that was running in the same tick") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<Loop><Animate name="A"/></Loop>)")) == "");
    f.tick();
    f.host.finish("Animate");
    REQUIRE(f.tick() == MbtStatus::kRunning);
    REQUIRE(f.host.running("Animate") == 1);
    REQUIRE(f.host.started("Animate") == 2);
  }
  SECTION("Should run an instantly succeeding child once per tick, not forever") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<Loop><Log message="again"/></Loop>)")) == "");
    for (int i = 0; i < 5; ++i) REQUIRE(f.tick() == MbtStatus::kRunning);
    REQUIRE(f.host.logs.size() == 5);
  }
  SECTION("Should terminate the child when interrupted and show its iteration") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<Loop count="4"><Animate name="A"/></Loop>)")) == "");
    f.tick();
    f.host.finish("Animate");
    f.tick();
    REQUIRE(f.describe()["running"][0]["text"] == "iteration 2 of 4");
    f.agent.terminate(f.host);
    REQUIRE(f.host.last("Animate")->cancelled);
  }
  SECTION("Should pass events to its child") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<Loop count="2"><WaitForEvent name="Go"/></Loop>)")) == "");
    f.tick();
    f.event("Go");
    REQUIRE(f.tick() == MbtStatus::kRunning);
    f.event("Go");
    REQUIRE(f.tick() == MbtStatus::kSuccess);
  }
  SECTION("Should refuse a count that is not a whole number") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<Loop count="two"><Halt/></Loop>)")) ==
            "Test.xml:3: <Loop> count \"two\" is not a whole number\n");
  }
}

TEST_CASE("LoopUntilSuccess retries its child until it succeeds",
          "[mbt][nodes][loopuntilsuccess]") {
  MbtFixture f;
  REQUIRE(f.load(tree(R"(<LoopUntilSuccess attemptCount="2"><Animate name="A"/></LoopUntilSuccess>)")) ==
          "");
  SECTION("Should succeed when the child succeeds") {
    f.tick();
    f.host.finish("Animate", false);
    REQUIRE(f.tick() == MbtStatus::kRunning);  // retried in the same tick
    f.host.finish("Animate");
    REQUIRE(f.tick() == MbtStatus::kSuccess);
  }
  SECTION("Should fail after attemptCount failures") {
    f.tick();
    f.host.finish("Animate", false);
    f.tick();
    f.host.finish("Animate", false);
    REQUIRE(f.tick() == MbtStatus::kFailure);
    REQUIRE(f.host.started("Animate") == 2);
  }
  SECTION("Should terminate the child when interrupted") {
    f.tick();
    f.agent.terminate(f.host);
    REQUIRE(f.host.last("Animate")->cancelled);
  }
  SECTION("Should pass events to its child") {
    MbtFixture g;
    REQUIRE(g.load(tree(R"(<LoopUntilSuccess><WaitForEvent name="Go"/></LoopUntilSuccess>)")) == "");
    g.tick();
    g.event("Go");
    REQUIRE(g.tick() == MbtStatus::kSuccess);
  }
}

TEST_CASE("SuppressFailure turns a finished child into Success", "[mbt][nodes][suppressfailure]") {
  MbtFixture f;
  REQUIRE(f.load(tree(R"(<SuppressFailure><Animate name="A"/></SuppressFailure>)")) == "");
  SECTION("Should pass Running through") { REQUIRE(f.tick() == MbtStatus::kRunning); }
  SECTION("Should succeed when the child fails") {
    f.tick();
    f.host.finish("Animate", false);
    REQUIRE(f.tick() == MbtStatus::kSuccess);
  }
  SECTION("Should succeed when the child succeeds") {
    f.tick();
    f.host.finish("Animate");
    REQUIRE(f.tick() == MbtStatus::kSuccess);
  }
  SECTION("Should terminate the child when interrupted") {
    f.tick();
    f.agent.terminate(f.host);
    REQUIRE(f.host.last("Animate")->cancelled);
  }
  SECTION("Should pass events to its child") {
    MbtFixture g;
    REQUIRE(g.load(tree(R"(<SuppressFailure><WaitForEvent name="Go" result="Failure"/></SuppressFailure>)")) ==
            "");
    g.tick();
    g.event("Go");
    REQUIRE(g.tick() == MbtStatus::kSuccess);
  }
}

TEST_CASE("RandomGate opens with a chance drawn from the agent's seeded stream",
          "[mbt][nodes][randomgate]") {
  SECTION("Should always open at 1 and never at 0 (values are clamped)") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<Sequence>
  <RandomGate opensWithChance="3"><Log message="open"/></RandomGate>
  <Selector><RandomGate opensWithChance="-1"><Log message="never"/></RandomGate><Halt/></Selector>
</Sequence>)")) == "");
    REQUIRE(f.tick() == MbtStatus::kRunning);
    REQUIRE(f.host.logs == std::vector<std::string>{"open"});
  }
  SECTION("Should open about half the time at 0.5, identically for the same seed") {
    auto count = [](uint64_t seed) {
      MbtLibrary library;
      REQUIRE(library.loadSources({{"T.xml", tree(R"(<Loop><SuppressFailure><RandomGate opensWithChance="0.5"><Log message="x"/></RandomGate></SuppressFailure></Loop>)")}}).ok());
      TestHost host(library.names());
      MbtInstance agent;
      library.bind(agent, "T", host.view.id, seed);
      for (int i = 0; i < 1000; ++i) agent.tick(host);
      return host.logs.size();
    };
    const size_t opened = count(42);
    REQUIRE(opened > 430);
    REQUIRE(opened < 570);
    REQUIRE(count(42) == opened);
    REQUIRE(count(43) != opened);
  }
  SECTION("Should roll once on entry, then run and terminate its child") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<RandomGate opensWithChance="1"><Animate name="A"/></RandomGate>)")) == "");
    REQUIRE(f.tick() == MbtStatus::kRunning);
    REQUIRE(f.describe()["running"][0]["text"] == "open");
    f.agent.terminate(f.host);
    REQUIRE(f.host.last("Animate")->cancelled);
  }
  SECTION("Should pass events to its child") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<RandomGate opensWithChance="1"><WaitForEvent name="Go"/></RandomGate>)")) == "");
    f.tick();
    f.event("Go");
    REQUIRE(f.tick() == MbtStatus::kSuccess);
  }
}

TEST_CASE("IfCondition gates its child on a condition checked on entry",
          "[mbt][nodes][ifcondition]") {
  const std::string vars = R"(<Variables><Variable name="Armed"/></Variables>
<SignalVariables><Signal name="Arm" variable="Armed" value="true"/>
<Signal name="Disarm" variable="Armed" value="!Armed"/></SignalVariables>
)";
  MbtFixture f;
  REQUIRE(f.load(tree(R"(<IfCondition condition="!Armed"><Animate name="A"/></IfCondition>)", vars)) ==
          "");
  SECTION("Should run the child while the condition holds on entry") {
    REQUIRE(f.tick() == MbtStatus::kRunning);
    f.host.finish("Animate");
    REQUIRE(f.tick() == MbtStatus::kSuccess);
  }
  SECTION("Should fail without running the child when the condition is false") {
    f.event("Arm");
    REQUIRE(f.tick() == MbtStatus::kFailure);
    REQUIRE(f.host.started("Animate") == 0);
  }
  SECTION("Should not re-check the condition while the child runs") {
    f.tick();
    f.event("Arm");
    REQUIRE(f.tick() == MbtStatus::kRunning);
  }
  SECTION("Should terminate its child when interrupted") {
    f.tick();
    f.agent.terminate(f.host);
    REQUIRE(f.host.last("Animate")->cancelled);
  }
  SECTION("Should pass events to its child and warn about the deprecated equalTo") {
    MbtFixture g;
    REQUIRE(g.load(tree(R"(<IfCondition condition="Armed" equalTo="false"><WaitForEvent name="Go"/></IfCondition>)",
                        vars)) ==
            "Test.xml:3: warning: <IfCondition> equalTo is deprecated: write the comparison in the "
            "condition\n");
    g.tick();
    g.event("Go");
    REQUIRE(g.tick() == MbtStatus::kSuccess);
  }
}

TEST_CASE("GroupScope limits how many agents of a group run its child",
          "[mbt][nodes][groupscope]") {
  MbtLibrary library;
  REQUIRE(library.loadSources({{"Scope.xml", tree(R"(<Selector>
  <GroupScope name="Alarm" allowedConcurrentUsers="2">
    <Animate name="SoundAlarm"/>
  </GroupScope>
  <Communicate name="Taunt"/>
</Selector>)")}}).ok());
  std::vector<TestHost> hosts;
  for (int i = 0; i < 4; ++i) {
    hosts.emplace_back(library.names());
    hosts.back().view.id = static_cast<EntityId>(i + 1);
  }
  std::vector<MbtInstance> agents(4);
  for (int i = 0; i < 4; ++i) library.bind(agents[i], "Scope", hosts[i].view.id, 1);
  const GroupScopeId alarm = library.groupScopes().find("Alarm");
  SECTION("Should let allowedConcurrentUsers agents in and fail the others") {
    for (int i = 0; i < 4; ++i) agents[i].tick(hosts[i]);
    REQUIRE(hosts[0].running("Animate") == 1);
    REQUIRE(hosts[1].running("Animate") == 1);
    REQUIRE(hosts[2].running("Communicate") == 1);
    REQUIRE(hosts[3].running("Communicate") == 1);
    REQUIRE(library.groupScopes().users(alarm, 0) == 2);
  }
  SECTION("Should count groups separately") {
    hosts[2].view.group = 5;
    for (int i = 0; i < 4; ++i) agents[i].tick(hosts[i]);
    REQUIRE(hosts[2].running("Animate") == 1);
    REQUIRE(hosts[3].running("Communicate") == 1);
  }
  SECTION("Should leave the scope when its child finishes or it is terminated") {
    for (int i = 0; i < 4; ++i) agents[i].tick(hosts[i]);
    hosts[0].finish("Animate");
    agents[0].tick(hosts[0]);
    REQUIRE(library.groupScopes().users(alarm, 0) == 1);
    agents[1].terminate(hosts[1]);
    REQUIRE(hosts[1].last("Animate")->cancelled);
    REQUIRE(library.groupScopes().users(alarm, 0) == 0);
    agents[3].terminate(hosts[3]);
    agents[3].tick(hosts[3]);
    REQUIRE(hosts[3].running("Animate") == 1);
  }
  SECTION("Should release the scope when an agent is destroyed") {
    agents[0].tick(hosts[0]);
    REQUIRE(library.groupScopes().users(alarm, 0) == 1);
    agents[0] = MbtInstance();
    REQUIRE(library.groupScopes().users(alarm, 0) == 0);
  }
  SECTION("Should pass events to its child") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<GroupScope name="S"><WaitForEvent name="Go"/></GroupScope>)")) == "");
    f.tick();
    f.event("Go");
    REQUIRE(f.tick() == MbtStatus::kSuccess);
  }
}

TEST_CASE("LimitConcurrentUsers is the seed's spelling of GroupScope",
          "[mbt][nodes][limitconcurrentusers]") {
  MbtLibrary library;
  REQUIRE(library.loadSources({{"Monsters.xml", tree(R"(<Selector>
  <LimitConcurrentUsers max="1">
    <Move to="Target"/>
  </LimitConcurrentUsers>
  <Animate name="TauntPlayer"/>
</Selector>)")}}).text() == "");
  SECTION("Should let one monster chase while the others taunt") {
    std::vector<TestHost> hosts;
    std::vector<MbtInstance> monsters(3);
    for (int i = 0; i < 3; ++i) {
      hosts.emplace_back(library.names());
      hosts.back().view.id = static_cast<EntityId>(i + 1);
      hosts.back().seeTarget(EntityId{100}, {5, 5, 0});
    }
    for (int i = 0; i < 3; ++i) {
      library.bind(monsters[i], "Monsters", hosts[i].view.id, 1);
      monsters[i].tick(hosts[i]);
    }
    REQUIRE(hosts[0].running("Move") == 1);
    REQUIRE(hosts[1].running("Animate") == 1);
    REQUIRE(hosts[2].running("Animate") == 1);
    REQUIRE(library.groupScopes().totalUsers() == 1);
  }
  SECTION("Should require max") {
    REQUIRE(library.loadSources({{"Bad.xml", tree("<LimitConcurrentUsers><Halt/></LimitConcurrentUsers>")}})
                .text() == "Bad.xml:3: <LimitConcurrentUsers> needs attribute \"max\"\n");
  }
}
