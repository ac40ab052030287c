// The real CryEngine behavior trees in ../shared/corpus/mbt (see SOURCES.md there): every
// one loads and runs, driven by scripted signals. Their Lua calls CryEngine's game API
// (entity.actor:HolsterItem, AI.IsInCover, ...): a prelude stands in for it, as a game
// would provide its own. The helicopter's flight nodes are unknown to a generic server:
// they are a located error until a test registers them through the factory.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "shared_corpus.h"

#include "mbt/load_context.h"
#include "mbt_test_support.h"

using namespace npc;
using namespace npc::test;
namespace fs = std::filesystem;

namespace {

const fs::path kCorpus = fs::path(NPCD_SHARED_DIR) / "corpus" / "mbt";

bool corpusPresent() { return sharedCorpusPresent(kCorpus); }

MbtSourceFile corpusFile(const std::string& name) {
  std::ifstream in(kCorpus / name, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return {name, text.str()};
}

// The CryEngine game API the corpus scripts call, reduced to stubs.
constexpr const char* kCryEnginePrelude = R"lua(
EntityPrototype = setmetatable({
  actor = { HolsterItem = function(self, holster) end },
  PropertiesInstance = { AI = { bGoBackToStartOnIdle = true } },
  AI = { combatMove = { useCover = false, position = { x = 0, y = 0, z = 0 } },
         holdPosition = { useCover = false, position = { x = 0, y = 0, z = 0 } } },
  InitHostageLoc = function(self) return true end,
  -- Friend.xml: these pick where to go next (CryEngine writes the AI's RefPoint).
  FindNearestHostage = function(self) AI.SetRefPointPosition(self.id, { x = 5, y = 5, z = 0 }) end,
  FindFormationPos = function(self) AI.SetRefPointPosition(self.id, { x = 1, y = 2, z = 0 }) end,
  FindNearestMedic = function(self) AI.SetRefPointPosition(self.id, { x = -4, y = 0, z = 0 }) end,
}, { __index = function(t, name) return function() return true end end })
AI.IsInCover = function(id) return false end
AI.IsCoverCompromised = function(id) return false end
HoldPositionAssignment = { IsAtHoldPosition = function(self, entity) return false end }
)lua";

struct CorpusFixture : MbtFixture {
  CorpusFixture() { REQUIRE(library.setLuaPrelude(kCryEnginePrelude, "cryengine").isOk()); }
  MbtLoadReport loadCorpus(const std::string& name) {
    const MbtLoadReport report = library.loadSources({corpusFile(name)});
    if (report.ok()) {
      library.bind(agent, name.substr(0, name.size() - 4), host.view.id, 1);
    }
    return report;
  }
  // No Lua error and no root finish so far.
  void requireClean() {
    for (const std::string& line : host.logs) {
      INFO(line);
      REQUIRE(line.find("Lua error") == std::string::npos);
      REQUIRE(line.find("root node") == std::string::npos);
    }
  }
};

}  // namespace

// Flight nodes of HelicopterTree.xml, registered the way a game adds its own nodes: each
// becomes a client action named after the node that runs until the game reports back.
struct FlightData {
  MbtActionHandle handle = MbtActionHandle::kNone;
};

class FlightNode : public MbtNodeT<FlightData> {
 public:
  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    xml.acceptAll();  // flight parameters are the game's business
    name_ = ctx.name(xml.tag());
    return true;
  }

 protected:
  void onInitialize(MbtContext& ctx) const override {
    MbtActionRequest request;
    request.name = name_;
    data(ctx).handle = ctx.host.startAction(request);
  }
  MbtStatus update(MbtContext& ctx) const override {
    switch (ctx.host.pollAction(data(ctx).handle)) {
      case MbtActionState::kRunning: return MbtStatus::kRunning;
      case MbtActionState::kSucceeded: data(ctx).handle = MbtActionHandle::kNone; return MbtStatus::kSuccess;
      case MbtActionState::kFailed: break;
    }
    data(ctx).handle = MbtActionHandle::kNone;
    return MbtStatus::kFailure;
  }
  void onTerminate(MbtContext& ctx) const override {
    if (data(ctx).handle != MbtActionHandle::kNone) ctx.host.cancelAction(data(ctx).handle);
  }

 private:
  ActionNameId name_{0};
};

