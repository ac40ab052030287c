#include "bst/xml_source.h"

#include <algorithm>
#include <cctype>

namespace npc {

bool XmlFile::parse(std::string& error, uint32_t& line) {
  line_starts.assign(1, 0);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') line_starts.push_back(i + 1);
  }
  // load_buffer parses a private copy in place, so node and attribute name pointers keep
  // their byte offsets into `text` (BOM and CRLF included): that gives exact line numbers.
  const pugi::xml_parse_result result = doc.load_buffer(text.data(), text.size());
  if (result) return true;
  line = lineOfOffset(static_cast<size_t>(result.offset));
  error = name + ":" + std::to_string(line) + ": XML error: " + result.description();
  return false;
}

uint32_t XmlFile::lineOfOffset(size_t offset) const {
  auto it = std::upper_bound(line_starts.begin(), line_starts.end(), offset);
  return static_cast<uint32_t>(it - line_starts.begin());
}

uint32_t XmlFile::lineOf(pugi::xml_node node) const {
  const ptrdiff_t offset = node.offset_debug();
  return offset < 0 ? 0 : lineOfOffset(static_cast<size_t>(offset));
}

uint32_t XmlFile::lineOf(pugi::xml_node node, pugi::xml_attribute attribute) const {
  const ptrdiff_t node_offset = node.offset_debug();
  if (node_offset < 0 || !attribute) return lineOf(node);
  const char* buffer = node.name() - node_offset;
  const ptrdiff_t offset = attribute.name() - buffer;
  if (offset < node_offset || static_cast<size_t>(offset) >= text.size()) return lineOf(node);
  return lineOfOffset(static_cast<size_t>(offset));
}

std::string where(const Location& location) {
  const std::string file = location.file ? location.file->name : std::string("<unknown>");
  return file + ":" + std::to_string(location.line);
}

namespace {

std::string located(const Location& at, std::string_view kind, std::string_view message) {
  std::string text = where(at) + ": ";
  text += kind;
  text += message;
  if (at.via) {
    text += " (via ";
    for (const RefFrame* frame = at.via; frame; frame = frame->outer) {
      if (frame != at.via) text += ", ";
      text += "Ref \"" + frame->block->name + "\" at " + frame->file->name + ":" +
              std::to_string(frame->line);
    }
    text += ")";
  }
  return text;
}

}  // namespace

void Diagnostics::error(const Location& at, std::string_view message) {
  errors_.push_back({at.file ? at.file->name : "", at.line, located(at, "", message)});
}

void Diagnostics::warning(const Location& at, std::string_view message) {
  warnings_.push_back({at.file ? at.file->name : "", at.line, located(at, "warning: ", message)});
}

void Diagnostics::error(std::string file, uint32_t line, std::string text) {
  errors_.push_back({std::move(file), line, std::move(text)});
}

std::vector<std::string> Diagnostics::sorted(std::vector<Entry> entries) {
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.file != b.file ? a.file < b.file : a.line < b.line;
  });
  std::vector<std::string> out;
  out.reserve(entries.size());
  for (Entry& e : entries) out.push_back(std::move(e.text));
  return out;
}

void BlockTable::add(uint32_t scope, Block block, Diagnostics& diagnostics) {
  auto key = std::make_pair(scope, block.name);
  auto [it, inserted] = blocks_.emplace(key, block);
  if (inserted) return;
  diagnostics.error(Location{block.file, block.line, nullptr},
                    "duplicate block \"" + block.name + "\" (first defined at " +
                        it->second.file->name + ":" + std::to_string(it->second.line) + ")");
}

const Block* BlockTable::find(uint32_t scope, std::string_view name) const {
  auto it = blocks_.find(std::make_pair(scope, std::string(name)));
  if (it == blocks_.end() && scope != kGlobal) {
    it = blocks_.find(std::make_pair(kGlobal, std::string(name)));
  }
  return it == blocks_.end() ? nullptr : &it->second;
}

void RefExpander::children(const XmlItem& parent, uint32_t scope, std::vector<XmlItem>& out) {
  expand(parent.node, parent.where.file, parent.where.via, scope, out);
}

void RefExpander::expand(pugi::xml_node parent, const XmlFile* file, const RefFrame* via,
                         uint32_t scope, std::vector<XmlItem>& out) {
  for (pugi::xml_node child = parent.first_child(); child; child = child.next_sibling()) {
    if (child.type() != pugi::node_element) continue;
    const Location at{file, file->lineOf(child), via};
    if (!tagIs(child, "Ref")) {
      out.push_back({child, at});
      continue;
    }
    checkAttributes({child, at}, {"name"}, diagnostics_);
    const pugi::xml_attribute name = child.attribute("name");
    if (!name) {
      diagnostics_.error(at, "<" + std::string(child.name()) + "> without a \"name\"");
      continue;
    }
    const Block* block = blocks_.find(scope, name.value());
    if (!block) {
      diagnostics_.error(at, "unknown block \"" + std::string(name.value()) + "\"");
      continue;
    }
    // A ref to a block we are already inside (directly or through nodes) never ends.
    bool cycle = false;
    for (const RefFrame* frame = via; frame; frame = frame->outer) cycle |= frame->block == block;
    if (cycle) {
      std::vector<std::string> chain{block->name};
      for (const RefFrame* frame = via; frame; frame = frame->outer) {
        chain.push_back(frame->block->name);
        if (frame->block == block) break;
      }
      std::string text = "cycle of block references: ";
      for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        if (it != chain.rbegin()) text += " -> ";
        text += "\"" + *it + "\"";
      }
      diagnostics_.error(at, text);
      continue;
    }
    frames_.push_back(RefFrame{block, file, at.line, via});
    expand(block->node, block->file, &frames_.back(), scope, out);
  }
}

bool equalsNoCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::string toLower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

bool tagIs(pugi::xml_node node, std::string_view tag) { return equalsNoCase(node.name(), tag); }

Location locate(const XmlItem& item, pugi::xml_attribute attribute) {
  Location at = item.where;
  at.line = item.where.file->lineOf(item.node, attribute);
  return at;
}

void checkAttributes(const XmlItem& item, std::initializer_list<std::string_view> allowed,
                     Diagnostics& diagnostics) {
  for (pugi::xml_attribute a = item.node.first_attribute(); a; a = a.next_attribute()) {
    if (std::find(allowed.begin(), allowed.end(), std::string_view(a.name())) != allowed.end()) {
      continue;
    }
    diagnostics.warning(locate(item, a), "unknown attribute \"" + std::string(a.name()) +
                                             "\" on <" + item.node.name() + "> is ignored");
  }
}

void checkNoText(const XmlItem& item, Diagnostics& diagnostics) {
  for (pugi::xml_node child = item.node.first_child(); child; child = child.next_sibling()) {
    if (child.type() == pugi::node_pcdata || child.type() == pugi::node_cdata) {
      diagnostics.warning(item.where,
                          "text inside <" + std::string(item.node.name()) + "> is ignored");
      return;
    }
  }
}

}  // namespace npc
