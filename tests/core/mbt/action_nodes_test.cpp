// Action nodes: requests to the host that run until the client reports back
// (BT-REFERENCE.md §2b), and QueryTPS.
#include <catch2/catch.hpp>

#include "mbt_test_support.h"

using namespace npc;
using namespace npc::test;

namespace {

// Parameter `name` of an action, or nullptr.
const MbtActionParam* param(MbtFixture& f, const TestHost::Action& a, const std::string& name) {
  for (const MbtActionParam& p : a.request.activeParams()) {
    if (f.library.names().name(p.name) == name) return &p;
  }
  return nullptr;
}

std::string text(MbtFixture& f, const MbtActionParam* p) {
  return p && p->type == MbtActionParam::Type::kText ? f.library.names().name(p->text) : "";
}

// The life of an action node that waits for the client, as SECTIONs of the caller's test.
void waitingAction(const std::string& xml, const std::string& action) {
  MbtFixture f;
  f.host.seeTarget(EntityId{9}, {3, 0, 0});
  REQUIRE(f.load(tree(xml)) == "");
  SECTION("Should be Running until the client reports back") {
    REQUIRE(f.tick() == MbtStatus::kRunning);
    REQUIRE(f.host.running(action) == 1);
    REQUIRE(f.run(20) == MbtStatus::kRunning);
    REQUIRE(f.host.started(action) == 1);
  }
  SECTION("Should succeed when the client completes it") {
    f.tick();
    REQUIRE(f.host.finish(action));
    REQUIRE(f.tick() == MbtStatus::kSuccess);
  }
  SECTION("Should fail when the client fails it") {
    f.tick();
    REQUIRE(f.host.finish(action, false));
    REQUIRE(f.tick() == MbtStatus::kFailure);
  }
  SECTION("Should cancel the action when interrupted") {
    f.tick();
    f.agent.terminate(f.host);
    REQUIRE(f.host.last(action)->cancelled);
    REQUIRE(f.agent.runtimeBytes() == 0);
  }
  SECTION("Should ignore events") {
    f.tick();
    f.event("OnEnemySeen");
    REQUIRE(f.tick() == MbtStatus::kRunning);
  }
}

// The life of a fire-and-forget action node.
void instantAction(const std::string& xml, const std::string& action) {
  MbtFixture f;
  REQUIRE(f.load(tree(xml)) == "");
  SECTION("Should send the action and succeed in the same tick") {
    REQUIRE(f.tick() == MbtStatus::kSuccess);
    REQUIRE(f.host.started(action) == 1);
    REQUIRE_FALSE(f.host.last(action)->request.waits);
  }
  SECTION("Should fail when the host cannot start it") {
    f.host.refuse_actions = true;
    REQUIRE(f.tick() == MbtStatus::kFailure);
  }
  SECTION("Should never be cancelled, even when its parent is interrupted") {
    MbtFixture g;
    REQUIRE(g.load(tree("<Sequence>" + xml + "<Halt/></Sequence>")) == "");
    g.tick();
    g.event("OnEnemySeen");
    g.agent.terminate(g.host);
    REQUIRE_FALSE(g.host.last(action)->cancelled);
  }
}

}  // namespace

TEST_CASE("Move runs until the client reports arrival or failure", "[mbt][nodes][move]") {
  MbtFixture f;
  REQUIRE(f.load(tree(R"(<Move to="Target" speed="Run" stance="Stand" stopWithinDistance="10" avoidDangers="0"/>)")) ==
          "");
  f.host.seeTarget(EntityId{42}, {10, 20, 0});
  SECTION("Should request Move with typed parameters and wait") {
    REQUIRE(f.tick() == MbtStatus::kRunning);
    const TestHost::Action& move = *f.host.last("Move");
    REQUIRE(move.request.param_count == 5);
    const MbtActionParam* to = param(f, move, "to");
    REQUIRE(to->type == MbtActionParam::Type::kEntity);
    REQUIRE(to->entity == EntityId{42});
    REQUIRE(to->position == Vec3{10, 20, 0});
    REQUIRE(text(f, param(f, move, "speed")) == "Run");
    REQUIRE(param(f, move, "stopWithinDistance")->number == 10.0);
    REQUIRE(f.library.names().name(param(f, move, "stopWithinDistance")->unit) == "m");
    REQUIRE(param(f, move, "avoidDangers")->number == 0.0);
    REQUIRE(f.run(5) == MbtStatus::kRunning);
  }
  SECTION("Should succeed on arrival and fail when the client reports failure") {
    f.tick();
    f.host.finish("Move");
    REQUIRE(f.tick() == MbtStatus::kSuccess);
    f.tick();
    f.host.finish("Move", false);
    REQUIRE(f.tick() == MbtStatus::kFailure);
  }
  SECTION("Should cancel the action when interrupted") {
    f.tick();
    f.agent.terminate(f.host);
    REQUIRE(f.host.last("Move")->cancelled);
  }
  SECTION("Should fail with a logged reason when there is no attention target") {
    f.host.view.target_class = MbtTargetClass::kNone;
    REQUIRE(f.tick() == MbtStatus::kFailure);
    REQUIRE(f.host.started("Move") == 0);
    REQUIRE(f.host.logs[0] ==
            "Test.xml:3: <Move> [agent 7]: cannot start: the agent has no attention target");
  }
  SECTION("Should fail when the host cannot start it") {
    f.host.refuse_actions = true;
    REQUIRE(f.tick() == MbtStatus::kFailure);
    REQUIRE(f.host.logged("the host could not start the action"));
  }
  SECTION("Should ignore events") {
    f.tick();
    f.event("OnEnemySeen");
    REQUIRE(f.tick() == MbtStatus::kRunning);
  }
}

