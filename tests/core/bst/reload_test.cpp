#include <chrono>
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "bst_test_support.h"

using namespace npc;
using namespace npc::test;
namespace fs = std::filesystem;

namespace {

// Grunt v2: a new variable (default true) declared first, AwareOfEnemy gone, Attack gone.
const std::string kGruntV2 = R"(<SelectionTree name="Grunt" type="BehaviorSelectionTree">
<Variables>
  <Variable name="Hurt" default="true"/>
  <Variable name="AwareOfSound"/>
</Variables>
<LeafTranslations>
  <Map node="Idle" target="GruntIdle"/>
  <Map node="Investigate" target="GruntInvestigate"/>
</LeafTranslations>
<Priority name="Root">
  <Leaf name="Investigate" condition="AwareOfSound"/>
  <Leaf name="Idle"/>
</Priority>
</SelectionTree>
)";

const std::string kMachine = R"(<SelectionTree name="Guard" type="BehaviorSelectionTree">
<Variables><Variable name="Alarm"/>%EXTRA%</Variables>
<StateMachine name="Duty">
  <State name="Patrol"><Transition state="Alert" condition="Alarm"/><Leaf name="Patrolling"/></State>
  <State name="Alert"><Leaf name="Searching"/></State>
</StateMachine>
</SelectionTree>
)";

std::string machine(const std::string& extra) {
  std::string text = kMachine;
  text.replace(text.find("%EXTRA%"), 7, extra);
  return text;
}

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() /
           ("npcd_bst_" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  void write(const std::string& name, const std::string& text) const {
    fs::create_directories((path / name).parent_path());
    std::ofstream(path / name, std::ios::binary) << text;
  }
};

}  // namespace

TEST_CASE("A bad load never replaces a good one", "[bst][reload]") {
  SelectionTreeLibrary library;
  REQUIRE(load(library, {{"Grunt.xml", kSeedGrunt}}).ok());
  BstAgentState grunt = agentOn(library, "Grunt");
  signal(library, grunt, "OnEnemySeen");
  REQUIRE(evaluateName(library, grunt) == "GruntAttack");

  std::string broken = kSeedGrunt;
  broken.replace(broken.find("condition=\"AwareOfEnemy\""), 24, "condition=\"AwareOfEnmy\"");
  const BstLoadReport report = load(library, {{"Grunt.xml", broken}, {"Alien.xml", kSeedAlien}});
  SECTION("Should report the errors and keep the previous set and generation") {
    REQUIRE(report.errors == std::vector<std::string>{
                                 "Alien.xml:3: unknown block \"CommonVars\"",
                                 "Alien.xml:6: unknown block \"CommonSignalVars\"",
                                 "Alien.xml:14: unknown block \"CommonBehaviorTree\"",
                                 "Grunt.xml:18: condition \"AwareOfEnmy\": unknown variable "
                                 "\"AwareOfEnmy\" (did you mean \"AwareOfEnemy\"?)",
                             });
    REQUIRE(library.generation() == 1);
    REQUIRE(library.treeCount() == 1);
    REQUIRE(library.findTree("Alien") == SelectionTreeId::kNone);
  }
  SECTION("Should leave agents running on the good trees") {
    signal(library, grunt, "OnNoTarget");
    REQUIRE(evaluateName(library, grunt) == "GruntIdle");
  }
}

TEST_CASE("Reload keeps agents' variable values by name and re-evaluates them", "[bst][reload]") {
  SelectionTreeLibrary library;
  REQUIRE(load(library, {{"Grunt.xml", kSeedGrunt}}).ok());
  BstAgentState grunt = agentOn(library, "Grunt");
  signal(library, grunt, "OnHearSound");
  REQUIRE(evaluateName(library, grunt) == "GruntInvestigate");
  REQUIRE(load(library, {{"Grunt.xml", kGruntV2}}).ok());
  REQUIRE(library.generation() == 2);

  SECTION("Should keep values whose names remain and give new variables their defaults") {
    REQUIRE(library.variable(grunt, library.findVariable("AwareOfSound")) == true);
    REQUIRE(library.variable(grunt, library.findVariable("Hurt")) == true);
    REQUIRE_FALSE(library.variable(grunt, library.findVariable("AwareOfEnemy")).has_value());
  }
  SECTION("Should keep the current behavior when the new tree selects it again") {
    const BehaviorSelection s = library.evaluate(grunt);
    REQUIRE_FALSE(s.changed);
    REQUIRE(library.behaviorName(s.current) == "GruntInvestigate");
    REQUIRE(grunt.generation == 2);
  }
  SECTION("Should keep signal ids valid across the reload") {
    REQUIRE_FALSE(signal(library, grunt, "OnEnemySeen"));  // v2 has no signals
    library.evaluate(grunt);
    REQUIRE(library.setVariable(grunt, "AwareOfSound", false).isOk());
    REQUIRE(evaluateName(library, grunt) == "GruntIdle");
  }
}

