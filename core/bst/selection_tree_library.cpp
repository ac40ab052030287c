// Loading, swapping and reloading of selection tree sets. The per-agent half of
// SelectionTreeLibrary lives in bst_agent.cpp.
#include "bst/selection_tree_library.h"

#include "base/source_dir.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "bst/tree_builder.h"
#include "bst/xml_source.h"

namespace npc {
namespace {

namespace fs = std::filesystem;


// Discovers files: registers blocks and collects trees (CryEngine's "Discover" pass), so
// that refs resolve whatever the file order.
class SetDiscovery {
 public:
  SetDiscovery(BlockTable& blocks, std::vector<TreeSource>& trees, Diagnostics& diagnostics)
      : blocks_(blocks), trees_(trees), diagnostics_(diagnostics) {}

  void file(const XmlFile& file) {
    const pugi::xml_node root = file.doc.document_element();
    const XmlItem item{root, Location{&file, file.lineOf(root), nullptr}};
    if (tagIs(root, "Blocks")) {
      checkAttributes(item, {}, diagnostics_);
      blocks(item, BlockTable::kGlobal);
    } else if (tagIs(root, "SelectionTrees")) {
      checkAttributes(item, {}, diagnostics_);
      for (pugi::xml_node c = root.first_child(); c; c = c.next_sibling()) {
        if (c.type() != pugi::node_element) continue;
        const XmlItem child{c, Location{&file, file.lineOf(c), nullptr}};
        if (tagIs(c, "SelectionTree")) {
          tree(child);
        } else {
          diagnostics_.error(child.where, "unexpected <" + std::string(c.name()) +
                                              "> in <SelectionTrees>; expected <SelectionTree>");
        }
      }
    } else if (tagIs(root, "SelectionTree")) {
      tree(item);
    } else {
      diagnostics_.error(item.where, "unexpected root element <" + std::string(root.name()) +
                                         ">; expected <SelectionTrees>, <SelectionTree> or "
                                         "<Blocks>");
    }
  }

 private:
  void tree(const XmlItem& item) {
    checkAttributes(item, {"name", "type"}, diagnostics_);
    const pugi::xml_attribute name = item.node.attribute("name");
    const pugi::xml_attribute type = item.node.attribute("type");
    bool ok = true;
    if (!name || !*name.value()) {
      diagnostics_.error(item.where, "<" + std::string(item.node.name()) + "> without a \"name\"");
      ok = false;
    }
    if (!type || !*type.value()) {
      diagnostics_.error(item.where, "<" + std::string(item.node.name()) + "> without a \"type\"");
      ok = false;
    }
    if (!ok) return;
    const std::string lower = toLower(name.value());
    auto [it, inserted] = first_at_.emplace(lower, where(item.where));
    if (!inserted) {
      diagnostics_.error(item.where, "duplicate selection tree \"" + std::string(name.value()) +
                                         "\" (first defined at " + it->second + ")");
      return;
    }
    TreeSource source{item, static_cast<uint32_t>(trees_.size() + 1), name.value(), type.value()};
    for (pugi::xml_node c = item.node.first_child(); c; c = c.next_sibling()) {
      if (c.type() == pugi::node_element && tagIs(c, "Blocks")) {
        blocks(XmlItem{c, Location{item.where.file, item.where.file->lineOf(c), nullptr}},
               source.scope);
      }
    }
    trees_.push_back(std::move(source));
  }

  void blocks(const XmlItem& item, uint32_t scope) {
    const XmlFile* file = item.where.file;
    for (pugi::xml_node c = item.node.first_child(); c; c = c.next_sibling()) {
      if (c.type() != pugi::node_element) continue;
      const XmlItem block{c, Location{file, file->lineOf(c), nullptr}};
      if (!tagIs(c, "Block")) {
        diagnostics_.error(block.where, "unexpected <" + std::string(c.name()) +
                                            "> in <Blocks>; expected <Block>");
        continue;
      }
      // "group" is written by CryEngine's editor and ignored by its loader.
      checkAttributes(block, {"name", "group"}, diagnostics_);
      const pugi::xml_attribute name = c.attribute("name");
      if (!name || !*name.value()) {
        diagnostics_.error(block.where, "<Block> without a \"name\"");
        continue;
      }
      blocks_.add(scope, Block{name.value(), file, c, block.where.line}, diagnostics_);
    }
  }

