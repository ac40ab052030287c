// Every load error names its file and line; all of them are gathered before the load is
// refused (sorted by file, then line).
#include <catch2/catch.hpp>

#include "bst_test_support.h"

using namespace npc;
using namespace npc::test;

using Lines = std::vector<std::string>;

TEST_CASE("Errors in variables, signals, translations and nodes are all reported, located",
          "[bst][errors]") {
  const std::string bad = R"(<SelectionTree name="Bad" type="BehaviorSelectionTree">
<Variables>
  <Variable name="Alert"/>
  <Variable name="alert"/>
  <Variable name="Tired" default="yes"/>
  <Variable/>
  <Flag name="X"/>
</Variables>
<SignalVariables>
  <Signal name="OnSeen" variable="Seen" value="true"/>
  <Signal name="OnAlarm" variable="Alert" value="tru"/>
  <Signal name="OnCalm" variable="Alert"/>
</SignalVariables>
<LeafTranslations>
  <Map node="Idle" target="BadIdle"/>
  <Map node="Idle" target="OtherIdle"/>
  <Map node="Root::Idle" target="X"/>
</LeafTranslations>
<Priority name="Root">
  <Leaf name="Fight" condition="Alert and (Alert"/>
  <Leaf name="Rest" condition="Alert Tired"/>
  <Leaf name="Hide" condition="Scared"/>
  <Leaf condition="Alert"/>
  <Leaf name="Parent"><Leaf name="Child"/></Leaf>
  <Sequence name="Seq"/>
  <Selector name="Sel"/>
  <Ref name="Missing"/>
  <Leaf name="Idle"/>
</Priority>
<Priority name="Second"/>
</SelectionTree>
)";
  SelectionTreeLibrary library;
  const BstLoadReport report = load(library, {{"Bad.xml", bad}});
  SECTION("Should refuse the load and list every error with file and line") {
    REQUIRE_FALSE(report.ok());
    REQUIRE(report.errors ==
            Lines{
                "Bad.xml:4: duplicate variable \"alert\" (first declared at Bad.xml:3)",
                "Bad.xml:5: variable \"Tired\": default must be \"true\" or \"false\", not \"yes\"",
                "Bad.xml:6: <Variable> without a \"name\"",
                "Bad.xml:7: unexpected <Flag> in <Variables>; expected <Variable>",
                "Bad.xml:10: signal \"OnSeen\" sets unknown variable \"Seen\"",
                "Bad.xml:11: signal \"OnAlarm\" value \"tru\": unknown variable \"tru\"",
                "Bad.xml:12: <Signal> without a \"value\"",
                "Bad.xml:16: duplicate translation for \"Idle\" (first at Bad.xml:15)",
                "Bad.xml:17: translation node \"Root::Idle\" has an empty part",
                "Bad.xml:20: condition \"Alert and (Alert\": unbalanced \"(\": missing \")\"",
                "Bad.xml:21: condition \"Alert Tired\": unexpected \"Tired\" after a complete "
                "expression",
                "Bad.xml:22: condition \"Scared\": unknown variable \"Scared\"",
                "Bad.xml:23: <Leaf> without a \"name\"",
                "Bad.xml:24: leaf \"Parent\" must not have children",
                "Bad.xml:25: <Sequence> is not supported (CryEngine 3.4 parses it but cannot "
                "evaluate it); use <Priority> or <StateMachine>",
                "Bad.xml:26: unknown node type <Selector>; expected <Priority>, <StateMachine> or "
                "<Leaf>",
                "Bad.xml:27: unknown block \"Missing\"",
                "Bad.xml:30: unexpected <Priority>: selection tree \"Bad\" already has a root node "
                "(<Priority> at Bad.xml:19)",
            });
  }
  SECTION("Should leave nothing loaded") {
    REQUIRE(library.treeCount() == 0);
    REQUIRE(library.generation() == 0);
  }
}

