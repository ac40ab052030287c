#include <catch2/catch.hpp>

#include "bst_test_support.h"

using namespace npc;
using namespace npc::test;

TEST_CASE("The seed's Grunt tree loads and picks Idle, Investigate and Attack", "[bst][seed]") {
  SelectionTreeLibrary library;
  const BstLoadReport report = load(library, {{"Grunt.xml", kSeedGrunt}});
  REQUIRE(report.text() == "");
  REQUIRE(report.trees == 1);
  BstAgentState grunt = agentOn(library, "Grunt");

  SECTION("Should default to Idle when it has no stimulus") {
    REQUIRE(evaluateName(library, grunt) == "GruntIdle");
  }
  SECTION("Should investigate when it hears something") {
    REQUIRE(signal(library, grunt, "OnHearSound"));
    REQUIRE(evaluateName(library, grunt) == "GruntInvestigate");
  }
  SECTION("Should attack when it sees the enemy, even if it also heard a sound") {
    signal(library, grunt, "OnHearSound");
    signal(library, grunt, "OnEnemySeen");
    REQUIRE(evaluateName(library, grunt) == "GruntAttack");
  }
  SECTION("Should fall back to Idle when OnNoTarget clears both variables") {
    signal(library, grunt, "OnHearSound");
    signal(library, grunt, "OnEnemySeen");
    evaluateName(library, grunt);
    REQUIRE(signal(library, grunt, "OnNoTarget"));
    REQUIRE(evaluateName(library, grunt) == "GruntIdle");
  }
  SECTION("Should let a behavior go to Attack through SetBehaviorVariable") {
    signal(library, grunt, "OnHearSound");
    REQUIRE(evaluateName(library, grunt) == "GruntInvestigate");
    REQUIRE(library.setVariable(grunt, "AwareOfEnemy", true).isOk());
    REQUIRE(evaluateName(library, grunt) == "GruntAttack");
  }
  SECTION("Should read variable defaults (all false unless default=\"true\")") {
    const SelectionTree* tree = library.tree(library.findTree("Grunt"));
    REQUIRE(tree->variable_names == std::vector<std::string>{"AwareOfSound", "AwareOfEnemy"});
    REQUIRE(tree->defaults == VariableSet{});
    REQUIRE(tree->leafCount() == 3);
    REQUIRE(tree->type == "BehaviorSelectionTree");
  }
}