TEST_CASE("Move targets: RefPoint, Cover, InitialPosition, an entity or a position",
          "[mbt][nodes][move]") {
  MbtFixture f;
  f.host.view.home = {1, 2, 3};
  REQUIRE(f.load(tree(R"(<Sequence>
  <Move to="InitialPosition"/>
  <Move to="entity:55"/>
  <Move to="4, 5.5, 6"/>
  <Move to="RefPoint"/>
</Sequence>)")) == "");
  f.tick();
  REQUIRE(f.host.last("Move")->request.params[0].position == Vec3{1, 2, 3});
  f.host.finish("Move");
  f.tick();
  REQUIRE(f.host.last("Move")->request.params[0].entity == EntityId{55});
  f.host.finish("Move");
  f.tick();
  REQUIRE(f.host.last("Move")->request.params[0].position == Vec3{4, 5.5f, 6});
  f.host.finish("Move");
  SECTION("Should fail for a RefPoint nobody set") {
    REQUIRE(f.tick() == MbtStatus::kFailure);
    REQUIRE(f.host.logs[0] == "Test.xml:7: <Move> [agent 7]: cannot start: the agent has no "
                              "RefPoint (run a QueryTPS first)");
  }
  SECTION("Should go to the RefPoint once set") {
    f.agent.setRegister(MbtRegister::kRefPoint, {9, 9, 9});
    REQUIRE(f.tick() == MbtStatus::kRunning);
    REQUIRE(f.host.last("Move")->request.params[0].position == Vec3{9, 9, 9});
  }
  SECTION("Should refuse targets it does not know, with the line") {
    REQUIRE(f.load(tree(R"(<Move to="Somewhere"/>)")) ==
            "Test.xml:3: <Move> to \"Somewhere\" is not a target (Target, RefPoint, LastOp, "
            "Cover, InitialPosition, entity:<id> or x,y,z)\n");
    REQUIRE(f.load(tree(R"(<Move speed="Run"/>)")) == "Test.xml:3: <Move> needs attribute \"to\"\n");
  }
}

TEST_CASE("Animate plays an animation until the client reports", "[mbt][nodes][animate]") {
  waitingAction(R"(<Animate name="ZZ_AI_idleBreak" loop="0" urgent="1"/>)", "Animate");
  SECTION("Should send its name and flags") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<Animate name="AI_SearchLookAround" loop="1"/>)")) == "");
    f.tick();
    REQUIRE(text(f, param(f, f.host.actions[0], "name")) == "AI_SearchLookAround");
    REQUIRE(param(f, f.host.actions[0], "loop")->number == 1.0);
  }
}

TEST_CASE("Look looks at a target until interrupted or done", "[mbt][nodes][look]") {
  waitingAction(R"(<Look at="Target"/>)", "Look");
}

TEST_CASE("Aim aims at a target", "[mbt][nodes][aim]") {
  waitingAction(R"(<Aim at="Target" angleThreshold="5" durationOnceWithinThreshold="forever"/>)",
                "Aim");
  SECTION("Should encode \"forever\" as -1 and angles in degrees") {
    MbtFixture f;
    f.host.seeTarget(EntityId{9}, {3, 0, 0});
    REQUIRE(f.load(tree(R"(<Aim at="Target" angleThreshold="5" durationOnceWithinThreshold="forever"/>)")) == "");
    f.tick();
    REQUIRE(param(f, f.host.actions[0], "durationOnceWithinThreshold")->number == -1.0);
    REQUIRE(f.library.names().name(param(f, f.host.actions[0], "angleThreshold")->unit) == "deg");
  }
}