TEST_CASE("Corpus SDK_Grunt_02.xml: idle until a target appears, then approach and shoot",
          "[mbt][corpus]") {
  if (!corpusPresent()) return;
  CorpusFixture f;
  const MbtLoadReport report = f.loadCorpus("SDK_Grunt_02.xml");
  REQUIRE(report.errors.empty());
  SECTION("Should warn about the expirity= typo with its line") {
    REQUIRE(report.warnings ==
            std::vector<std::string>{"SDK_Grunt_02.xml:92: warning: <Communicate> unknown "
                                     "attribute \"expirity\" is ignored"});
  }
  SECTION("Should idle, then fight on OnNewAttentionTarget and idle again on GoTo_Idle") {
    f.play(10);
    REQUIRE(f.runningPath() == "StateMachine/Sequence/Halt");
    REQUIRE(f.host.started("Animate") == 1);
    REQUIRE(f.host.started("SetAlertness") == 1);
    f.host.seeTarget(EntityId{99}, {10, 0, 0});
    f.event("OnNewAttentionTarget");
    f.play(1);
    REQUIRE(f.host.running("Move") == 1);
    REQUIRE(f.host.last("Move")->request.params[0].entity == EntityId{99});
    REQUIRE(f.host.logged("main combat loop"));
    f.play(5);
    REQUIRE(f.host.started("Shoot") >= 1);
    f.event("OnLostSightOfTarget");  // HasTarget = false: the loop sends GoTo_Idle
    f.play(20);
    REQUIRE(f.sent("GoTo_Idle"));
    REQUIRE(f.runningPath() == "StateMachine/Sequence/Halt");
    REQUIRE(f.host.started("Animate") == 2);
    f.requireClean();
  }
}

TEST_CASE("Corpus SDK_Grunt_04.xml: cover, open combat, inspecting the last known position",
          "[mbt][corpus]") {
  if (!corpusPresent()) return;
  CorpusFixture f;
  const MbtLoadReport report = f.loadCorpus("SDK_Grunt_04.xml");
  REQUIRE(report.errors.empty());
  REQUIRE(report.warnings ==
          std::vector<std::string>{
              "SDK_Grunt_04.xml:36: warning: <Timestamp> unknown attribute \"exlusiveTo\" is "
              "ignored",
              "SDK_Grunt_04.xml:112: warning: <Communicate> unknown attribute \"expirity\" is "
              "ignored"});
  f.host.view.home = {3, 4, 0};
  f.play(10);
  SECTION("Should walk home while idle (LuaGate reads the prelude's properties)") {
    REQUIRE(f.host.started("Move") == 1);
    REQUIRE(f.host.last("Move")->request.params[0].position == Vec3{3, 4, 0});
    REQUIRE(f.runningPath() == "StateMachine/Sequence/Halt");
  }
  SECTION("Should take cover behind an obstacle between it and the target") {
    f.host.obstacle_list.push_back({ObstacleId{1}, {{4, -1, 0}, {5, 1, 2}}, Cover::kHard});
    f.host.seeTarget(EntityId{99}, {20, 0, 0});
    f.event("OnEnemySeen");
    f.play(2);
    REQUIRE(f.sent("GroupMemberEnteredCombat"));
    TestHost::Action* move = f.host.last("Move");
    REQUIRE(move->request.params[0].type == MbtActionParam::Type::kPosition);
    REQUIRE(move->request.params[0].position.x < 4.f);  // behind the box, seen from x = 20
    f.play(5);
    REQUIRE(f.host.started("ShootFromCover") == 1);
  }
  SECTION("Should fight in the open without cover, then inspect and return to idle") {
    f.host.seeTarget(EntityId{99}, {20, 0, 0});
    f.event("OnEnemySeen");
    f.play(10);
    REQUIRE(f.host.started("Shoot") >= 1);
    REQUIRE(f.host.started("ShootFromCover") == 0);
    f.event("OnLostSightOfTarget");
    // The exlusiveTo typo: TargetLost does not clear TargetSpotted, as in CryEngine.
    REQUIRE(f.describe()["timestamps"]["TargetSpotted"]["elapsed_s"].is_number());
    REQUIRE(f.describe()["timestamps"]["TargetLost"]["elapsed_s"] == 0.0);
    f.play(80);  // > 5 s without the target: inspect the last known position
    REQUIRE(f.sent("GoTo_ApproachAndInspectLastKnownPlayerPosition"));
    REQUIRE(f.host.started("Animate") == 2);  // AI_SearchLookAround while the Timeout runs
    f.play(120);  // the 10 s Timeout fails, SuppressFailure → GoTo_Idle
    REQUIRE(f.sent("GoTo_Idle"));
    REQUIRE(f.runningPath() == "StateMachine/Sequence/Halt");
    f.requireClean();
  }
}