TEST_CASE("Reload keeps a state machine's state where the same node path exists",
          "[bst][reload][state_machine]") {
  SelectionTreeLibrary library;
  REQUIRE(load(library, {{"Guard.xml", machine("")}}).ok());
  BstAgentState guard = agentOn(library, "Guard");
  library.setVariable(guard, "Alarm", true);
  REQUIRE(evaluateName(library, guard) == "Searching");
  library.setVariable(guard, "Alarm", false);
  library.evaluate(guard);
  REQUIRE(load(library, {{"Guard.xml", machine("<Variable name=\"Extra\"/>")}}).ok());
  SECTION("Should stay in state Alert after the reload") {
    const BehaviorSelection s = library.evaluate(guard);
    REQUIRE_FALSE(s.changed);
    REQUIRE(library.behaviorName(s.current) == "Searching");
  }
}

TEST_CASE("Agents catch up on reloads they slept through; removed trees leave No Behavior",
          "[bst][reload]") {
  SelectionTreeLibrary library;
  REQUIRE(load(library, {{"Common.xml", kSeedCommon},
                         {"Grunt.xml", kSeedGruntWithRefs},
                         {"Alien.xml", kSeedAlien}})
              .ok());
  BstAgentState grunt = agentOn(library, "Grunt");
  BstAgentState alien = agentOn(library, "Alien");
  signal(library, grunt, "OnHearSound");
  signal(library, alien, "OnEnemySeen");
  library.evaluate(grunt);
  library.evaluate(alien);
  REQUIRE(load(library, {{"Common.xml", kSeedCommon}, {"Grunt.xml", kSeedGruntWithRefs}}).ok());
  REQUIRE(load(library, {{"Grunt.xml", kGruntV2}}).ok());
  SECTION("Should migrate through every generation in one step") {
    REQUIRE(grunt.generation == 1);
    REQUIRE(evaluateName(library, grunt) == "GruntInvestigate");
    REQUIRE(grunt.generation == 3);
    REQUIRE(library.variable(grunt, library.findVariable("AwareOfSound")) == true);
  }
  SECTION("Should leave an agent whose tree is gone with No Behavior") {
    const BehaviorSelection s = library.evaluate(alien);
    REQUIRE(s.changed);
    REQUIRE(library.behaviorName(s.previous) == "AlienAttack");
    REQUIRE(s.current == BehaviorId::kNone);
  }
}