TEST_CASE("StateMachine errors are located", "[bst][errors][state_machine]") {
  const std::string sm = R"(<SelectionTree name="SM" type="BehaviorSelectionTree">
<Variables><Variable name="Go"/></Variables>
<Priority name="Root">
<StateMachine name="Machine">
  <State name="A">
    <Transition state="C" condition="Go"/>
    <Transition state="B"/>
    <Leaf name="LA"/>
    <Leaf name="LA2"/>
  </State>
  <State name="B">
    <Transition state="A" condition="Go"/>
  </State>
  <State name="a"><Leaf name="X"/></State>
  <Leaf name="Stray"/>
  <State><Leaf name="Y"/></State>
</StateMachine>
<StateMachine name="Empty"/>
</Priority>
</SelectionTree>
)";
  SelectionTreeLibrary library;
  SECTION("Should report unknown targets, missing conditions, wrong child counts, duplicates") {
    REQUIRE(load(library, {{"SM.xml", sm}}).errors ==
            Lines{
                "SM.xml:6: transition of state \"A\" to unknown state \"C\"",
                "SM.xml:7: <Transition> without a \"condition\"",
                "SM.xml:9: state \"A\" has more than one child node",
                "SM.xml:11: state \"B\" has no child node",
                "SM.xml:14: duplicate state \"a\" (first declared at SM.xml:5)",
                "SM.xml:15: unexpected <Leaf> in <StateMachine>; expected <State>",
                "SM.xml:16: <State> without a \"name\"",
                "SM.xml:18: StateMachine \"Empty\" has no states",
            });
  }
  SECTION("Should refuse more than 32 states") {
    std::string many = "<SelectionTree name=\"M\" type=\"BehaviorSelectionTree\">\n"
                       "<StateMachine name=\"Big\">\n";
    for (int i = 0; i < 33; ++i) {
      many += "<State name=\"S" + std::to_string(i) + "\"><Leaf name=\"L\"/></State>\n";
    }
    many += "</StateMachine>\n</SelectionTree>\n";
    REQUIRE(load(library, {{"M.xml", many}}).errors ==
            Lines{"M.xml:2: StateMachine \"Big\" has 33 states; at most 32 are supported"});
  }
}

TEST_CASE("File-level errors: XML syntax, roots, tree names and types, blocks", "[bst][errors]") {
  SelectionTreeLibrary library;
  const BstLoadReport report = load(
      library,
      {{"Broken.xml", "<SelectionTree name=\"X\" type=\"T\">\n<Variables>\n</SelectionTree>\n"},
       {"Other.xml", "<BehaviorTree name=\"X\"/>\n"},
       {"NoName.xml", "<SelectionTrees>\n"
                      "<SelectionTree type=\"BehaviorSelectionTree\"><Leaf name=\"L\"/></SelectionTree>\n"
                      "<SelectionTree name=\"T2\"><Leaf name=\"L\"/></SelectionTree>\n"
                      "<Tree/>\n"
                      "</SelectionTrees>\n"},
       {"Dup1.xml", "<SelectionTree name=\"Grunt\" type=\"BehaviorSelectionTree\"><Leaf name=\"L\"/></SelectionTree>"},
       {"Dup2.xml", "<SelectionTree name=\"grunt\" type=\"BehaviorSelectionTree\"><Leaf name=\"L\"/></SelectionTree>"},
       {"NoRoot.xml", "<SelectionTree name=\"NoRoot\" type=\"BehaviorSelectionTree\">\n<Variables/>\n</SelectionTree>\n"},
       {"B1.xml", "<Blocks>\n<Block name=\"Same\"/>\n<Thing/>\n<Block/>\n</Blocks>\n"},
       {"B2.xml", "<Blocks>\n<Block name=\"Same\"/>\n</Blocks>\n"},
       {"Empty.xml", ""}});
  SECTION("Should name each file and line, sorted by file") {
    REQUIRE(report.errors ==
            Lines{
                "B1.xml:3: unexpected <Thing> in <Blocks>; expected <Block>",
                "B1.xml:4: <Block> without a \"name\"",
                "B2.xml:2: duplicate block \"Same\" (first defined at B1.xml:2)",
                "Broken.xml:3: XML error: Start-end tags mismatch",
                "Dup2.xml:1: duplicate selection tree \"grunt\" (first defined at Dup1.xml:1)",
                "Empty.xml:1: XML error: No document element found",
                "NoName.xml:2: <SelectionTree> without a \"name\"",
                "NoName.xml:3: <SelectionTree> without a \"type\"",
                "NoName.xml:4: unexpected <Tree> in <SelectionTrees>; expected <SelectionTree>",
                "NoRoot.xml:1: selection tree \"NoRoot\" has no root node",
                "Other.xml:1: unexpected root element <BehaviorTree>; expected <SelectionTrees>, "
                "<SelectionTree> or <Blocks>",
            });
  }
}

