// What a node sees while its tree file loads: its XML element (attribute readers that report
// located errors) and the load context (children, variables, timestamps, names, Lua).
//
// Every message is located and gathered before the load is refused:
//   SDK_Grunt_02.xml:91: <Loop> count "x" is not a whole number
//   SDK_Grunt_02.xml:88: warning: <Communicate> unknown attribute "expirity" is ignored
// (the file name carries the tree name: a tree is named after its file). Only used while
// loading, on the thread that loads.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <pugixml.hpp>

#include "bst/condition.h"
#include "bst/xml_source.h"   // XmlFile, Diagnostics, Location
#include "mbt/mbt_types.h"
#include "world/ids.h"

namespace npc {

class MbtLoadContext;
class MbtLuaRuntime;
class MbtNode;
class MbtNodeFactory;
class MbtTree;
template <class Id>
class NameTable;
class MbtGroupScopes;
struct MbtLibraryConfig;

// One element of a tree file. Attribute readers mark the attribute as known; when the
// element object goes away, every attribute nobody read gets an "unknown attribute"
// warning (CryEngine drops them silently; real files have typos like expirity=).
class MbtXmlElement {
 public:
  MbtXmlElement(pugi::xml_node node, MbtLoadContext& ctx);
  MbtXmlElement(const MbtXmlElement&) = delete;
  MbtXmlElement& operator=(const MbtXmlElement&) = delete;
  ~MbtXmlElement();

  pugi::xml_node node() const { return node_; }
  std::string_view tag() const { return node_.name(); }
  uint32_t line() const;
  uint32_t lineOf(std::string_view attribute) const;
  Location where() const;
  Location where(std::string_view attribute) const;
  bool has(std::string_view attribute) const;

  // Readers: nullopt when the attribute is absent (an error "needs attribute" if required)
  // or malformed (an error naming the value).
  std::optional<std::string_view> string(std::string_view attribute, bool required = false);
  // A non-empty string.
  std::optional<std::string_view> name(std::string_view attribute, bool required = false);
  // A finite decimal number, optionally within [min, max].
  std::optional<double> number(std::string_view attribute, bool required = false,
                               double min = -1e300, double max = 1e300);
  // "1"/"0"/"true"/"false" (case-insensitive).
  std::optional<bool> boolean(std::string_view attribute, bool required = false);
  // A whole number in [0, max].
  std::optional<uint32_t> count(std::string_view attribute, bool required, uint32_t max);
  // Index of the value among `choices` (case-insensitive).
  std::optional<size_t> choice(std::string_view attribute,
                               std::initializer_list<std::string_view> choices,
                               bool required = false);
  // Marks an attribute as known without reading it.
  void accept(std::string_view attribute);
  void acceptAll() { accept_all_ = true; }

  // Element children (comments and text skipped). Calling it means the node handles its
  // children itself (no "takes no child nodes" error).
  std::vector<pugi::xml_node> children();
  bool childrenHandled() const { return children_handled_; }

  // Located messages, prefixed with "<Tag> ".
  void error(std::string_view message);
  void error(std::string_view attribute, std::string_view message);
  void warning(std::string_view message);
  void warning(std::string_view attribute, std::string_view message);
  bool failed() const { return failed_; }

 private:
  void markRead(pugi::xml_attribute attribute);
  pugi::xml_node node_;
  MbtLoadContext& ctx_;
  uint64_t read_ = 0;  // bit i: attribute i was read (attributes past 64 count as read)
  bool accept_all_ = false;
  bool children_handled_ = false;
  bool failed_ = false;
};

class MbtLoadContext {
 public:
  MbtLoadContext(MbtTree& tree, const XmlFile& file, const MbtNodeFactory& factory,
                 SignalNames& signals, NameTable<ActionNameId>& names, MbtGroupScopes& scopes,
                 MbtLuaRuntime& lua, const MbtLibraryConfig& config, Diagnostics& diagnostics);
  MbtLoadContext(const MbtLoadContext&) = delete;
  MbtLoadContext& operator=(const MbtLoadContext&) = delete;

  // --- children -------------------------------------------------------------------------
  // Loads every element child of `parent` as a node of the current node; reports a count
  // outside [min, max]. False if any child failed.
  bool loadChildren(MbtXmlElement& parent, size_t min, size_t max);
  // Loads one element as the current node's next child (for wrappers such as <Case>,
  // <State><BehaviorTree>); nullopt when it failed.
  std::optional<MbtNodeIndex> loadChild(pugi::xml_node element);
  // Creates the node for `element` (and its subtree). Used by the tree builder for <Root>.
  std::optional<MbtNodeIndex> createNode(pugi::xml_node element);
  // Children loaded so far for the node being loaded.
  size_t loadedChildCount() const;

  // --- definitions of the tree ----------------------------------------------------------
  // Compiles a condition attribute over the tree's variables. Absent: `out` = always true
  // (an error if required). Empty: true when `empty_is_true`, else an error.
  bool condition(MbtXmlElement& xml, std::string_view attribute, CompiledCondition& out,
                 bool required, bool empty_is_true = false);
  // Index of the timestamp named by an attribute; nullopt (error) when undeclared.
  std::optional<uint8_t> timestamp(MbtXmlElement& xml, std::string_view attribute,
                                   bool required = true);
  // Compiles Lua code from an attribute (syntax errors located); the chunk reference, or
  // nullopt. Absent and not required: returns -1 (no code).
  std::optional<int> lua(MbtXmlElement& xml, std::string_view attribute, bool required);

  // --- names ----------------------------------------------------------------------------
  SignalId signal(std::string_view name);
  ActionNameId name(std::string_view name);     // action / parameter / text names
  GroupScopeId scope(std::string_view name);    // GroupScope names
  MbtLuaRuntime& luaRuntime() { return lua_; }
  const MbtLibraryConfig& config() const { return config_; }

  const std::string& treeName() const;
  const XmlFile& file() const { return file_; }
  Diagnostics& diagnostics() { return diagnostics_; }
  MbtTree& tree() { return tree_; }

 private:
  struct Pending {
    std::vector<uint16_t> children;
  };
  MbtTree& tree_;
  const XmlFile& file_;
  const MbtNodeFactory& factory_;
  SignalNames& signals_;
  NameTable<ActionNameId>& names_;
  MbtGroupScopes& scopes_;
  MbtLuaRuntime& lua_;
  const MbtLibraryConfig& config_;
  Diagnostics& diagnostics_;
  std::vector<Pending> stack_;              // children of the nodes being loaded
  std::vector<std::vector<uint16_t>> child_lists_;  // by node index, moved into the tree
  size_t depth_ = 0;

  friend class MbtTreeBuilder;
};

}  // namespace npc