TEST_CASE("Shoot fires at a target", "[mbt][nodes][shoot]") {
  waitingAction(R"(<Shoot at="Target" fireMode="Burst" stance="Stand" duration="2.0"/>)", "Shoot");
  SECTION("Should send the target entity, fire mode and duration") {
    MbtFixture f;
    f.host.seeTarget(EntityId{9}, {3, 0, 0});
    REQUIRE(f.load(tree(R"(<Shoot at="Target" fireMode="Burst" duration="2.0"/>)")) == "");
    f.tick();
    const TestHost::Action& shoot = f.host.actions[0];
    REQUIRE(param(f, shoot, "at")->entity == EntityId{9});
    REQUIRE(text(f, param(f, shoot, "fireMode")) == "Burst");
    REQUIRE(param(f, shoot, "duration")->number == 2.0);
  }
}

TEST_CASE("ShootFromCover fires from the current cover", "[mbt][nodes][shootfromcover]") {
  waitingAction(R"(<ShootFromCover duration="2.0" fireMode="Burst" aimObstructedTimeout="1.0"/>)",
                "ShootFromCover");
}

TEST_CASE("AdjustCoverStance adjusts the stance in cover", "[mbt][nodes][adjustcoverstance]") {
  waitingAction(R"(<AdjustCoverStance duration="continuous" variation="1"/>)", "AdjustCoverStance");
}

TEST_CASE("ThrowGrenade throws and waits", "[mbt][nodes][throwgrenade]") {
  waitingAction(R"(<ThrowGrenade type="frag"/>)", "ThrowGrenade");
}

TEST_CASE("LuaBehavior runs a client-side legacy behavior", "[mbt][nodes][luabehavior]") {
  waitingAction(R"(<LuaBehavior name="ExecuteSequence"/>)", "LuaBehavior");
}

TEST_CASE("StopMovement waits until stopped unless told not to", "[mbt][nodes][stopmovement]") {
  waitingAction("<StopMovement/>", "StopMovement");
  SECTION("Should not wait with waitUntilStopped=0") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<StopMovement waitUntilStopped="0"/>)")) == "");
    REQUIRE(f.tick() == MbtStatus::kSuccess);
  }
}

TEST_CASE("Stance sets the stance without waiting", "[mbt][nodes][stance]") {
  instantAction(R"(<Stance name="Alerted"/>)", "Stance");
}

TEST_CASE("SetAlertness sets the alertness level without waiting", "[mbt][nodes][setalertness]") {
  instantAction(R"(<SetAlertness value="2"/>)", "SetAlertness");
  SECTION("Should check its value") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<SetAlertness value="3"/>)")) ==
            "Test.xml:3: <SetAlertness> value must be 0, 1 or 2\n");
  }
}

TEST_CASE("PullDownThreatLevel is sent without waiting", "[mbt][nodes][pulldownthreatlevel]") {
  instantAction("<PullDownThreatLevel/>", "PullDownThreatLevel");
}

TEST_CASE("TurnBody is sent without waiting", "[mbt][nodes][turnbody]") {
  instantAction("<TurnBody/>", "TurnBody");
}

TEST_CASE("ClearTargets is sent without waiting", "[mbt][nodes][cleartargets]") {
  instantAction("<ClearTargets/>", "ClearTargets");
}

TEST_CASE("Bubble shows a speech bubble and logs its message", "[mbt][nodes][bubble]") {
  instantAction(R"(<Bubble message="Who's there!?" duration="2"/>)", "Bubble");
  SECTION("Should log the message unless log=0") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<Sequence><Bubble message="Who's there!?"/><Bubble message="quiet" log="0"/><Halt/></Sequence>)")) ==
            "");
    f.tick();
    REQUIRE(f.host.logs == std::vector<std::string>{"Who's there!?"});
  }
}

