// Shared fixtures for the selection tree tests: the seed's Grunt tree (wrapped in the
// <SelectionTree> element CryEngine's loader requires) and small helpers.
#pragma once

#include <string>
#include <vector>

#include "bst/selection_tree_library.h"

namespace npc::test {

// Seed 001, "The Selection Tree" sections verbatim, in a <SelectionTree>. Line numbers
// matter to the tests: line 1 is the <SelectionTree> element.
inline const std::string kSeedGrunt = R"(<SelectionTree name="Grunt" type="BehaviorSelectionTree">
<Variables>
  <Variable name="AwareOfSound" default="false"/>
  <Variable name="AwareOfEnemy"/>
</Variables>
<SignalVariables>
  <Signal name="OnHearSound" variable="AwareOfSound" value="true"/>
  <Signal name="OnEnemySeen" variable="AwareOfEnemy" value="true"/>
  <Signal name="OnNoTarget" variable="AwareOfSound" value="false"/>
  <Signal name="OnNoTarget" variable="AwareOfEnemy" value="false"/>
</SignalVariables>
<LeafTranslations>
  <Map node="Idle" target="GruntIdle"/>
  <Map node="Investigate" target="GruntInvestigate"/>
  <Map node="Attack" target="GruntAttack"/>
</LeafTranslations>
<Priority name="Root">
  <Priority name="Combat" condition="AwareOfEnemy">
    <Leaf name="Attack"/>
  </Priority>
  <Leaf name="Investigate" condition="AwareOfSound"/>
  <Leaf name="Idle"/>
</Priority>
</SelectionTree>
)";

// Seed 001, "Sharing Behavior Blocks": Common.xml with the CommonBehaviorTree block added
// to the same file (the seed says a file holds any number of blocks).
inline const std::string kSeedCommon = R"(<Blocks>
  <Block name="CommonVars">
    <Variable name="AwareOfSound"/>
    <Variable name="AwareOfEnemy"/>
  </Block>

  <Block name="CommonSignalVars">
    <Signal name="OnHearSound" variable="AwareOfSound" value="true"/>
    <Signal name="OnEnemySeen" variable="AwareOfEnemy" value="true"/>
    <Signal name="OnNoTarget" variable="AwareOfSound" value="false"/>
    <Signal name="OnNoTarget" variable="AwareOfEnemy" value="false"/>
  </Block>

<Block name="CommonBehaviorTree">
  <Priority name="CommonRoot">
    <Priority name="Combat" condition="AwareOfEnemy">
      <Leaf name="Attack"/>
    </Priority>
    <Leaf name="Investigate" condition="AwareOfSound"/>
    <Leaf name="Idle"/>
  </Priority>
</Block>
</Blocks>
)";

// The Grunt tree rewritten with the seed's refs.
inline const std::string kSeedGruntWithRefs = R"(<SelectionTree name="Grunt" type="BehaviorSelectionTree">
<Variables>
  <ref name="CommonVars"/>
</Variables>
<SignalVariables>
  <ref name="CommonSignalVars"/>
</SignalVariables>
<LeafTranslations>
  <Map node="Idle" target="GruntIdle"/>
  <Map node="Investigate" target="GruntInvestigate"/>
  <Map node="Attack" target="GruntAttack"/>
</LeafTranslations>
<Priority name="Root">
  <Ref name="CommonBehaviorTree"/>
</Priority>
</SelectionTree>
)";

// The seed's Alien: the Grunt duplicated with its Leaf Translation section replaced.
inline const std::string kSeedAlien = R"(<SelectionTree name="Alien" type="BehaviorSelectionTree">
<Variables>
  <ref name="CommonVars"/>
</Variables>
<SignalVariables>
  <ref name="CommonSignalVars"/>
</SignalVariables>
<LeafTranslations>
  <Map node="Idle" target="AlienIdle"/>
  <Map node="Investigate" target="AlienInvestigate"/>
  <Map node="Attack" target="AlienAttack"/>
</LeafTranslations>
<Priority name="Root">
  <Ref name="CommonBehaviorTree"/>
</Priority>
</SelectionTree>
)";

// Loads `files` into a fresh library, or reports why not.
inline BstLoadReport load(SelectionTreeLibrary& library, std::vector<BstSourceFile> files,
                          const BstLoadOptions& options = {}) {
  return library.loadSources(files, options);
}

// An agent bound to tree `name` (which must exist).
inline BstAgentState agentOn(const SelectionTreeLibrary& library, const std::string& name) {
  BstAgentState agent;
  library.bind(agent, library.findTree(name));
  return agent;
}

// The behavior the agent is in after one evaluation, by name.
inline std::string evaluateName(const SelectionTreeLibrary& library, BstAgentState& agent) {
  return std::string(library.behaviorName(library.evaluate(agent).current));
}

inline bool signal(SelectionTreeLibrary& library, BstAgentState& agent, const std::string& name) {
  return library.applySignal(agent, library.internSignal(name));
}

}  // namespace npc::test