TEST_CASE("Cycles of refs are detected wherever they close", "[bst][errors][blocks]") {
  const std::string blocks = R"(<Blocks>
  <Block name="A"><Ref name="B"/></Block>
  <Block name="B"><Ref name="A"/></Block>
  <Block name="Tree">
    <Priority name="Again"><Ref name="Tree"/></Priority>
  </Block>
</Blocks>
)";
  const std::string tree = R"(<SelectionTree name="T" type="BehaviorSelectionTree">
<Variables><Ref name="A"/></Variables>
<Priority name="Root"><Ref name="Tree"/><Leaf name="L"/></Priority>
</SelectionTree>
)";
  SelectionTreeLibrary library;
  SECTION("Should report the cycle at the ref that closes it, with the chain of refs") {
    REQUIRE(load(library, {{"Cycle.xml", blocks}, {"T.xml", tree}}).errors ==
            Lines{
                "Cycle.xml:3: cycle of block references: \"A\" -> \"B\" -> \"A\" (via Ref \"B\" "
                "at Cycle.xml:2, Ref \"A\" at T.xml:2)",
                "Cycle.xml:5: cycle of block references: \"Tree\" -> \"Tree\" (via Ref \"Tree\" "
                "at T.xml:3)",
            });
  }
}

TEST_CASE("Errors inside blocks name the block's file and the ref that brought them in",
          "[bst][errors][blocks]") {
  const std::string lone = R"(<SelectionTree name="Lone" type="BehaviorSelectionTree">
<Variables><Variable name="AwareOfEnemy"/></Variables>
<SignalVariables><Ref name="CommonSignalVars"/></SignalVariables>
<Priority name="Root"><Ref name="CommonBehaviorTree"/></Priority>
</SelectionTree>
)";
  SelectionTreeLibrary library;
  SECTION("Should locate the bad line in Common.xml and the ref in Lone.xml") {
    REQUIRE(load(library, {{"Common.xml", kSeedCommon}, {"Lone.xml", lone}}).errors ==
            Lines{
                "Common.xml:8: signal \"OnHearSound\" sets unknown variable \"AwareOfSound\" "
                "(via Ref \"CommonSignalVars\" at Lone.xml:3)",
                "Common.xml:10: signal \"OnNoTarget\" sets unknown variable \"AwareOfSound\" "
                "(via Ref \"CommonSignalVars\" at Lone.xml:3)",
                "Common.xml:19: condition \"AwareOfSound\": unknown variable \"AwareOfSound\" "
                "(via Ref \"CommonBehaviorTree\" at Lone.xml:4)",
            });
  }
}