TEST_CASE("Communicate waits unless waitUntilFinished is 0, and times out",
          "[mbt][nodes][communicate]") {
  waitingAction(R"(<Communicate name="Hello" channel="Reaction"/>)", "Communicate");
  SECTION("Should succeed at once with waitUntilFinished=0 (fire and forget)") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<Communicate name="TargetSpotted" channel="Reaction" waitUntilFinished="0"/>)")) ==
            "");
    REQUIRE(f.tick() == MbtStatus::kSuccess);
    REQUIRE_FALSE(f.host.last("Communicate")->request.waits);
  }
  SECTION("Should fail after its timeout (8 s by default), cancelling the action") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<Communicate name="Hello"/>)")) == "");
    REQUIRE(f.run(79) == MbtStatus::kRunning);
    REQUIRE(f.run(3) == MbtStatus::kFailure);
    REQUIRE(f.host.last("Communicate")->cancelled);
    REQUIRE(f.host.logged("no result from the host before the timeout"));
  }
  SECTION("Should succeed when the client finishes speaking") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<Communicate name="Hello" timeout="1"/>)")) == "");
    f.tick();
    f.host.finish("Communicate");
    REQUIRE(f.tick() == MbtStatus::kSuccess);
  }
}

TEST_CASE("Action sends any named client action with its attributes as parameters",
          "[mbt][nodes][action]") {
  waitingAction(R"(<Action name="OpenDoor" at="Target"/>)", "OpenDoor");
  MbtFixture f;
  f.host.seeTarget(EntityId{3}, {1, 1, 1});
  REQUIRE(f.load(tree(R"(<Sequence>
  <Action name="OpenDoor" at="Target" force="2.5" style="kick" where="1,2,3"/>
  <Action name="Wave" wait="0"/>
  <Action name="Dig" timeout="1"/>
</Sequence>)")) == "");
  SECTION("Should type its parameters: target, number, text, position") {
    REQUIRE(f.tick() == MbtStatus::kRunning);
    const TestHost::Action& a = *f.host.last("OpenDoor");
    REQUIRE(param(f, a, "at")->entity == EntityId{3});
    REQUIRE(param(f, a, "force")->number == 2.5);
    REQUIRE(text(f, param(f, a, "style")) == "kick");
    REQUIRE(param(f, a, "where")->position == Vec3{1, 2, 3});
  }
  SECTION("Should not wait with wait=0 and fail after its own timeout") {
    f.tick();
    f.host.finish("OpenDoor");
    f.tick();
    REQUIRE(f.host.started("Wave") == 1);
    REQUIRE(f.host.running("Dig") == 1);
    REQUIRE(f.run(9) == MbtStatus::kRunning);
    REQUIRE(f.run(2) == MbtStatus::kFailure);
    REQUIRE(f.host.last("Dig")->cancelled);
  }
  SECTION("Should use the library's default action timeout when the node has none") {
    MbtLibraryConfig config;
    config.action_timeout_s = 0.5;
    MbtLibrary library(config);
    REQUIRE(library.loadSources({{"T.xml", tree(R"(<Action name="Dig"/>)")}}).ok());
    TestHost host(library.names());
    MbtInstance agent;
    library.bind(agent, "T", host.view.id, 1);
    REQUIRE(agent.tick(host) == MbtStatus::kRunning);
    host.now = 0.6;
    REQUIRE(agent.tick(host) == MbtStatus::kFailure);
  }
  SECTION("Should refuse more than 8 parameters") {
    REQUIRE(f.load(tree(R"(<Action name="X" a="1" b="1" c="1" d="1" e="1" f="1" g="1" h="1" i="1"/>)")) ==
            "Test.xml:3: <Action> has more than 8 parameters; \"i\" does not fit\n");
  }
}

TEST_CASE("QueryTPS finds a position against the world's obstacles",
          "[mbt][nodes][querytps]") {
  MbtFixture f;
  f.host.view.position = {0, 0, 0};
  f.host.seeTarget(EntityId{5}, {20, 0, 0});
  SECTION("Should find cover behind a hard obstacle, away from the target") {
    REQUIRE(f.load(tree(R"(<QueryTPS name="CoverFromTarget" register="Cover"/>)")) == "");
    f.host.obstacle_list.push_back({ObstacleId{1}, {{4, -1, 0}, {6, 1, 2}}, Cover::kHard});
    f.host.obstacle_list.push_back({ObstacleId{2}, {{1, 4, 0}, {2, 5, 2}}, Cover::kSoft});
    REQUIRE(f.tick() == MbtStatus::kSuccess);
    Vec3 cover;
    REQUIRE(f.agent.getRegister(MbtRegister::kCover, cover));
    REQUIRE(cover.x < 4.f);
    REQUIRE(std::abs(cover.y) < 0.01f);
    REQUIRE(f.describe()["registers"]["Cover"][0] == cover.x);
  }
  SECTION("Should fail without cover in range or without a target") {
    REQUIRE(f.load(tree(R"(<QueryTPS name="CoverFromTarget" register="Cover" radius="3"/>)")) == "");
    f.host.obstacle_list.push_back({ObstacleId{1}, {{4, -1, 0}, {6, 1, 2}}, Cover::kHard});
    REQUIRE(f.tick() == MbtStatus::kFailure);
    f.host.view.target_class = MbtTargetClass::kNone;
    REQUIRE(f.tick() == MbtStatus::kFailure);
  }
  SECTION("Should put the RefPoint near the target, away from it, at random or on it") {
    REQUIRE(f.load(tree(R"(<Sequence>
  <QueryTPS name="SDKGrunt_OpenCombat" register="RefPoint" distance="8"/>
  <Move to="RefPoint"/>
  <QueryTPS name="GetAwayFromUnknownEnemy" register="RefPoint" radius="10"/>
  <Move to="RefPoint"/>
  <QueryTPS name="SDKGrunt_TargetPositionOnNavMesh" register="RefPoint"/>
  <Move to="RefPoint"/>
  <QueryTPS name="SearchSpot" query="random" radius="5"/>
  <Move to="RefPoint"/>
</Sequence>)")) == "");
    std::vector<Vec3> points;
    for (int i = 0; i < 4; ++i) {
      f.tick();
      points.push_back(f.host.actions.back().request.params[0].position);
      f.host.finish("Move");
    }
    REQUIRE(points[0] == Vec3{12, 0, 0});
    REQUIRE(points[1] == Vec3{-5, 0, 0});
    REQUIRE(points[2] == Vec3{20, 0, 0});
    REQUIRE(length(points[3]) <= 5.f);
  }
}

TEST_CASE("QueryTPS puts its points on the ground the agent can walk to",
          "[mbt][nodes][querytps]") {
  MbtFixture f;
  f.host.ground = true;  // the ground is z = 0; no walk crosses the river at x = 10
  f.host.view.position = {0, 0, 0};
  f.host.seeTarget(EntityId{5}, {20, 0, 0});
  SECTION("Should snap a point onto the ground") {
    f.host.river_x = 1e9f;
    f.host.seeTarget(EntityId{5}, {20, 0, 3});  // on a ledge 3 m up
    REQUIRE(f.load(tree(R"(<QueryTPS name="SDKGrunt_OpenCombat" distance="8"/>)")) == "");
    REQUIRE(f.tick() == MbtStatus::kSuccess);
    Vec3 point;
    REQUIRE(f.agent.getRegister(MbtRegister::kRefPoint, point));
    CHECK(point == Vec3{12, 0, 0});
  }
  SECTION("Should drop a point across the river and fail rather than send the agent there") {
    f.host.river_x = 10.f;
    REQUIRE(f.load(tree(R"(<QueryTPS name="SDKGrunt_OpenCombat" distance="8"/>)")) == "");
    REQUIRE(f.tick() == MbtStatus::kFailure);
    Vec3 point;
    CHECK_FALSE(f.agent.getRegister(MbtRegister::kRefPoint, point));
  }
  SECTION("Should take the nearest cover the agent can walk to") {
    f.host.river_x = 4.f;
    f.host.view.position = {0, 0, 0};
    f.host.seeTarget(EntityId{5}, {0, 20, 0});
    // Cover across the river (nearer) and cover on the agent's side (farther).
    f.host.obstacle_list.push_back({ObstacleId{1}, {{4.5f, 2, 0}, {6.5f, 3, 2}}, Cover::kHard});
    f.host.obstacle_list.push_back({ObstacleId{2}, {{-7, 2, 0}, {-5, 3, 2}}, Cover::kHard});
    REQUIRE(f.load(tree(R"(<QueryTPS name="CoverFromTarget" register="Cover"/>)")) == "");
    REQUIRE(f.tick() == MbtStatus::kSuccess);
    Vec3 cover;
    REQUIRE(f.agent.getRegister(MbtRegister::kCover, cover));
    CHECK(cover.x < -4.f);
    CHECK(cover.y < 2.f);
  }
  SECTION("Should draw random points again until one is on the agent's side") {
    f.host.river_x = 0.5f;  // most of the circle lies across it
    f.host.view.position = {0, 0, 0};
    REQUIRE(f.load(tree(R"(<QueryTPS name="SearchSpot" query="random" radius="5"/>)")) == "");
    int found = 0;
    for (int i = 0; i < 20; ++i) {
      if (f.tick() != MbtStatus::kSuccess) continue;
      ++found;
      Vec3 point;
      REQUIRE(f.agent.getRegister(MbtRegister::kRefPoint, point));
      CHECK(point.x <= 0.5f);
    }
    CHECK(found >= 15);  // 8 draws, each ~55% on this side: failing all is rare
  }
}

