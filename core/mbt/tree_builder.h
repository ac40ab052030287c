// MbtTreeBuilder: one tree file → an immutable MbtTree (the sections of <BehaviorTree>, the
// node tree under <Root> through the node factory, then child pointers and memory slots).
// Every problem is added to the diagnostics; build() returns nullptr if this file had any.
#pragma once

#include <memory>
#include <string>

#include "bst/xml_source.h"
#include "mbt/load_context.h"
#include "mbt/tree.h"

namespace npc {

class MbtTreeBuilder {
 public:
  MbtTreeBuilder(const XmlFile& file, std::string tree_name, const MbtNodeFactory& factory,
                 SignalNames& signals, NameTable<ActionNameId>& names, MbtGroupScopes& scopes,
                 MbtLuaRuntime& lua, const MbtLibraryConfig& config, Diagnostics& diagnostics);

  std::unique_ptr<MbtTree> build();

 private:
  void variables(pugi::xml_node section);
  void signalVariables(pugi::xml_node section);
  void timestamps(pugi::xml_node section);
  void root(pugi::xml_node section);
  void finish();
  uint16_t assignSlots(MbtNode& node, uint16_t base);

  const XmlFile& file_;
  std::unique_ptr<MbtTree> tree_;
  Diagnostics& diagnostics_;
  MbtLoadContext ctx_;
  size_t errors_before_;
};

}  // namespace npc
