// The node factory: game-specific nodes registered by name without touching the core,
// with their own runtime data, events, debug text and error reporting (seed 002,
// "Implementing an MBT Node"), replacing a standard node, and the standard Plan /
// ExecutePlan nodes against a scripted planner host.
#include <catch2/catch.hpp>

#include "mbt/load_context.h"
#include "mbt/log_router.h"
#include "mbt_test_support.h"

using namespace npc;
using namespace npc::test;

namespace {

struct CountData {
  int shots = 0;
};

// Fires `shots` bursts, one per tick; an "OnOutOfAmmo" event makes it fail.
class BurstFire : public MbtNodeT<CountData> {
 public:
  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    const auto shots = xml.count("shots", true, 100);
    out_of_ammo_ = ctx.signal("OnOutOfAmmo");
    if (shots) shots_ = static_cast<int>(*shots);
    return shots.has_value();
  }
  void debugText(const MbtContext& ctx, std::string& out) const override {
    out = std::to_string(data(ctx).shots) + "/" + std::to_string(shots_) + " shots";
  }
  static int live;

 protected:
  void onInitialize(MbtContext&) const override { ++live; }
  void onTerminate(MbtContext&) const override { --live; }
  MbtStatus update(MbtContext& ctx) const override {
    CountData& d = data(ctx);
    if (d.shots < 0) {
      MbtErrorReporter(*this, ctx).logError("out of ammo after ", std::to_string(-d.shots - 1));
      return MbtStatus::kFailure;
    }
    return ++d.shots == shots_ ? MbtStatus::kSuccess : MbtStatus::kRunning;
  }
  void handleEvent(MbtContext& ctx, SignalId event) const override {
    if (event == out_of_ammo_) data(ctx).shots = -data(ctx).shots - 1;
  }

 private:
  int shots_ = 1;
  SignalId out_of_ammo_ = SignalId::kNone;
};
int BurstFire::live = 0;

// A host with a scripted planner: requestPlan answers `plan_result`, executePlan answers
// `execute_result`; every call is recorded, with the planner it named.
class PlannerHost : public TestHost {
 public:
  using TestHost::TestHost;
  MbtPlanState requestPlan(std::string_view planner, std::string_view goal) override {
    goals.emplace_back(goal);
    planners.push_back("plan " + std::string(planner));
    return plan_result;
  }
  MbtPlanState executePlan(std::string_view planner) override {
    ++executes;
    planners.push_back("execute " + std::string(planner));
    return execute_result;
  }
  void stopPlan(std::string_view planner) override {
    ++stops;
    planners.push_back("stop " + std::string(planner));
  }

  std::vector<std::string> goals;
  std::vector<std::string> planners;
  MbtPlanState plan_result = MbtPlanState::kSucceeded;
  MbtPlanState execute_result = MbtPlanState::kRunning;
  int executes = 0, stops = 0;
};

// A game's own planning node, replacing the standard Plan.
class GamePlanNode : public MbtNode {
 public:
  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    goal_ = xml.name("goal", true).value_or("");
    return !goal_.empty();
  }

 protected:
  MbtStatus update(MbtContext& ctx) const override {
    static_cast<PlannerHost&>(ctx.host).goals.push_back("game:" + goal_);
    return MbtStatus::kSuccess;
  }

 private:
  std::string goal_;
};

}  // namespace

TEST_CASE("Custom nodes are registered by name and behave like standard ones",
          "[mbt][factory]") {
  MbtFixture f;
  REQUIRE(NPC_MBT_REGISTER_NODE(f.library.factory(), BurstFire));
  REQUIRE_FALSE(f.library.factory().add<BurstFire>("BurstFire"));  // taken
  REQUIRE(f.load(tree(R"(<Sequence><BurstFire shots="3"/><Halt/></Sequence>)")) == "");
  SECTION("Should get its own runtime data, created on entry and freed on leave") {
    REQUIRE(f.tick() == MbtStatus::kRunning);
    REQUIRE(BurstFire::live == 1);
    REQUIRE(f.describe()["running"][1]["text"] == "1/3 shots");
    f.run(2);
    REQUIRE(BurstFire::live == 0);
    REQUIRE(f.runningPath() == "Sequence/Halt");
  }
  SECTION("Should receive events and report errors with file, line and agent") {
    f.tick();
    f.event("OnOutOfAmmo");
    REQUIRE(f.tick() == MbtStatus::kFailure);
    REQUIRE(f.host.logs[0] == "Test.xml:3: <BurstFire> [agent 7]: out of ammo after 1");
    REQUIRE(BurstFire::live == 0);
  }
  SECTION("Should report its own load errors with the line") {
    REQUIRE(f.load(tree("<BurstFire/>")) == "Test.xml:3: <BurstFire> needs attribute \"shots\"\n");
    REQUIRE(f.load(tree(R"(<BurstFire shots="3" spread="2"/>)")) ==
            "Test.xml:3: warning: <BurstFire> unknown attribute \"spread\" is ignored\n");
  }
}