TEST_CASE("Leaf names may be raw behavior names instead of translated ones", "[bst][seed]") {
  SelectionTreeLibrary library;
  REQUIRE(load(library, {{"Raw.xml", R"(<SelectionTree name="Raw" type="BehaviorSelectionTree">
<Variables><Variable name="AwareOfEnemy" default="true"/></Variables>
<Priority name="Root">
  <Leaf name="GruntAttack" condition="AwareOfEnemy"/>
  <Leaf name="GruntIdle"/>
</Priority>
</SelectionTree>)"}}).ok());
  BstAgentState agent = agentOn(library, "Raw");
  SECTION("Should use the leaf's own name and honour default=\"true\"") {
    REQUIRE(evaluateName(library, agent) == "GruntAttack");
  }
}

TEST_CASE("The seed's shared blocks serve Grunt and Alien with their own translations",
          "[bst][seed][blocks]") {
  SelectionTreeLibrary library;
  const BstLoadReport report = load(library, {{"Common.xml", kSeedCommon},
                                              {"Grunt.xml", kSeedGruntWithRefs},
                                              {"Alien.xml", kSeedAlien}});
  REQUIRE(report.text() == "");
  REQUIRE(report.trees == 2);
  BstAgentState grunt = agentOn(library, "Grunt");
  BstAgentState alien = agentOn(library, "Alien");

  SECTION("Should give both trees the block's variables, signals and subtree") {
    for (const char* name : {"Grunt", "Alien"}) {
      const SelectionTree* tree = library.tree(library.findTree(name));
      REQUIRE(tree->variable_names == std::vector<std::string>{"AwareOfSound", "AwareOfEnemy"});
      REQUIRE(tree->leafCount() == 3);
      REQUIRE(tree->pathKey(3) == "Root/CommonRoot/Combat/Attack");
    }
  }
  SECTION("Should map the same generic leaves to each archetype's behaviors") {
    REQUIRE(evaluateName(library, grunt) == "GruntIdle");
    REQUIRE(evaluateName(library, alien) == "AlienIdle");
    signal(library, grunt, "OnEnemySeen");
    signal(library, alien, "OnHearSound");
    REQUIRE(evaluateName(library, grunt) == "GruntAttack");
    REQUIRE(evaluateName(library, alien) == "AlienInvestigate");
  }
  SECTION("Should let many agents share one tree: only values differ") {
    BstAgentState second = agentOn(library, "Grunt");
    signal(library, grunt, "OnEnemySeen");
    REQUIRE(evaluateName(library, grunt) == "GruntAttack");
    REQUIRE(evaluateName(library, second) == "GruntIdle");
    REQUIRE(grunt.tree == second.tree);
  }
  SECTION("Should find trees by name regardless of case, as CryEngine does") {
    REQUIRE(library.findTree("grunt") == library.findTree("Grunt"));
    REQUIRE(library.findTree("Nobody") == SelectionTreeId::kNone);
  }
}

TEST_CASE("Files hold one tree, several trees or blocks; blocks have scopes", "[bst][blocks]") {
  const std::string trees = R"(<selectiontrees>
 <SelectionTree name="Scoped" type="BehaviorSelectionTree">
  <Blocks>
   <Block name="Vars"><Variable name="Local"/></Block>
  </Blocks>
  <Variables><Ref name="Vars"/></Variables>
  <Priority name="Root"><Leaf name="UsesLocal" condition="Local"/><Leaf name="Idle"/></Priority>
 </SelectionTree>
 <SelectionTree name="Global" type="BehaviorSelectionTree">
  <VARIABLES><REF name="Vars"/></VARIABLES>
  <priority name="Root"><leaf name="UsesShared" condition="Shared"/><leaf name="Idle"/></priority>
 </SelectionTree>
</selectiontrees>)";
  const std::string blocks = R"(<Blocks>
  <Block name="Vars" group="Common"><Variable name="Shared"/></Block>
</Blocks>)";
  SelectionTreeLibrary library;
  const BstLoadReport report = load(library, {{"Trees.xml", trees}, {"Blocks.xml", blocks}});
  REQUIRE(report.text() == "");
  SECTION("Should resolve a ref in the tree's own scope before the global one") {
    REQUIRE(library.tree(library.findTree("Scoped"))->variable_names ==
            std::vector<std::string>{"Local"});
    REQUIRE(library.tree(library.findTree("Global"))->variable_names ==
            std::vector<std::string>{"Shared"});
  }
  SECTION("Should read tags case-insensitively, <ref> and <Ref> alike") {
    REQUIRE(report.trees == 2);
  }
}

TEST_CASE("Refs splice blocks into every section and node", "[bst][blocks]") {
  const std::string blocks = R"(<Blocks>
 <Block name="Sections">
  <Variables><Variable name="Alarm"/><Ref name="MoreVars"/></Variables>
  <SignalVariables><Ref name="Signals"/></SignalVariables>
 </Block>
 <Block name="MoreVars"><Variable name="Calm"/></Block>
 <Block name="Signals">
  <Signal name="OnAlarm" variable="Alarm" value="true"/>
  <Signal name="OnCalm" variable="Calm" value="true"/>
  <Signal name="OnCalm" variable="Alarm" value="false"/>
 </Block>
 <Block name="Maps"><Map node="Search" target="GuardSearch"/></Block>
 <Block name="States">
  <State name="Quiet"><Ref name="QuietBody"/></State>
  <State name="Loud"><Transition state="Quiet" condition="Calm"/><Leaf name="Search"/></State>
 </Block>
 <Block name="QuietBody"><Transition state="Loud" condition="Alarm"/><Leaf name="Rest"/></Block>
</Blocks>)";
  const std::string tree = R"(<SelectionTree name="Guard" type="BehaviorSelectionTree">
 <Ref name="Sections"/>
 <LeafTranslations><Ref name="Maps"/></LeafTranslations>
 <StateMachine name="Mood"><Ref name="States"/></StateMachine>
</SelectionTree>)";
  SelectionTreeLibrary library;
  const BstLoadReport report = load(library, {{"Blocks.xml", blocks}, {"Guard.xml", tree}});
  REQUIRE(report.text() == "");
  BstAgentState guard = agentOn(library, "Guard");
  SECTION("Should take sections, variables, signals, maps, states and their bodies from blocks") {
    REQUIRE(evaluateName(library, guard) == "Rest");
    signal(library, guard, "OnAlarm");
    REQUIRE(evaluateName(library, guard) == "GuardSearch");
    signal(library, guard, "OnCalm");
    REQUIRE(evaluateName(library, guard) == "Rest");
  }
}