  BlockTable& blocks_;
  std::vector<TreeSource>& trees_;
  Diagnostics& diagnostics_;
  std::unordered_map<std::string, std::string> first_at_;  // lower-cased tree name → at
};

}  // namespace

std::string BstLoadReport::text() const {
  std::string out;
  for (const auto& e : errors) out += e + "\n";
  for (const auto& w : warnings) out += w + "\n";
  return out;
}

BstLoadReport SelectionTreeLibrary::loadDirectory(const std::string& dir, BstLoadOptions options) {
  dir_ = dir;
  options_ = std::move(options);
  fingerprint_ = directoryFingerprint();
  SourceDirRead read = readSourceDir(dir, ".xml");
  if (!read.errors.empty()) {  // a partial set must not replace a whole one
    BstLoadReport report;
    report.errors = std::move(read.errors);
    report.files = read.found;
    return report;
  }
  return loadSources(read.files, options_);
}

BstLoadReport SelectionTreeLibrary::reload() {
  if (dir_.empty()) {
    BstLoadReport report;
    report.errors.push_back("reload: no selection tree directory was loaded");
    return report;
  }
  return loadDirectory(std::string(dir_), options_);
}

std::optional<BstLoadReport> SelectionTreeLibrary::reloadIfChanged() {
  if (dir_.empty() || directoryFingerprint() == fingerprint_) return std::nullopt;
  return reload();
}

std::string SelectionTreeLibrary::directoryFingerprint() const {
  return sourceDirFingerprint(dir_, ".xml");
}

BstLoadReport SelectionTreeLibrary::loadSources(const std::vector<BstSourceFile>& sources,
                                                const BstLoadOptions& options) {
  Diagnostics diagnostics;
  std::vector<std::unique_ptr<XmlFile>> files;
  for (const BstSourceFile& source : sources) {
    auto file = std::make_unique<XmlFile>();
    file->name = source.name;
    file->text = source.text;
    std::string error;
    uint32_t line = 0;
    if (!file->parse(error, line)) {
      diagnostics.error(source.name, line, std::move(error));
      continue;
    }
    files.push_back(std::move(file));
  }

  BlockTable blocks;
  std::vector<TreeSource> sources_found;
  SetDiscovery discovery(blocks, sources_found, diagnostics);
  for (const auto& file : files) discovery.file(*file);

  std::vector<SelectionTree> next;
  next.reserve(sources_found.size());
  for (const TreeSource& source : sources_found) {
    const size_t errors_before = diagnostics.errorCount();
    SelectionTree tree = TreeBuilder(source, blocks, names_, options, diagnostics).build();
    if (diagnostics.errorCount() == errors_before) next.push_back(std::move(tree));
  }

  BstLoadReport report;
  report.files = sources.size();
  report.errors = diagnostics.sortedErrors();
  report.warnings = diagnostics.sortedWarnings();
  // The previous set stays in place. On the first load there is none to keep: the trees
  // without errors, if any, are swapped in (report.trees > 0 despite the errors), so one
  // broken file does not stop every healthy tree.
  if (!report.ok() && (generation_ > 0 || next.empty())) return report;

  remaps_.push_back(remapTo(next));
  trees_ = std::move(next);
  by_name_.clear();
  for (size_t i = 0; i < trees_.size(); ++i) {
    by_name_.emplace(toLower(trees_[i].name), static_cast<uint16_t>(i));
  }
  ++generation_;
  report.trees = trees_.size();
  return report;
}

SelectionTreeLibrary::SetRemap SelectionTreeLibrary::remapTo(
    const std::vector<SelectionTree>& next) const {
  std::unordered_map<std::string, uint16_t> next_by_name;
  for (size_t i = 0; i < next.size(); ++i) {
    next_by_name.emplace(toLower(next[i].name), static_cast<uint16_t>(i));
  }
  SetRemap remap(trees_.size());
  for (size_t i = 0; i < trees_.size(); ++i) {
    const SelectionTree& old_tree = trees_[i];
    auto found = next_by_name.find(toLower(old_tree.name));
    if (found == next_by_name.end()) continue;  // tree gone: agents lose it
    const SelectionTree& new_tree = next[found->second];
    TreeRemap& r = remap[i];
    r.to = static_cast<SelectionTreeId>(found->second);
    r.defaults = new_tree.defaults;
    for (SelectionVariableId id : old_tree.variable_ids) {
      const int index = new_tree.variableIndex(id);
      r.variables.push_back(index < 0 ? 0xff : static_cast<uint8_t>(index));
    }
    std::unordered_map<std::string, uint16_t> leaves;
    for (uint16_t n = 0; n < new_tree.nodes.size(); ++n) {
      if (new_tree.nodes[n].kind == BstNodeKind::kLeaf) leaves.emplace(new_tree.pathKey(n), n);
    }
    r.leaves.assign(old_tree.nodes.size(), 0xffff);
    for (uint16_t n = 0; n < old_tree.nodes.size(); ++n) {
      if (old_tree.nodes[n].kind != BstNodeKind::kLeaf) continue;
      if (auto it = leaves.find(old_tree.pathKey(n)); it != leaves.end()) r.leaves[n] = it->second;
    }
  }
  return remap;
}

SelectionTreeId SelectionTreeLibrary::findTree(std::string_view name) const {
  auto it = by_name_.find(toLower(name));
  return it == by_name_.end() ? SelectionTreeId::kNone : static_cast<SelectionTreeId>(it->second);
}

const SelectionTree* SelectionTreeLibrary::tree(SelectionTreeId id) const {
  return raw(id) < trees_.size() ? &trees_[raw(id)] : nullptr;
}

SignalId SelectionTreeLibrary::internSignal(std::string_view name) {
  return names_.signals->intern(name);
}

SignalId SelectionTreeLibrary::findSignal(std::string_view name) const {
  return names_.signals->find(name);
}

std::string_view SelectionTreeLibrary::signalName(SignalId id) const {
  return names_.signals->name(id);
}

SelectionVariableId SelectionTreeLibrary::internVariable(std::string_view name) {
  return names_.variables.intern(toLower(name));
}

SelectionVariableId SelectionTreeLibrary::findVariable(std::string_view name) const {
  return names_.variables.find(toLower(name));
}

BehaviorId SelectionTreeLibrary::findBehavior(std::string_view name) const {
  return names_.behaviors.find(name);
}

std::string_view SelectionTreeLibrary::behaviorName(BehaviorId id) const {
  if (id == BehaviorId::kNone) return kNoBehaviorName;
  return names_.behaviors.name(id);
}

}  // namespace npc
