// Loading, swapping and reloading of behavior tree sets, and binding agents to them. The
// debug view lives in describe.cpp, the standard nodes in nodes/.
#include "mbt/library.h"

#include "base/source_dir.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "mbt/nodes/standard_nodes.h"
#include "mbt/tree_builder.h"

namespace npc {
namespace {

namespace fs = std::filesystem;


// "guards/Guard.xml" → "Guard".
std::string treeNameOf(std::string_view file) {
  return fs::path(std::string(file)).stem().string();
}

}  // namespace

std::string MbtLoadReport::text() const {
  std::string out;
  for (const auto& e : errors) out += e + "\n";
  for (const auto& w : warnings) out += w + "\n";
  return out;
}

MbtLibrary::MbtLibrary(MbtLibraryConfig config)
    : config_(config),
      own_signals_(std::make_unique<SignalNames>()),
      own_names_(std::make_unique<NameTable<ActionNameId>>()),
      signals_(own_signals_.get()),
      names_(own_names_.get()) {
  workspaces_.push_back(std::make_unique<MbtWorkspace>());
  lua_ = std::make_unique<MbtLuaRuntime>(lua_heap_, scopes_, *signals_,
                                         config_.lua_memory_limit_bytes,
                                         config_.lua_instruction_limit);
  registerStandardNodes();
}

MbtLibrary::MbtLibrary(SignalNames& signals, NameTable<ActionNameId>& names,
                       MbtLibraryConfig config)
    : config_(config), signals_(&signals), names_(&names) {
  workspaces_.push_back(std::make_unique<MbtWorkspace>());
  lua_ = std::make_unique<MbtLuaRuntime>(lua_heap_, scopes_, *signals_,
                                         config_.lua_memory_limit_bytes,
                                         config_.lua_instruction_limit);
  registerStandardNodes();
}

MbtLibrary::~MbtLibrary() = default;

void MbtLibrary::reserveWorkspaces(unsigned workers) {
  while (workspaces_.size() < workers) workspaces_.push_back(std::make_unique<MbtWorkspace>());
}

void MbtLibrary::registerStandardNodes() { registerMbtStandardNodes(factory_); }

Status MbtLibrary::setLuaPrelude(std::string_view code, std::string_view chunk_name) {
  std::string error;
  if (!lua_->setPrelude(code, chunk_name, error)) {
    return {StatusCode::kInvalidArgument, "Lua prelude: " + error};
  }
  return {};
}

MbtLoadReport MbtLibrary::loadDirectory(const std::string& dir) {
  dir_ = dir;
  fingerprint_ = directoryFingerprint();
  SourceDirRead read = readSourceDir(dir, ".xml");
  if (!read.errors.empty()) {  // a partial set must not replace a whole one
    MbtLoadReport report;
    report.errors = std::move(read.errors);
    report.files = read.found;
    return report;
  }
  return loadSources(read.files);
}

MbtLoadReport MbtLibrary::reload() {
  if (dir_.empty()) {
    MbtLoadReport report;
    report.errors.push_back("reload: no behavior tree directory was loaded");
    return report;
  }
  return loadDirectory(std::string(dir_));
}

std::optional<MbtLoadReport> MbtLibrary::reloadIfChanged() {
  if (dir_.empty() || directoryFingerprint() == fingerprint_) return std::nullopt;
  return reload();
}

std::string MbtLibrary::directoryFingerprint() const { return sourceDirFingerprint(dir_, ".xml"); }

MbtLoadReport MbtLibrary::loadSources(const std::vector<MbtSourceFile>& sources_in) {
  std::vector<const MbtSourceFile*> sources;
  for (const MbtSourceFile& s : sources_in) sources.push_back(&s);
  std::sort(sources.begin(), sources.end(),
            [](const MbtSourceFile* a, const MbtSourceFile* b) { return a->name < b->name; });

  Diagnostics diagnostics;
  MbtLoadReport report;
  report.files = sources.size();
  std::vector<std::unique_ptr<MbtTree>> next;
  std::vector<std::unique_ptr<XmlFile>> files;
  std::unordered_map<std::string, std::string> first_file;  // tree name → file
  std::vector<size_t> reused;  // indices into trees_ kept as they are
  const bool first_load = generation_ == 0;
  for (const MbtSourceFile* source : sources) {
    const std::string name = treeNameOf(source->name);
    auto [it, inserted] = first_file.emplace(name, source->name);
    if (!inserted) {
      diagnostics.error(source->name, 1,
                        source->name + ":1: duplicate tree \"" + name + "\" (also in " +
                            it->second + ")");
      continue;
    }
    // An unchanged file keeps its tree object: agents running it are not disturbed.
    if (auto old = by_name_.find(name); old != by_name_.end()) {
      const MbtTree& tree = *trees_[old->second];
      if (tree.file() == source->name && tree.source() == source->text &&
          built_revision_ == factory_.revision()) {
        reused.push_back(old->second);
        continue;
      }
    }
    auto file = std::make_unique<XmlFile>();
    file->name = source->name;
    file->text = source->text;
    std::string error;
    uint32_t line = 0;
    if (!file->parse(error, line)) {
      diagnostics.error(source->name, line, std::move(error));
      report.broken.push_back(name);
      continue;
    }
    const size_t errors_before = diagnostics.errorCount();
    MbtTreeBuilder builder(*file, name, factory_, *signals_, *names_, scopes_, *lua_, config_,
                           diagnostics);
    auto tree = builder.build();
    if (tree && diagnostics.errorCount() == errors_before) {
      next.push_back(std::move(tree));
    } else {
      report.broken.push_back(name);
    }
    files.push_back(std::move(file));
  }
  report.errors = diagnostics.sortedErrors();
  report.warnings = diagnostics.sortedWarnings();
  // `next` is dropped and the current set stays. On the first load there is no set to
  // keep: the trees without errors, if any, are swapped in (report.trees > 0 despite the
  // errors), so one broken file does not stop every healthy tree.
  if (!report.ok() && (!first_load || next.empty())) return report;

  for (size_t index : reused) next.push_back(std::move(trees_[index]));
  for (auto& old : trees_) {
    if (!old) continue;
    if (old->instances_ == 0) continue;  // freed right here
    old->retired_ = true;
    retired_.push_back(std::move(old));
  }
  trees_ = std::move(next);
  std::sort(trees_.begin(), trees_.end(),
            [](const auto& a, const auto& b) { return a->name() < b->name(); });
  by_name_.clear();
  for (size_t i = 0; i < trees_.size(); ++i) by_name_.emplace(trees_[i]->name(), i);
  built_revision_ = factory_.revision();
  ++generation_;
  report.trees = trees_.size();
  report.reused = reused.size();
  return report;
}

const MbtTree* MbtLibrary::findTree(std::string_view name) const {
  auto it = by_name_.find(std::string(name));
  return it == by_name_.end() ? nullptr : trees_[it->second].get();
}

std::vector<std::string> MbtLibrary::treeNames() const {
  std::vector<std::string> names;
  for (const auto& tree : trees_) names.push_back(tree->name());
  return names;
}

Status MbtLibrary::bind(MbtInstance& instance, std::string_view tree_name, EntityId agent,
                        uint64_t seed) {
  const MbtTree* tree = findTree(tree_name);
  if (!tree) {
    return {StatusCode::kNotFound, "no behavior tree \"" + std::string(tree_name) + "\" is loaded"};
  }
  if (instance.bound()) instance.unbind(nullptr);
  instance.bindTo(*this, *tree, agent, seed);
  return {};
}

void MbtLibrary::release(const MbtTree* tree) {
  --instances_;
  if (--tree->instances_ != 0 || !tree->retired_) return;
  auto it = std::find_if(retired_.begin(), retired_.end(),
                         [tree](const auto& t) { return t.get() == tree; });
  if (it != retired_.end()) retired_.erase(it);
}

const MbtTree* MbtLibrary::successor(const MbtTree* tree) const {
  if (!tree->retired_) return tree;
  return findTree(tree->name());
}

MbtLibraryStats MbtLibrary::stats() const {
  MbtLibraryStats s;
  s.trees = trees_.size();
  s.retired_trees = retired_.size();
  s.instances = instances_;
  // Sums over the workspaces: only the sum is exact (mbt/workspace.h).
  for (const auto& w : workspaces_) {
    s.runtime_bytes += w->allocator.bytesInUse() + w->allocator.largeBytes();
    s.reserved_bytes += w->allocator.pageBytes() + w->allocator.largeBytes();
  }
  s.runtime_bytes += lua_heap_.bytesInUse() + lua_heap_.largeBytes();
  s.reserved_bytes += lua_heap_.pageBytes() + lua_heap_.largeBytes();
  s.lua_bytes = lua_->bytesInUse();
  s.group_scope_users = scopes_.totalUsers();
  return s;
}

}  // namespace npc
