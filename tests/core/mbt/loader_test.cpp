// Loading: the file format, located errors and warnings gathered before refusing, the
// atomic swap, and reload (BT-REFERENCE.md §1, issue item 8).
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "mbt_test_support.h"

using namespace npc;
using namespace npc::test;
namespace fs = std::filesystem;

TEST_CASE("A tree file loads into a named, shared template", "[mbt][loader]") {
  MbtLibrary library;
  SECTION("Should name each tree after its file and read its sections in any order") {
    const MbtLoadReport report = library.loadSources({
        {"guards/Guard.xml", R"(<BehaviorTree>
  <Root><Halt/></Root>
  <Timestamps><Timestamp name="T" setOnEvent="E"/></Timestamps>
  <Variables><Variable name="A" default="TRUE"/><Variable name="B"/></Variables>
  <MetaExtensions/>
  <Events><GameEvents><Event name="x"/></GameEvents></Events>
</BehaviorTree>)"},
        {"Villager.xml", tree("<Halt/>")}});
    REQUIRE(report.text() == "");
    REQUIRE(report.trees == 2);
    REQUIRE(library.treeNames() == std::vector<std::string>{"Guard", "Villager"});
    const MbtTree* guard = library.findTree("Guard");
    REQUIRE(guard->file() == "guards/Guard.xml");
    REQUIRE(guard->variableDefaults().get(0));
    REQUIRE_FALSE(guard->variableDefaults().get(1));
    REQUIRE(guard->timestamps().size() == 1);
    REQUIRE(library.findTree("guard") == nullptr);  // names are case-sensitive
  }
}