TEST_CASE("Corpus SDK_Grunt_05.xml: root Priority, scripted sequences, reaction time",
          "[mbt][corpus]") {
  if (!corpusPresent()) return;
  CorpusFixture f;
  const MbtLoadReport report = f.loadCorpus("SDK_Grunt_05.xml");
  REQUIRE(report.errors.empty());
  REQUIRE(report.warnings.size() == 2);
  f.play(10);
  REQUIRE(f.runningPath() == "Priority/StateMachine/Sequence/Priority/Sequence/Animate");
  SECTION("Should switch to the scripted sequence when ExecuteSequence becomes true") {
    REQUIRE(f.agent.setVariable("ExecuteSequence", true));
    f.play(1);
    REQUIRE(f.runningPath() == "Priority/Sequence/LuaBehavior");
    REQUIRE(f.host.last("Animate")->cancelled);
    REQUIRE(f.agent.setVariable("ExecuteSequence", false));
    f.play(1);
    REQUIRE(f.host.last("LuaBehavior")->cancelled);
    REQUIRE(f.runningPath().rfind("Priority/StateMachine", 0) == 0);
  }
  SECTION("Should hold fire until 1-2 s after EnteredCombat was set") {
    f.host.seeTarget(EntityId{99}, {20, 0, 0});
    f.event("OnEnemySeen");
    f.play(1, 0.1, 1e9);  // Combat: EnteredCombat is sent; not back yet, so no delay
    REQUIRE(f.sent("EnteredCombat"));
    REQUIRE(f.host.started("Shoot") == 1);
    f.play(1, 0.1, 1e9);  // the signal came back as an event: the timestamp is set
    REQUIRE(f.describe()["timestamps"]["EnteredCombat"]["ever_set"] == true);
    REQUIRE(f.host.finish("Move"));   // at the combat position: burst, then loop again
    f.play(1, 0.1, 1e9);
    REQUIRE(f.host.finish("Shoot"));
    f.play(1, 0.1, 1e9);              // next iteration: IfTime EnteredCombat < 2 opens
    REQUIRE(f.host.running("Move") == 1);
    f.play(7, 0.1, 1e9);              // WaitUntilTime EnteredCombat > 1 holds the Shoot
    REQUIRE(f.host.started("Shoot") == 2);
    f.play(15, 0.1, 1e9);             // then Wait 0..1 s, then Shoot
    REQUIRE(f.host.started("Shoot") == 3);
    f.requireClean();
  }
}

TEST_CASE("Corpus SDK_Grunt_07.xml: two grunts share the InspectorOfDisturbance scope",
          "[mbt][corpus]") {
  if (!corpusPresent()) return;
  MbtLibrary library;
  REQUIRE(library.setLuaPrelude(kCryEnginePrelude).isOk());
  const MbtLoadReport report = library.loadSources({corpusFile("SDK_Grunt_07.xml")});
  REQUIRE(report.errors.empty());
  REQUIRE(report.warnings.size() == 1);
  TestHost host_a(library.names()), host_b(library.names());
  host_b.view.id = EntityId{8};
  MbtInstance a, b;
  library.bind(a, "SDK_Grunt_07", host_a.view.id, 1);
  library.bind(b, "SDK_Grunt_07", host_b.view.id, 1);
  const SignalId heard = library.signals().intern("OnEnemyHeard");
  auto play = [&](int ticks) {
    for (int i = 0; i < ticks; ++i) {
      for (auto* h : {&host_a, &host_b}) {
        h->now += 0.1;
        h->finishOlderThan(0.3);
      }
      a.tick(host_a);
      b.tick(host_b);
    }
  };
  play(5);
  for (auto* h : {&host_a, &host_b}) h->seeTarget(EntityId{99}, {15, 0, 0});
  a.handleEvent(heard, host_a);
  b.handleEvent(heard, host_b);
  play(40);
  SECTION("Should let exactly one of them inspect; the other one waits and asks") {
    auto bubbles = [](TestHost& h, const std::string& text) { return h.logged(text); };
    REQUIRE(bubbles(host_a, "Who's there!?") != bubbles(host_b, "Who's there!?"));
    TestHost& other = bubbles(host_a, "Who's there!?") ? host_b : host_a;
    play(40);
    REQUIRE(other.logged("And? Can you see something?!?"));
    REQUIRE(library.groupScopes().totalUsers() <= 1);
  }
  SECTION("Should release the scope when the agents leave their trees") {
    a.terminate(host_a);
    b.terminate(host_b);
    REQUIRE(library.groupScopes().totalUsers() == 0);
  }
}

