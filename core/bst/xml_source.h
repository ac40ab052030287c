// XML plumbing for the selection tree loader: parsed files with line numbers, located
// diagnostics, the block table and <Ref> splicing (CryEngine's "BlockyXml").
//
// Blocks: `<Block name>` elements found under a `<Blocks>` root (scope Global) or under a
// tree's own `<Blocks>` section (scope of that tree). `<Ref name>` / `<ref name>` anywhere
// the loader reads children is replaced by the children of the named block, looked up in
// the current tree's scope first, then Global; refs inside blocks resolve the same way (in
// the scope of the tree being built). A ref that leads back to a block it is already inside
// is a cycle and is reported instead of followed.
//
// Diagnostics read "file:line: message" (errors) and "file:line: warning: message"; an
// element that reached the tree through refs adds where those refs were written:
//   Common.xml:26: unknown variable "X" (via Ref "CommonVars" at Grunt.xml:5)
// Only used while loading, on the thread that loads.
#pragma once

#include <cstdint>
#include <deque>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <pugixml.hpp>

namespace npc {

// One XML file of a load, parsed with pugixml (which keeps byte offsets for line numbers).
struct XmlFile {
  std::string name;  // as shown in diagnostics: the path relative to the loaded directory
  std::string text;
  pugi::xml_document doc;
  std::vector<size_t> line_starts;

  // Parses `text`; on a syntax error sets `error` to "name:line: XML error: ..." and `line`.
  bool parse(std::string& error, uint32_t& line);
  uint32_t lineOfOffset(size_t offset) const;
  uint32_t lineOf(pugi::xml_node node) const;
  // Line of an attribute (tags may span lines); the element's line if unknown.
  uint32_t lineOf(pugi::xml_node node, pugi::xml_attribute attribute) const;
};

struct Block;

// One <Ref> being spliced: which block it pulled in and where the <Ref> was written.
struct RefFrame {
  const Block* block = nullptr;
  const XmlFile* file = nullptr;
  uint32_t line = 0;
  const RefFrame* outer = nullptr;  // the ref that brought this <Ref> in, if any
};

// Where an element was written, and through which refs it reached the tree being built.
struct Location {
  const XmlFile* file = nullptr;
  uint32_t line = 0;
  const RefFrame* via = nullptr;
};

// "file:line" of a location, without the via chain.
std::string where(const Location& location);

// Collects located diagnostics; hands them out sorted by file, then line (stable), which is
// the order a reader fixes them in.
class Diagnostics {
 public:
  void error(const Location& at, std::string_view message);
  void warning(const Location& at, std::string_view message);
  // A message already formatted as "file:line: ...".
  void error(std::string file, uint32_t line, std::string text);

  size_t errorCount() const { return errors_.size(); }
  std::vector<std::string> sortedErrors() const { return sorted(errors_); }
  std::vector<std::string> sortedWarnings() const { return sorted(warnings_); }

 private:
  struct Entry {
    std::string file;
    uint32_t line = 0;
    std::string text;
  };
  static std::vector<std::string> sorted(std::vector<Entry> entries);
  std::vector<Entry> errors_;
  std::vector<Entry> warnings_;
};

struct Block {
  std::string name;
  const XmlFile* file = nullptr;
  pugi::xml_node node;
  uint32_t line = 0;
};

// Blocks by (scope, name). Scope 0 is Global; tree scopes are numbered by the loader.
class BlockTable {
 public:
  static constexpr uint32_t kGlobal = 0;
  // Adds a block; a name already taken in that scope is an error naming both places.
  void add(uint32_t scope, Block block, Diagnostics& diagnostics);
  // The block `name` visible from `scope` (that scope, then Global), or nullptr.
  const Block* find(uint32_t scope, std::string_view name) const;

 private:
  std::map<std::pair<uint32_t, std::string>, Block> blocks_;
};

// An element after ref splicing, with its location.
struct XmlItem {
  pugi::xml_node node;
  Location where;
};

class RefExpander {
 public:
  RefExpander(const BlockTable& blocks, Diagnostics& diagnostics)
      : blocks_(blocks), diagnostics_(diagnostics) {}
  RefExpander(const RefExpander&) = delete;
  RefExpander& operator=(const RefExpander&) = delete;

  // Appends the element children of `parent` to `out`, replacing each <Ref> by the
  // children of its block (recursively). Unknown blocks, nameless refs and cycles are
  // reported and skipped. The returned locations stay valid as long as this expander.
  void children(const XmlItem& parent, uint32_t scope, std::vector<XmlItem>& out);

 private:
  void expand(pugi::xml_node parent, const XmlFile* file, const RefFrame* via, uint32_t scope,
              std::vector<XmlItem>& out);

  const BlockTable& blocks_;
  Diagnostics& diagnostics_;
  std::deque<RefFrame> frames_;  // stable addresses for Location::via
};

// Tag comparisons are case-insensitive, as in CryEngine (_stricmp).
bool tagIs(pugi::xml_node node, std::string_view tag);
bool equalsNoCase(std::string_view a, std::string_view b);
std::string toLower(std::string_view text);
// Location of an attribute of an item (its own line when the tag spans lines).
Location locate(const XmlItem& item, pugi::xml_attribute attribute);
// Warns about attributes not in `allowed` (CryEngine ignores them silently).
void checkAttributes(const XmlItem& item, std::initializer_list<std::string_view> allowed,
                     Diagnostics& diagnostics);
// Warns about text content, which no selection tree element has.
void checkNoText(const XmlItem& item, Diagnostics& diagnostics);

}  // namespace npc
