// TreeBuilder: turns one <SelectionTree> element (after block discovery) into an immutable
// SelectionTree, reporting every problem with file and line.
//
// Sections (any order; <Ref> may splice any of them, and their content):
//   <Blocks>            tree-scoped blocks (registered before trees are built)
//   <Variables>         <Variable name [default="true|false"]/>      at most 128 per tree
//   <SignalVariables>   <Signal name variable value="expr"/>          several per signal
//   <LeafTranslations>  <Map node="Leaf" | "Parent:Child:Leaf" target="Behavior"/>
//   one root node       <Priority> | <StateMachine> | <Leaf>, each with a "name"
// Errors (the load is refused): missing attributes, unexpected tags, duplicate variables,
// states or translations, unknown variables in conditions and signals, bad expressions,
// unknown blocks and ref cycles, <Sequence> (unsupported), leaves with children, states
// without exactly one child node, transitions to unknown states, limits (variables, states,
// depth), and — when BstLoadOptions::is_known_behavior is set — leaves whose behavior
// (translated name, or the leaf's own) is not known.
// Warnings: unknown attributes, ignored conditions (on the root, on a state's child),
// mixed and/or/xor without parentheses, translations that match no leaf, empty Priority.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "bst/load_options.h"
#include "bst/selection_tree.h"
#include "bst/xml_source.h"

namespace npc {

// A <SelectionTree> found while discovering files.
struct TreeSource {
  XmlItem element;
  uint32_t scope = 0;  // its block scope
  std::string name;
  std::string type;
};

class TreeBuilder {
 public:
  TreeBuilder(const TreeSource& source, const BlockTable& blocks, BstNames& names,
              const BstLoadOptions& options, Diagnostics& diagnostics);

  // Builds the tree. The result is only usable when no error was added to `diagnostics`.
  SelectionTree build();

 private:
  struct Translation {
    std::string node;
    std::string leaf;                    // last part of a qualified name
    std::vector<std::string> ancestors;  // outermost first; empty when unqualified
    std::string target;
    Location at;
    bool used = false;
  };

  void loadVariables(const XmlItem& section);
  void loadSignals(const XmlItem& section, std::vector<std::pair<SignalId, SignalAssignment>>& out);
  void loadTranslations(const XmlItem& section);
  void assignBehaviors();
  uint16_t buildNode(const XmlItem& item, uint16_t parent, size_t depth, std::string condition,
                     std::string state);
  void buildPriority(const XmlItem& item, uint16_t index, size_t depth);
  void buildStateMachine(const XmlItem& item, uint16_t index, size_t depth);
  bool compile(const XmlItem& item, pugi::xml_attribute attribute, const std::string& what,
               CompiledCondition& out);
  int resolve(std::string_view name) const;
  // The value of a required attribute; reports "<Tag> without a "attr"" when missing/empty.
  const char* required(const XmlItem& item, const char* attribute);

  const TreeSource& source_;
  BstNames& names_;
  const BstLoadOptions& options_;
  Diagnostics& diagnostics_;
  RefExpander expander_;
  SelectionTree tree_;
  std::unordered_map<std::string, std::pair<int, std::string>> variables_;  // lower → (index, at)
  size_t declared_ = 0;
  std::vector<Location> node_at_;  // by node index
  std::vector<Translation> translations_;
};

}  // namespace npc
