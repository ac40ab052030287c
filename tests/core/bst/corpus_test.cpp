// The real CryEngine 3.4 selection tree files in ../shared/corpus/bst (see SOURCES.md there):
// which load, which fail, and why. Reported SKIPPED when the corpus is not checked out
// (shared_corpus.h).
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "shared_corpus.h"

#include "bst_test_support.h"

using namespace npc;
using namespace npc::test;
namespace fs = std::filesystem;

namespace {

const fs::path kCorpus = fs::path(NPCD_SHARED_DIR) / "corpus" / "bst";

bool corpusPresent() { return sharedCorpusPresent(kCorpus); }

BstSourceFile corpusFile(const std::string& name) {
  std::ifstream in(kCorpus / name, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return {name, text.str()};
}

}  // namespace

TEST_CASE("Corpus BasicAI.xml loads: defaults, one signal setting several variables, or and !",
          "[bst][corpus]") {
  if (!corpusPresent()) return;
  SelectionTreeLibrary library;
  const BstLoadReport report = load(library, {corpusFile("BasicAI.xml")});
  REQUIRE(report.text() == "");
  BstAgentState agent = agentOn(library, "BasicAI");
  SECTION("Should idle with nothing seen (\"TargetLost or !AwareOfEnemy\")") {
    REQUIRE(evaluateName(library, agent) == "BasicAIIdle_ST");
  }
  SECTION("Should attack on OnEnemySeen and idle again on OnLostSightOfTarget") {
    REQUIRE(signal(library, agent, "OnEnemySeen"));
    REQUIRE(evaluateName(library, agent) == "BasicAIAttack_ST");
    REQUIRE(signal(library, agent, "OnLostSightOfTarget"));
    REQUIRE(evaluateName(library, agent) == "BasicAIIdle_ST");
  }
  SECTION("Should attack when merely interested (first leaf wins)") {
    REQUIRE(signal(library, agent, "OnInterestingSoundHeard"));
    REQUIRE(evaluateName(library, agent) == "BasicAIAttack_ST");
  }
}

TEST_CASE("Corpus Cover2ST.xml loads: 15 leaves, the last one the default", "[bst][corpus]") {
  if (!corpusPresent()) return;
  SelectionTreeLibrary library;
  const BstLoadReport report = load(library, {corpusFile("Cover2ST.xml")});
  REQUIRE(report.text() == "");
  BstAgentState agent = agentOn(library, "Cover2ST");
  REQUIRE(library.tree(agent.tree)->leafCount() == 15);
  SECTION("Should fall through to the unconditional Cover2IdleST") {
    REQUIRE(evaluateName(library, agent) == "Cover2IdleST");
  }
  SECTION("Should pick the first true leaf in file order") {
    library.setVariable(agent, "Panic", true);
    REQUIRE(evaluateName(library, agent) == "Cover2PanicST");
    library.setVariable(agent, "Attack", true);
    REQUIRE(evaluateName(library, agent) == "Cover2AttackST");
  }
}

TEST_CASE("Corpus Common.xml and TargetThreat.xml load as global blocks", "[bst][corpus]") {
  if (!corpusPresent()) return;
  SelectionTreeLibrary library;
  SECTION("Should load both files (blocks are checked where a tree refs them)") {
    const BstLoadReport report =
        load(library, {corpusFile("Common.xml"), corpusFile("TargetThreat.xml")});
    REQUIRE(report.text() == "");
    REQUIRE(report.trees == 0);
  }
  SECTION("Should load the whole corpus directory: two trees, four files") {
    const BstLoadReport report = library.loadDirectory(kCorpus.string());
    REQUIRE(report.text() == "");
    REQUIRE(report.files == 4);
    REQUIRE(report.trees == 2);
  }
}

TEST_CASE("Corpus blocks used by a tree: the located errors they deserve", "[bst][corpus]") {
  if (!corpusPresent()) return;
  // A probe tree using the corpus blocks the way the original trees did.
  auto probe = [](const std::string& extra_variables) {
    return BstSourceFile{"Probe.xml", R"(<SelectionTree name="Probe" type="BehaviorSelectionTree">
<Variables><Ref name="CommonVars"/>)" + extra_variables + R"(</Variables>
<SignalVariables><Ref name="CommonSignalVars"/></SignalVariables>
<Priority name="Root">
  <Leaf name="Fight" condition="AwareOfEnemy and !TargetLost"/>
  <Leaf name="Wary" condition="TargetThreatSuspected"/>
  <Leaf name="Idle"/>
</Priority>
</SelectionTree>
)"};
  };
  SelectionTreeLibrary library;
  SECTION("Should fail without TargetThreat.xml: CommonVars refs its block") {
    const BstLoadReport report = load(library, {corpusFile("Common.xml"), probe("")});
    REQUIRE(report.errors.size() == 6);  // with the four of the next section
    REQUIRE(report.errors[4] ==
            "Common.xml:28: unknown block \"TargetThreatVars\" (via Ref \"CommonVars\" at "
            "Probe.xml:2)");
    REQUIRE(report.errors[5] ==
            "Probe.xml:6: condition \"TargetThreatSuspected\": unknown variable "
            "\"TargetThreatSuspected\"");
  }
  SECTION("Should fail where CommonSignalVars sets variables CommonVars never declares") {
    // CryEngine's loader refuses these too ("Unknown variable ... used for signal
    // variable"): the original trees declared ForcedExecute and CallReinforcements themselves.
    const BstLoadReport report =
        load(library, {corpusFile("Common.xml"), corpusFile("TargetThreat.xml"), probe("")});
    REQUIRE(report.errors ==
            std::vector<std::string>{
                "Common.xml:17: signal \"OnForcedExecute\" sets unknown variable \"ForcedExecute\" "
                "(via Ref \"CommonSignalVars\" at Probe.xml:3)",
                "Common.xml:18: signal \"OnForcedExecuteComplete\" sets unknown variable "
                "\"ForcedExecute\" (via Ref \"CommonSignalVars\" at Probe.xml:3)",
                "Common.xml:19: signal \"OnCallReinforcements\" sets unknown variable "
                "\"CallReinforcements\" (via Ref \"CommonSignalVars\" at Probe.xml:3)",
                "Common.xml:20: signal \"CallReinforcementsDone\" sets unknown variable "
                "\"CallReinforcements\" (via Ref \"CommonSignalVars\" at Probe.xml:3)",
            });
  }
  SECTION("Should load and run once the tree declares them, with the nested block's variables") {
    const BstLoadReport report =
        load(library, {corpusFile("Common.xml"), corpusFile("TargetThreat.xml"),
                       probe("<Variable name=\"ForcedExecute\"/><Variable name=\"CallReinforcements\"/>")});
    REQUIRE(report.text() == "");
    BstAgentState agent = agentOn(library, "Probe");
    REQUIRE(library.tree(agent.tree)->variable_names.size() == 12);
    REQUIRE(evaluateName(library, agent) == "Idle");
    REQUIRE(library.setVariable(agent, "TargetThreatSuspected", true).isOk());
    REQUIRE(evaluateName(library, agent) == "Wary");
    REQUIRE(signal(library, agent, "OnGroupEnemySeen"));
    REQUIRE(evaluateName(library, agent) == "Fight");
    REQUIRE(signal(library, agent, "OnTargetLost"));
    REQUIRE(evaluateName(library, agent) == "Wary");
  }
}