TEST_CASE("A Priority picks the first child whose condition holds and that yields a leaf",
          "[bst][evaluation]") {
  SelectionTreeLibrary library;
  REQUIRE(load(library, {{"P.xml", R"(<SelectionTree name="P" type="BehaviorSelectionTree">
<Variables><Variable name="Armed"/><Variable name="HasAmmo"/><Variable name="Cornered"/></Variables>
<Priority name="Root">
  <Priority name="Combat" condition="Armed">
    <Leaf name="Shoot" condition="HasAmmo"/>
    <Leaf name="Melee" condition="Cornered"/>
  </Priority>
  <Leaf name="Flee" condition="!Armed or !HasAmmo"/>
  <Leaf name="Wait"/>
</Priority>
</SelectionTree>)"}}).ok());
  BstAgentState agent = agentOn(library, "P");
  SECTION("Should backtrack when a child's condition holds but its subtree yields nothing") {
    library.setVariable(agent, "Armed", true);
    REQUIRE(evaluateName(library, agent) == "Flee");
  }
  SECTION("Should prefer earlier children in file order") {
    library.setVariable(agent, "Armed", true);
    library.setVariable(agent, "HasAmmo", true);
    library.setVariable(agent, "Cornered", true);
    REQUIRE(evaluateName(library, agent) == "Shoot");
  }
  SECTION("Should select nothing (No Behavior) when no leaf matches") {
    SelectionTreeLibrary empty;
    REQUIRE(load(empty, {{"E.xml", R"(<SelectionTree name="E" type="BehaviorSelectionTree">
<Variables><Variable name="Never"/></Variables>
<Priority name="Root"><Leaf name="Only" condition="Never"/></Priority>
</SelectionTree>)"}}).ok());
    BstAgentState e = agentOn(empty, "E");
    REQUIRE(evaluateName(empty, e) == "No Behavior");
  }
}

TEST_CASE("Leaf translations map plain and qualified leaf names", "[bst][translations]") {
  const std::string tree = R"(<SelectionTree name="T" type="BehaviorSelectionTree">
<Variables><Variable name="Alert"/><Variable name="Bored"/></Variables>
<LeafTranslations>
  <Map node="Idle" target="PlainIdle"/>
  <Map node="Combat:Move" target="CombatMove"/>
  <Map node="Root:Patrol:Move" target="PatrolMove"/>
  <Map node="Patrol:Idle" target="NeverUsed"/>
  <Map node="Elsewhere:Move" target="Nowhere"/>
</LeafTranslations>
<Priority name="Root">
  <Priority name="Combat" condition="Alert"><Leaf name="Move"/></Priority>
  <Priority name="Patrol" condition="Bored"><Leaf name="Move"/><Leaf name="Idle"/></Priority>
  <Leaf name="Move"/>
</Priority>
</SelectionTree>)";
  SelectionTreeLibrary library;
  const BstLoadReport report = load(library, {{"T.xml", tree}});
  REQUIRE(report.ok());
  BstAgentState agent = agentOn(library, "T");
  SECTION("Should match a qualified name against the leaf's nearest ancestors") {
    library.setVariable(agent, "Alert", true);
    REQUIRE(evaluateName(library, agent) == "CombatMove");
    library.setVariable(agent, "Alert", false);
    library.setVariable(agent, "Bored", true);
    REQUIRE(evaluateName(library, agent) == "PatrolMove");
  }
  SECTION("Should leave an unmatched leaf with its own name") {
    REQUIRE(evaluateName(library, agent) == "Move");
  }
  SECTION("Should let a plain translation win over a qualified one, as CryEngine does") {
    const SelectionTree* t = library.tree(agent.tree);
    REQUIRE(library.behaviorName(t->nodes[5].behavior) == "PlainIdle");
  }
  SECTION("Should warn, with the line, about translations no leaf uses") {
    REQUIRE(report.warnings == std::vector<std::string>{
                                   "T.xml:7: warning: translation for \"Patrol:Idle\" is not used "
                                   "by any leaf of tree \"T\"",
                                   "T.xml:8: warning: translation for \"Elsewhere:Move\" is not "
                                   "used by any leaf of tree \"T\"",
                               });
  }
}

TEST_CASE("Variables are case-insensitive, signals case-sensitive, as in CryEngine",
          "[bst][names]") {
  SelectionTreeLibrary library;
  REQUIRE(load(library, {{"C.xml", R"(<SelectionTree name="C" type="BehaviorSelectionTree">
<Variables><Variable name="AwareOfEnemy"/></Variables>
<SignalVariables><Signal name="OnEnemySeen" variable="awareofenemy" value="TRUE"/></SignalVariables>
<Priority name="Root"><Leaf name="Attack" condition="AWAREOFENEMY"/><Leaf name="Idle"/></Priority>
</SelectionTree>)"}}).ok());
  BstAgentState agent = agentOn(library, "C");
  SECTION("Should resolve a variable written in any case") {
    REQUIRE(library.setVariable(agent, "awareOFenemy", true).isOk());
    REQUIRE(evaluateName(library, agent) == "Attack");
  }
  SECTION("Should ignore a signal whose name differs only in case") {
    REQUIRE_FALSE(signal(library, agent, "onenemyseen"));
    REQUIRE(signal(library, agent, "OnEnemySeen"));
    REQUIRE(evaluateName(library, agent) == "Attack");
  }
}

TEST_CASE("Signal values are expressions applied in file order", "[bst][signals]") {
  SelectionTreeLibrary library;
  REQUIRE(load(library, {{"S.xml", R"(<SelectionTree name="S" type="BehaviorSelectionTree">
<Variables><Variable name="A"/><Variable name="B"/><Variable name="C" default="true"/></Variables>
<SignalVariables>
  <Signal name="OnToggle" variable="A" value="!A"/>
  <Signal name="OnToggle" variable="B" value="A"/>
  <Signal name="OnCopy" variable="A" value="C and !B"/>
</SignalVariables>
<Leaf name="Only"/>
</SelectionTree>)"}}).ok());
  BstAgentState agent = agentOn(library, "S");
  const SelectionVariableId a = library.findVariable("A");
  const SelectionVariableId b = library.findVariable("B");
  SECTION("Should evaluate each value against the values as updated so far") {
    signal(library, agent, "OnToggle");
    REQUIRE(library.variable(agent, a) == true);
    REQUIRE(library.variable(agent, b) == true);  // saw the new A
    signal(library, agent, "OnToggle");
    REQUIRE(library.variable(agent, a) == false);
    REQUIRE(library.variable(agent, b) == false);
  }
  SECTION("Should read other variables in a value") {
    signal(library, agent, "OnCopy");
    REQUIRE(library.variable(agent, a) == true);
  }
  SECTION("Should accept a single leaf as the root node") {
    REQUIRE(evaluateName(library, agent) == "Only");
  }
}

TEST_CASE("Loader warnings carry file and line and do not refuse the load", "[bst][warnings]") {
  SelectionTreeLibrary library;
  const BstLoadReport report = load(library, {{"W.xml", R"(<SelectionTree name="W" type="BehaviorSelectionTree" editor="x">
<Variables><Variable name="A"/><Variable name="B"/><Variable name="C"/></Variables>
<Priority name="Root" condition="A">
  <Leaf name="One"
        condition="A or B and C"
        expirity="3"/>
  <Priority name="Empty"/>
  <StateMachine name="M">
    <State name="S"><Leaf name="Two" condition="A"/></State>
  </StateMachine>
</Priority>
</SelectionTree>)"}});
  REQUIRE(report.ok());
  SECTION("Should warn about unknown attributes, ignored conditions, mixed operators, empty nodes") {
    REQUIRE(report.warnings ==
            std::vector<std::string>{
                "W.xml:1: warning: unknown attribute \"editor\" on <SelectionTree> is ignored",
                "W.xml:3: warning: condition on the root node is ignored",
                "W.xml:5: warning: condition \"A or B and C\" mixes \"or\" and \"and\" without "
                "parentheses; CryEngine evaluates left to right, as \"(A or B) and C\"",
                "W.xml:6: warning: unknown attribute \"expirity\" on <Leaf> is ignored",
                "W.xml:7: warning: Priority \"Empty\" has no children and never selects a leaf",
                "W.xml:9: warning: condition on the child of state \"S\" is ignored (use "
                "<Transition>)",
            });
  }
}

TEST_CASE("Sections may come in any order", "[bst][loader]") {
  SelectionTreeLibrary library;
  const BstLoadReport report = load(library, {{"Late.xml", R"(<SelectionTree name="Late" type="BehaviorSelectionTree">
<Priority name="Root"><Leaf name="Attack" condition="AwareOfEnemy"/><Leaf name="Idle"/></Priority>
<LeafTranslations><Map node="Attack" target="LateAttack"/></LeafTranslations>
<SignalVariables><Signal name="OnEnemySeen" variable="AwareOfEnemy" value="true"/></SignalVariables>
<Variables><Variable name="AwareOfEnemy"/></Variables>
</SelectionTree>)"}});
  SECTION("Should resolve variables declared after the nodes and signals that use them") {
    REQUIRE(report.text() == "");
    BstAgentState agent = agentOn(library, "Late");
    signal(library, agent, "OnEnemySeen");
    REQUIRE(evaluateName(library, agent) == "LateAttack");
  }
}