TEST_CASE("Corpus Friend.xml: a third-party nine-state tree", "[mbt][corpus]") {
  if (!corpusPresent()) return;
  CorpusFixture f;
  const MbtLoadReport report = f.loadCorpus("Friend.xml");
  REQUIRE(report.errors.empty());
  REQUIRE(report.warnings ==
          std::vector<std::string>{"Friend.xml:201: warning: <Communicate> unknown attribute "
                                   "\"expirity\" is ignored"});
  f.play(20);
  SECTION("Should go to the hostage the Lua code picked, and back to Idle") {
    TestHost::Action* move = f.host.last("Move");
    REQUIRE(move);
    REQUIRE(move->request.params[0].position == Vec3{5, 5, 0});
    REQUIRE(f.sent("GoTo_GoToHostage"));
    REQUIRE(f.sent("GoTo_Idle"));
  }
  SECTION("Should fight on OnHostileSeen while going to a hostage") {
    for (int i = 0; i < 50 && f.describe()["running"][0]["text"] != "state GoToHostage"; ++i) {
      f.play(1);
    }
    f.host.seeTarget(EntityId{99}, {20, 0, 0});
    f.event("OnHostileSeen");
    f.play(30);
    REQUIRE(f.describe()["running"][0]["text"] == "state Combat");
    REQUIRE(f.host.started("Shoot") >= 1);
  }
  SECTION("Should celebrate on GoTo_GameWon while idle") {
    for (int i = 0; i < 50 && f.describe()["running"][0]["text"] != "state Idle"; ++i) {
      f.play(1);
    }
    f.event("GoTo_GameWon");
    f.play(10);
    REQUIRE(f.host.logged("Yes! Game Won"));
    REQUIRE(f.host.started("Bubble") == 1);
    REQUIRE(f.runningPath() == "StateMachine/Sequence/Halt");
  }
  f.requireClean();
}

TEST_CASE("Corpus HelicopterTree.xml: flight nodes are unknown until registered",
          "[mbt][corpus]") {
  if (!corpusPresent()) return;
  SECTION("Should refuse the tree with a located error for every flight node") {
    CorpusFixture f;
    const MbtLoadReport report = f.loadCorpus("HelicopterTree.xml");
    REQUIRE(report.errors.size() == 18);
    REQUIRE(report.errors[0] == "HelicopterTree.xml:40: <Hover> is not a known node type "
                                "(register it with the node factory)");
    REQUIRE(report.errors[1] == "HelicopterTree.xml:57: <Fly> is not a known node type "
                                "(register it with the node factory)");
    REQUIRE(report.errors[7] == "HelicopterTree.xml:148: <WaitAlignedWithAttentionTarget> is "
                                "not a known node type (register it with the node factory)");
    REQUIRE(f.library.findTree("HelicopterTree") == nullptr);
  }
  SECTION("Should load and fly once the game registers them as custom nodes") {
    CorpusFixture f;
    for (const char* name : {"Hover", "Fly", "FlyShoot", "FlyAimAtCombatTarget",
                             "FlyForceAttentionTarget", "WaitAlignedWithAttentionTarget"}) {
      REQUIRE(f.library.factory().add<FlightNode>(name));
    }
    REQUIRE(NPC_MBT_REGISTER_NODE(f.library.factory(), FlightNode));
    const MbtLoadReport report = f.loadCorpus("HelicopterTree.xml");
    REQUIRE(report.text() == "");
    f.play(3, 0.1, 1e9);
    REQUIRE(f.host.running("Hover") == 1);
    f.event("StartFollowPath");
    f.play(2, 0.1, 1e9);
    REQUIRE(f.host.last("Hover")->cancelled);
    REQUIRE(f.host.running("Fly") == 1);
    REQUIRE(f.host.logged("I am following a path."));
    f.host.finish("Fly");
    f.play(3, 0.1, 1e9);
    REQUIRE(f.host.logged("Reached end of the path."));
    REQUIRE(f.sent("OnFollowPathEnd"));
    REQUIRE(f.describe()["running"][2]["text"] == "state Hover");
    f.host.seeTarget(EntityId{99}, {50, 0, 30});
    f.event("OnEnemySeen");
    f.event("CombatTargetEnabled");
    f.play(3, 0.1, 1e9);
    REQUIRE(f.host.running("FlyAimAtCombatTarget") == 1);
    REQUIRE(f.host.logged("I'm in combat mode."));
    f.requireClean();
  }
}