TEST_CASE("Trees load from a directory and reload on demand or when files change",
          "[bst][reload][directory]") {
  TempDir dir;
  dir.write("References/Common.xml", kSeedCommon);
  dir.write("Grunt.xml", kSeedGruntWithRefs);
  dir.write("notes.txt", "not a tree");
  SelectionTreeLibrary library;
  const BstLoadReport first = library.loadDirectory(dir.path.string());
  REQUIRE(first.text() == "");
  REQUIRE(first.files == 2);
  BstAgentState grunt = agentOn(library, "Grunt");
  signal(library, grunt, "OnEnemySeen");
  REQUIRE(evaluateName(library, grunt) == "GruntAttack");

  SECTION("Should not reload when nothing changed") {
    REQUIRE_FALSE(library.reloadIfChanged().has_value());
  }
  SECTION("Should reload a changed file and switch agents to the new behavior") {
    std::string v2 = kSeedGruntWithRefs;
    v2.replace(v2.find("\"GruntAttack\""), 13, "\"GruntAssault\"");
    dir.write("Grunt.xml", v2);
    const std::optional<BstLoadReport> report = library.reloadIfChanged();
    REQUIRE(report.has_value());
    REQUIRE(report->ok());
    REQUIRE(library.generation() == 2);
    const BehaviorSelection s = library.evaluate(grunt);
    REQUIRE(s.changed);
    REQUIRE(library.behaviorName(s.previous) == "GruntAttack");
    REQUIRE(library.behaviorName(s.current) == "GruntAssault");
  }
  SECTION("Should refuse a broken edit once, naming files from the directory down") {
    std::string bad = kSeedCommon;
    const std::string line4 = "<Variable name=\"AwareOfEnemy\"/>";
    bad.replace(bad.find(line4), line4.size(), line4 + "<Variable name=\"awareofenemy\"/>");
    dir.write("References/Common.xml", bad);
    const std::optional<BstLoadReport> report = library.reloadIfChanged();
    REQUIRE(report.has_value());
    const std::string d = dir.path.filename().string() + "/";
    REQUIRE(report->errors ==
            std::vector<std::string>{d + "References/Common.xml:4: duplicate variable "
                                         "\"awareofenemy\" (first declared at " +
                                     d + "References/Common.xml:4) (via Ref \"CommonVars\" at " +
                                     d + "Grunt.xml:3)"});
    REQUIRE(library.generation() == 1);
    REQUIRE_FALSE(library.reloadIfChanged().has_value());
    REQUIRE(evaluateName(library, grunt) == "GruntAttack");
  }
  SECTION("Should reload on demand, like ai_reload") {
    const BstLoadReport report = library.reload();
    REQUIRE(report.ok());
    REQUIRE(library.generation() == 2);
    REQUIRE_FALSE(library.evaluate(grunt).changed);
  }
  SECTION("Should refuse a missing directory and keep the loaded trees") {
    const BstLoadReport report = library.loadDirectory((dir.path / "missing").string());
    REQUIRE(report.errors ==
            std::vector<std::string>{(dir.path / "missing").string() + ": not a directory"});
    REQUIRE(library.treeCount() == 1);
  }
}

TEST_CASE("reload() needs a directory", "[bst][reload]") {
  SelectionTreeLibrary library;
  SECTION("Should say so") {
    REQUIRE(library.reload().errors ==
            std::vector<std::string>{"reload: no selection tree directory was loaded"});
  }
}

// Regression: one broken file made every tree of the set "not loaded" at start-up, and
// errors named files without their directory.
TEST_CASE("First load: a broken file is reported with its directory, the healthy trees load",
          "[bst][reload]") {
  TempDir dir;
  std::string broken = machine("");
  broken.replace(broken.find("condition=\"Alarm\""), 17, "condition=\"Alarm and Missing\"");
  dir.write("Grunt.xml", kGruntV2);
  dir.write("sub/Guard.xml", broken);
  SelectionTreeLibrary library;
  const BstLoadReport report = library.loadDirectory(dir.path.string());
  const std::string name = dir.path.filename().string();
  REQUIRE(report.errors == std::vector<std::string>{
                               name + "/sub/Guard.xml:4: condition \"Alarm and Missing\": unknown "
                                      "variable \"Missing\""});
  REQUIRE(report.trees == 1);
  BstAgentState grunt = agentOn(library, "Grunt");
  REQUIRE(evaluateName(library, grunt) == "GruntIdle");
  REQUIRE(library.findTree("Guard") == SelectionTreeId::kNone);

  SECTION("Should load the repaired file on reload") {
    dir.write("sub/Guard.xml", machine(""));
    const BstLoadReport repaired = library.reload();
    REQUIRE(repaired.text() == "");
    REQUIRE(library.findTree("Guard") != SelectionTreeId::kNone);
  }
  SECTION("Should refuse a broken reload whole, the loaded trees staying") {
    dir.write("Grunt.xml", "<SelectionTree name=\"Grunt\">");
    const BstLoadReport refused = library.reload();
    REQUIRE(refused.trees == 0);
    REQUIRE(refused.errors.size() == 2);
    REQUIRE_THAT(refused.errors[0], Catch::StartsWith(name + "/Grunt.xml:1: "));
    REQUIRE(evaluateName(library, grunt) == "GruntIdle");
  }
}
