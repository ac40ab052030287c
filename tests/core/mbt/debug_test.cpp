// Logging (_startLog/_successLog/_failureLog, the per-agent history), root finishes and the
// debug view (seed 002, "Debugging and Tree Visualization", "Logging and Tracing").
#include <catch2/catch.hpp>

#include <string>
#include <tuple>
#include <vector>

#include "mbt_test_support.h"

using namespace npc;
using namespace npc::test;

TEST_CASE("Reserved log attributes go to the agent's history and the host",
          "[mbt][debug][log]") {
  MbtFixture f;
  REQUIRE(f.load(tree(R"(<Sequence>
  <QueryTPS name="CoverFromTarget" register="Cover" _startLog="Finding cover" _failureLog="Failed to find cover"/>
  <Halt/>
</Sequence>)")) == "");
  SECTION("Should log _startLog on entry and _failureLog when it fails") {
    f.tick();
    REQUIRE(f.host.logs[0] == "Finding cover");
    REQUIRE(f.host.logs[1] == "Failed to find cover");
    const nlohmann::json log = f.describe()["log"];
    REQUIRE(log[0]["kind"] == "start");
    REQUIRE(log[1]["kind"] == "failure");
    REQUIRE(log[1]["line"] == 4);
    REQUIRE(log[1]["type"] == "QueryTPS");
  }
  SECTION("Should log _successLog when it succeeds") {
    MbtFixture g;
    REQUIRE(g.load(tree(R"(<Sequence><Move to="1,1,1" _successLog="Advanced" _failureLog="Failed to advance"/><Halt/></Sequence>)")) ==
            "");
    g.tick();
    g.host.finish("Move");
    g.tick();
    REQUIRE(g.host.logs == std::vector<std::string>{"Advanced"});
  }
  SECTION("Should keep only the most recent entries") {
    MbtFixture g;
    REQUIRE(g.load(tree(R"(<Loop><Log message="tick"/></Loop>)")) == "");
    for (int i = 0; i < 40; ++i) g.tick();
    REQUIRE(g.describe()["log"].size() == kMbtLogHistory);
    REQUIRE(g.agent.logCount() == kMbtLogHistory);
  }
}

TEST_CASE("A finished root is logged with the nodes that just finished, then reboots",
          "[mbt][debug][root]") {
  MbtFixture f;
  f.host.view.name = "HumanSoldier";
  REQUIRE(f.load(R"(<BehaviorTree>
<Root>
<Sequence>
  <Selector>
    <Move to="Target"/>
  </Selector>
</Sequence>
</Root>
</BehaviorTree>)") == "");
  SECTION("Should log the seed's message with (line) Type of the finished nodes") {
    REQUIRE(f.tick() == MbtStatus::kFailure);
    const std::string message =
        "Modular Behavior Tree: The root node for entity 'HumanSoldier' FAILED. Rebooting the "
        "tree next frame. (5) Move. (4) Selector. (3) Sequence.";
    REQUIRE(f.host.logs.back() == message);
    REQUIRE(f.describe()["last_root_finish"] == message);
    REQUIRE(f.describe()["root_finishes"] == 1);
  }
  SECTION("Should start the tree again on the next tick") {
    f.tick();
    f.host.seeTarget(EntityId{2}, {1, 0, 0});
    REQUIRE(f.tick() == MbtStatus::kRunning);
    REQUIRE(f.runningPath() == "Sequence/Selector/Move");
  }
  SECTION("Should stop instead with onRootFinished=\"stop\", until restarted") {
    MbtFixture g;
    REQUIRE(g.load(R"(<BehaviorTree onRootFinished="stop"><Root><Log message="once"/></Root></BehaviorTree>)") ==
            "");
    REQUIRE(g.tick() == MbtStatus::kSuccess);
    REQUIRE(g.host.logs.back() ==
            "Modular Behavior Tree: The root node for entity 'agent 7' SUCCEEDED. Stopping the "
            "tree. (1) Log.");
    REQUIRE(g.agent.stopped());
    REQUIRE(g.tick() == MbtStatus::kFailure);
    REQUIRE(g.host.logs.size() == 2);
    g.agent.restart();
    REQUIRE(g.tick() == MbtStatus::kSuccess);
  }
}

TEST_CASE("The debug view shows the running path with lines and custom text",
          "[mbt][debug][describe]") {
  MbtFixture f;
  REQUIRE(f.load(tree(R"(<StateMachine>
  <State name="Combat">
    <BehaviorTree>
      <Parallel successMode="any">
        <WaitForEvent name="OnAssignmentReset"/>
        <Timeout duration="10"/>
        <LimitConcurrentUsers max="2"><Move to="1,2,3"/></LimitConcurrentUsers>
      </Parallel>
    </BehaviorTree>
  </State>
</StateMachine>)",
                      R"(<Variables><Variable name="Armed" default="true"/></Variables>
<Timestamps><Timestamp name="Hit" setOnEvent="OnHit"/></Timestamps>
)")) == "");
  f.host.now = 1.0;
  f.tick();
  f.event("OnHit");
  f.host.now = 3.0;
  const nlohmann::json view = f.describe();
  SECTION("Should list running nodes root first with depth, line, type and text") {
    const nlohmann::json expected = nlohmann::json::parse(R"([
      {"depth": 0, "line": 3, "type": "StateMachine", "text": "state Combat"},
      {"depth": 1, "line": 6, "type": "Parallel", "text": "0 succeeded, 0 failed of 3"},
      {"depth": 2, "line": 7, "type": "WaitForEvent", "text": "waiting for OnAssignmentReset"},
      {"depth": 2, "line": 8, "type": "Timeout", "text": "8.000000 s left"},
      {"depth": 2, "line": 9, "type": "LimitConcurrentUsers",
       "text": "scope LimitConcurrentUsers@Test.xml:9: inside, 1/2 users"},
      {"depth": 3, "line": 9, "type": "Move", "text": "waiting 2.000000 s"}
    ])");
    REQUIRE(view["running"] == expected);
  }
  SECTION("Should show variables, timestamps and memory") {
    REQUIRE(view["tree"] == "Test");
    REQUIRE(view["variables"]["Armed"] == true);
    REQUIRE(view["timestamps"]["Hit"]["elapsed_s"] == 2.0);
    REQUIRE(view["memory"]["running_nodes"] == 6);
    REQUIRE(view["memory"]["bytes"].get<size_t>() >= view["memory"]["runtime_bytes"].get<size_t>());
    REQUIRE(view["memory"]["slots"] == 6);
  }
  SECTION("Should describe an unbound instance as having no tree") {
    MbtInstance none;
    REQUIRE(f.library.describe(none, 0)["tree"].is_null());
  }
}

TEST_CASE("The debug view lists every node with its parent, line and running state",
          "[mbt][debug][describe]") {
  MbtFixture f;
  REQUIRE(f.load(tree(R"(<Selector>
  <Sequence>
    <WaitForEvent name="Never"/>
    <Log message="unreached"/>
  </Sequence>
  <Timeout duration="10"/>
</Selector>)")) == "");
  f.tick();
  const nlohmann::json nodes = f.describe()["nodes"];
  SECTION("Should give the whole tree in pre-order, parents by index") {
    REQUIRE(nodes.size() == 5);
    const std::vector<std::tuple<int, int, int, std::string>> expected = {
        {-1, 0, 3, "Selector"}, {0, 1, 4, "Sequence"}, {1, 2, 5, "WaitForEvent"},
        {1, 2, 6, "Log"},       {0, 1, 8, "Timeout"}};
    for (size_t i = 0; i < expected.size(); ++i) {
      const auto& [parent, depth, line, type] = expected[i];
      INFO("node " << i);
      REQUIRE(nodes[i]["index"] == i);
      REQUIRE(nodes[i]["parent"] == parent);
      REQUIRE(nodes[i]["depth"] == depth);
      REQUIRE(nodes[i]["line"] == line);
      REQUIRE(nodes[i]["type"] == type);
    }
  }
  SECTION("Should mark the running branch and give its nodes' text") {
    REQUIRE(nodes[0]["running"] == true);
    REQUIRE(nodes[1]["running"] == true);
    REQUIRE(nodes[2]["running"] == true);
    REQUIRE(nodes[2]["text"] == "waiting for Never");
    REQUIRE(nodes[3]["running"] == false);
    REQUIRE(nodes[4]["running"] == false);
    REQUIRE_FALSE(nodes[4].contains("text"));
  }
}