TEST_CASE("Plan and ExecutePlan reach the host's planner", "[mbt][plan]") {
  MbtLibrary library;
  REQUIRE(library.loadSources({{"T.xml", tree(R"(<Sequence><Plan goal="EatFood"/><ExecutePlan/><Plan/></Sequence>)")}})
              .text() == "");
  PlannerHost host(library.names());
  MbtInstance agent;
  library.bind(agent, "T", host.view.id, 1);
  SECTION("Should plan for the goal, run while the plan runs, then go on") {
    REQUIRE(agent.tick(host) == MbtStatus::kRunning);
    REQUIRE(host.goals == std::vector<std::string>{"EatFood"});
    REQUIRE(host.executes == 1);
    host.execute_result = MbtPlanState::kSucceeded;
    REQUIRE(agent.tick(host) == MbtStatus::kSuccess);
    // The last Plan has no goal: the planner's own goal selection picks.
    REQUIRE(host.goals == std::vector<std::string>{"EatFood", ""});
  }
  SECTION("Should fail when there is no plan, without executing") {
    host.plan_result = MbtPlanState::kFailed;
    REQUIRE(agent.tick(host) == MbtStatus::kFailure);
    REQUIRE(host.executes == 0);
  }
  SECTION("Should fail when the plan fails") {
    host.execute_result = MbtPlanState::kFailed;
    REQUIRE(agent.tick(host) == MbtStatus::kFailure);
  }
  SECTION("Should stop the plan when the tree leaves ExecutePlan") {
    REQUIRE(agent.tick(host) == MbtStatus::kRunning);
    agent.terminate(host);
    REQUIRE(host.stops == 1);
  }
  SECTION("Should fail on a host without a planner") {
    TestHost plain(library.names());
    MbtInstance other;
    library.bind(other, "T", plain.view.id, 1);
    REQUIRE(other.tick(plain) == MbtStatus::kFailure);
  }
}

TEST_CASE("Plan and ExecutePlan name one of several planners", "[mbt][plan]") {
  MbtLibrary library;
  REQUIRE(library.loadSources({{"T.xml", tree(R"(<Sequence>
      <Plan planner="gunnery" goal="Broadside"/><ExecutePlan planner="gunnery"/>
      <Plan/><ExecutePlan/></Sequence>)")}}).text() == "");
  PlannerHost host(library.names());
  MbtInstance agent;
  library.bind(agent, "T", host.view.id, 1);
  host.execute_result = MbtPlanState::kSucceeded;
  REQUIRE(agent.tick(host) == MbtStatus::kSuccess);
  // Without the attribute the nodes drive the agent's first planner (""); each ExecutePlan
  // stops its own planner's step when it is left.
  REQUIRE(host.planners == std::vector<std::string>{"plan gunnery", "execute gunnery", "stop gunnery",
                                                    "plan ", "execute ", "stop "});
  REQUIRE(host.goals == std::vector<std::string>{"Broadside", ""});
}

TEST_CASE("A game may replace a standard node", "[mbt][factory]") {
  MbtLibrary library;
  SECTION("Should refuse add() for a taken name and replace it with set()") {
    REQUIRE_FALSE(library.factory().add<GamePlanNode>("Plan"));
    library.factory().set<GamePlanNode>("Plan");
    REQUIRE(library.loadSources({{"T.xml", tree(R"(<Plan goal="EatFood"/>)")}}).text() == "");
    PlannerHost host(library.names());
    MbtInstance agent;
    library.bind(agent, "T", host.view.id, 1);
    REQUIRE(agent.tick(host) == MbtStatus::kSuccess);
    REQUIRE(host.goals == std::vector<std::string>{"game:EatFood"});
  }
  SECTION("Should use a replacement registered with set() for QueryTPS too") {
    library.factory().set("QueryTPS", [] { return std::make_unique<GamePlanNode>(); });
    REQUIRE(library.loadSources({{"T.xml", tree(R"(<QueryTPS goal="X"/>)")}}).text() == "");
  }
}