TEST_CASE("Leaves must map to known behaviors when the caller lists them", "[bst][errors]") {
  BstLoadOptions options;
  options.is_known_behavior = [](std::string_view name) {
    return name == "GruntIdle" || name == "GruntAttack" || name == "Dance";
  };
  SelectionTreeLibrary library;
  SECTION("Should name the leaf, the translated behavior and the translation's line") {
    REQUIRE(load(library, {{"Grunt.xml", kSeedGrunt}}, options).errors ==
            Lines{"Grunt.xml:21: leaf \"Investigate\" maps to \"GruntInvestigate\" (translation "
                  "at Grunt.xml:14), which is not a known behavior"});
  }
  SECTION("Should name an untranslated leaf") {
    REQUIRE(load(library, {{"U.xml", R"(<SelectionTree name="U" type="BehaviorSelectionTree">
<Priority name="Root">
  <Leaf name="Dance"/>
  <Leaf name="Sing"/>
</Priority>
</SelectionTree>)"}},
                 options)
                .errors ==
            Lines{"U.xml:4: leaf \"Sing\" is not a known behavior and has no translation"});
  }
  SECTION("Should load when every behavior is known") {
    options.is_known_behavior = [](std::string_view) { return true; };
    REQUIRE(load(library, {{"Grunt.xml", kSeedGrunt}}, options).ok());
  }
}

TEST_CASE("Limits: 128 variables per tree, 64 levels of nodes", "[bst][errors][limits]") {
  auto variables = [](int count) {
    std::string xml = "<SelectionTree name=\"Many\" type=\"BehaviorSelectionTree\">\n<Variables>\n";
    for (int i = 0; i < count; ++i) xml += "<Variable name=\"V" + std::to_string(i) + "\"/>\n";
    xml += "</Variables>\n<Priority name=\"Root\"><Leaf name=\"Last\" condition=\"V" +
           std::to_string(count - 1) + "\"/><Leaf name=\"Idle\"/></Priority>\n</SelectionTree>\n";
    return xml;
  };
  SelectionTreeLibrary library;
  SECTION("Should refuse a tree with more than 128 variables") {
    REQUIRE(load(library, {{"Many.xml", variables(130)}}).errors ==
            Lines{"Many.xml:1: selection tree \"Many\" declares 130 variables; at most 128 are "
                  "supported",
                  "Many.xml:134: condition \"V129\": unknown variable \"V129\" (did you mean \"V12\"?)"});
  }
  SECTION("Should run a tree with exactly 128 variables, the last one included") {
    REQUIRE(load(library, {{"Many.xml", variables(128)}}).ok());
    BstAgentState agent = agentOn(library, "Many");
    REQUIRE(evaluateName(library, agent) == "Idle");
    REQUIRE(library.setVariable(agent, "V127", true).isOk());
    REQUIRE(evaluateName(library, agent) == "Last");
  }
  SECTION("Should refuse nodes nested deeper than 64 levels") {
    std::string xml = "<SelectionTree name=\"Deep\" type=\"BehaviorSelectionTree\">\n";
    for (int i = 0; i < 70; ++i) xml += "<Priority name=\"P" + std::to_string(i) + "\">\n";
    xml += "<Leaf name=\"L\"/>\n";
    for (int i = 0; i < 70; ++i) xml += "</Priority>\n";
    xml += "</SelectionTree>\n";
    REQUIRE(load(library, {{"Deep.xml", xml}}).errors ==
            Lines{"Deep.xml:66: nodes nest deeper than 64 levels"});
  }
}

TEST_CASE("Line numbers are right in CRLF files and for attributes on their own lines",
          "[bst][errors]") {
  SelectionTreeLibrary library;
  const std::string crlf =
      "\xEF\xBB\xBF<SelectionTree name=\"C\" type=\"BehaviorSelectionTree\">\r\n"
      "<Variables><Variable name=\"A\"/></Variables>\r\n"
      "<Priority name=\"Root\">\r\n"
      "  <Leaf name=\"L\"\r\n"
      "        condition=\"B\"/>\r\n"
      "</Priority>\r\n"
      "</SelectionTree>\r\n";
  SECTION("Should point at the attribute's line") {
    REQUIRE(load(library, {{"Crlf.xml", crlf}}).errors ==
            Lines{"Crlf.xml:5: condition \"B\": unknown variable \"B\""});
  }
}