TEST_CASE("Load errors name the file, line and node, and are all reported",
          "[mbt][loader][errors]") {
  MbtLibrary library;
  auto load = [&](const std::string& xml) {
    return library.loadSources({{"Grunt.xml", xml}}).text();
  };
  SECTION("Should report a missing attribute") {
    REQUIRE(load(tree("<Loop>\n<Wait/>\n</Loop>")) ==
            "Grunt.xml:4: <Wait> needs attribute \"duration\"\n");
  }
  SECTION("Should report an unknown node type, hinting at a case mistake") {
    REQUIRE(load(tree("<Sequence>\n<Hover/>\n<sequence><Halt/></sequence>\n</Sequence>")) ==
            "Grunt.xml:4: <Hover> is not a known node type (register it with the node factory)\n"
            "Grunt.xml:5: <sequence> is not a known node type (node types are case-sensitive: "
            "did you mean <Sequence>?)\n");
    REQUIRE(load(tree("<Sequence>\n<Sequnce><Halt/></Sequnce>\n</Sequence>")) ==
            "Grunt.xml:4: <Sequnce> is not a known node type (did you mean <Sequence>?)\n");
  }
  SECTION("Should report wrong child counts") {
    REQUIRE(load(tree("<Sequence/>")) == "Grunt.xml:3: <Sequence> needs at least 1 child node, has 0\n");
    REQUIRE(load(tree("<SuppressFailure><Halt/><Halt/></SuppressFailure>")) ==
            "Grunt.xml:3: <SuppressFailure> takes exactly 1 child node, has 2\n");
    REQUIRE(load("<BehaviorTree><Root><Halt/><Halt/></Root></BehaviorTree>") ==
            "Grunt.xml:1: <Root> takes exactly 1 node, has 2\n");
  }
  SECTION("Should report invalid values") {
    REQUIRE(load(tree(R"(<Wait duration="soon"/>)")) ==
            "Grunt.xml:3: <Wait> duration \"soon\" is not a number\n");
    REQUIRE(load(tree(R"(<Move to="Target" avoidDangers="maybe"/>)")) ==
            "Grunt.xml:3: <Move> avoidDangers \"maybe\" is not a boolean (1, 0, true or false)\n");
  }
  SECTION("Should report unknown variables and timestamps") {
    REQUIRE(load(tree(R"(<IfCondition condition="Armed"><Halt/></IfCondition>)")) ==
            "Grunt.xml:3: <IfCondition> condition \"Armed\": unknown variable \"Armed\"\n");
    REQUIRE(load(tree(R"(<AssertTime since="Hit" isMoreThan="1"/>)")) ==
            "Grunt.xml:3: <AssertTime> since \"Hit\" is not a declared timestamp\n");
    REQUIRE(load(tree("<Halt/>", R"(<SignalVariables><Signal name="S" variable="Nope" value="true"/></SignalVariables>
)")) == "Grunt.xml:5: <Signal> variable \"Nope\" is not declared in <Variables>\n");
    // A near miss names the declared variable it probably meant.
    REQUIRE(load(tree(R"(<IfCondition condition="Armd"><Halt/></IfCondition>)",
                      R"(<Variables><Variable name="Armed"/></Variables>
)")) == "Grunt.xml:3: <IfCondition> condition \"Armd\": unknown variable \"Armd\" (did you mean \"Armed\"?)\n");
  }
  SECTION("Should report bad sections and declarations") {
    REQUIRE(load(tree("<Halt/>", R"(<Variables>
  <Variable name="A" default="yes"/>
  <Variable name="A"/>
  <Var name="B"/>
</Variables>
)")) == "Grunt.xml:6: <Variable> default \"yes\" is not a boolean (1, 0, true or false)\n"
        "Grunt.xml:7: <Variable> duplicate variable \"A\"\n"
        "Grunt.xml:8: <Var> is not allowed in <Variables>; expected <Variable name default>\n");
    REQUIRE(load("<BehaviorTree>\n</BehaviorTree>") == "Grunt.xml:1: <BehaviorTree> needs a <Root> section\n");
    REQUIRE(load("<Tree/>") == "Grunt.xml:1: root element is <Tree>; expected <BehaviorTree>\n");
    REQUIRE(load("<BehaviorTree>\n<Root>") ==
            "Grunt.xml:2: XML error: Start-end tags mismatch\n");
  }
  SECTION("Should gather errors of every file, sorted; a first load keeps the healthy file") {
    const MbtLoadReport report = library.loadSources(
        {{"B.xml", tree("<Wait/>")}, {"A.xml", tree("<Fail>\n<Halt/>\n</Fail>")}, {"C.xml", tree("<Halt/>")}});
    REQUIRE(report.errors == std::vector<std::string>{
                                 "A.xml:3: <Fail> takes no child nodes",
                                 "B.xml:3: <Wait> needs attribute \"duration\""});
    REQUIRE(library.treeNames() == std::vector<std::string>{"C"});
  }
  SECTION("Should warn about unknown attributes and sections, with their lines") {
    const MbtLoadReport report = library.loadSources({{"Grunt.xml", R"(<BehaviorTree>
<Root>
  <Communicate name="Hi"
               expirity="1.0"/>
</Root>
<Blackboard/>
</BehaviorTree>)"}});
    REQUIRE(report.ok());
    REQUIRE(report.warnings == std::vector<std::string>{
                                   "Grunt.xml:4: warning: <Communicate> unknown attribute "
                                   "\"expirity\" is ignored",
                                   "Grunt.xml:6: warning: <Blackboard> is not a section of "
                                   "<BehaviorTree> and is ignored"});
  }
  SECTION("Should refuse two files with the same tree name") {
    REQUIRE(library.loadSources({{"a/T.xml", tree("<Halt/>")}, {"b/T.xml", tree("<Halt/>")}})
                .text() == "b/T.xml:1: duplicate tree \"T\" (also in a/T.xml)\n");
  }
}

TEST_CASE("Reload swaps whole sets and never replaces a good one with a bad one",
          "[mbt][loader][reload]") {
  const fs::path dir = fs::temp_directory_path() / "npcd_mbt_reload_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name, std::ios::binary) << text;
  };
  const std::string vars = R"(<Variables><Variable name="Alert"/><Variable name="Old"/></Variables>
<SignalVariables><Signal name="Alarm" variable="Alert" value="true"/></SignalVariables>
)";
  write("Guard.xml", tree(R"(<Animate name="Patrol"/>)", vars));
  write("Dog.xml", tree("<Halt/>"));
  MbtLibrary library;
  REQUIRE(library.loadDirectory(dir.string()).text() == "");
  TestHost host(library.names());
  MbtInstance guard, dog;
  library.bind(guard, "Guard", host.view.id, 1);
  library.bind(dog, "Dog", EntityId{8}, 1);
  guard.tick(host);
  dog.tick(host);
  guard.handleEvent(library.signals().intern("Alarm"), host);
  const MbtTree* old_guard = library.findTree("Guard");
  const MbtTree* old_dog = library.findTree("Dog");

  SECTION("Should keep the loaded set when the new one has an error") {
    write("Guard.xml", tree("<Wait/>"));
    const MbtLoadReport report = library.reload();
    REQUIRE(report.text() == "npcd_mbt_reload_test/Guard.xml:3: <Wait> needs attribute \"duration\"\n");
    REQUIRE(library.generation() == 1);
    REQUIRE(library.findTree("Guard") == old_guard);
    REQUIRE(guard.tick(host) == MbtStatus::kRunning);
  }
  SECTION("Should move agents to the new tree, keeping variables by name") {
    write("Guard.xml", tree(R"(<Shoot at="1,2,3"/>)",
                            R"(<Variables><Variable name="New"/><Variable name="Alert"/></Variables>
)"));
    const MbtLoadReport report = library.reload();
    REQUIRE(report.text() == "");
    REQUIRE(report.reused == 1);  // Dog.xml did not change
    REQUIRE(library.findTree("Dog") == old_dog);
    REQUIRE(library.stats().retired_trees == 1);  // the old Guard, still run by `guard`
    REQUIRE(guard.tick(host) == MbtStatus::kRunning);
    REQUIRE(host.last("Animate")->cancelled);  // the old tree was left properly
    REQUIRE(host.running("Shoot") == 1);
    REQUIRE(guard.variable("Alert") == true);
    REQUIRE(guard.variable("New") == false);
    REQUIRE(library.stats().retired_trees == 0);  // freed with its last agent
    REQUIRE(library.describe(guard, 0)["log"][0]["kind"] == "reloaded");
    dog.tick(host);
    REQUIRE(dog.tree() == old_dog);  // untouched
  }
  SECTION("Should unbind agents whose tree disappeared") {
    fs::remove(dir / "Guard.xml");
    REQUIRE(library.reloadIfChanged().has_value());
    REQUIRE(guard.tick(host) == MbtStatus::kFailure);
    REQUIRE_FALSE(guard.bound());
    REQUIRE(host.last("Animate")->cancelled);
  }
  SECTION("Should reload only when the directory changed") {
    REQUIRE_FALSE(library.reloadIfChanged().has_value());
    write("Cat.xml", tree("<Halt/>"));
    const auto report = library.reloadIfChanged();
    REQUIRE(report.has_value());
    REQUIRE(report->trees == 3);
    REQUIRE(report->reused == 2);
  }
  SECTION("Should rebuild every tree after the factory changed") {
    library.factory().add("Patrol", [] { return std::unique_ptr<MbtNode>(); });
    const MbtLoadReport report = library.reload();
    REQUIRE(report.reused == 0);
  }
  fs::remove_all(dir);
}

// Regression: one broken file made every tree "not loaded" at start-up, and errors named
// files without their directory.
TEST_CASE("First load: a broken file is reported with its directory, the healthy trees load",
          "[mbt][loader][reload]") {
  const fs::path dir = fs::temp_directory_path() / "npcd_mbt_first_load" / "behavior_trees";
  fs::remove_all(dir.parent_path());
  fs::create_directories(dir / "sub");
  std::ofstream(dir / "Dog.xml", std::ios::binary) << tree("<Animate name=\"Wag\"/>");
  std::ofstream(dir / "sub" / "Guard.xml", std::ios::binary) << tree("<Move speed=\"1\"/>");
  MbtLibrary library;
  const MbtLoadReport report = library.loadDirectory(dir.string());
  REQUIRE(report.errors ==
          std::vector<std::string>{"behavior_trees/sub/Guard.xml:3: <Move> needs attribute \"to\""});
  REQUIRE(report.trees == 1);
  REQUIRE(library.treeNames() == std::vector<std::string>{"Dog"});
  TestHost host(library.names());
  MbtInstance dog;
  REQUIRE(library.bind(dog, "Dog", host.view.id, 1).isOk());
  dog.tick(host);
  REQUIRE(host.running("Animate") == 1);

  SECTION("Should refuse a broken reload whole, the loaded tree staying") {
    std::ofstream(dir / "Dog.xml", std::ios::binary) << "<BehaviorTree>";
    const MbtLoadReport refused = library.reload();
    REQUIRE(refused.trees == 0);
    REQUIRE_THAT(refused.text(), Catch::StartsWith("behavior_trees/Dog.xml:1: "));
    REQUIRE(library.treeNames() == std::vector<std::string>{"Dog"});
  }
  SECTION("Should load the repaired file on reload") {
    std::ofstream(dir / "sub" / "Guard.xml", std::ios::binary)
        << tree("<Move to=\"Target\" speed=\"1\"/>");
    REQUIRE(library.reload().text() == "");
    REQUIRE(library.treeNames() == std::vector<std::string>{"Dog", "Guard"});
  }
  fs::remove_all(dir.parent_path());
}
