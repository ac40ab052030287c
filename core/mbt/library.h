// MbtLibrary: every modular behavior tree the daemon knows, and the services their nodes
// share: the node factory, the bucket allocator for runtime data, group scopes, the Lua
// state, interned names. Owned by the tick thread; nothing here is synchronised.
//
// Loading. loadDirectory() reads every *.xml under a directory (recursively, sorted by
// path); each file is one tree, named after the file without extension (CryEngine's rule:
// SDK_Grunt_02.xml holds tree "SDK_Grunt_02"). A file's root element is <BehaviorTree>
// with optional <Variables>, <SignalVariables>, <Timestamps> and exactly one <Root>
// holding exactly one node; <MetaExtensions> and <Events> (CryEngine 5 editor data) are
// ignored. Optional root attribute onRootFinished="reboot"(default)|"stop".
// The whole set is built and validated first; only a set without errors is swapped in
// (generation() increments), so a bad file never replaces a good load. Every error and
// warning comes back in the report as "file:line: message", sorted by file and line.
//
// Reload. reload() re-reads the last directory; reloadIfChanged() only when an .xml file
// under it was added, removed or modified (it walks the directory: call it about once a
// second, not per tick). A file whose text did not change keeps its tree object, so agents
// running it are untouched; agents on a changed tree move to the new one on their next
// tick (see MbtInstance). Replaced trees are freed when their last agent left them.
//
// Binding. bind() attaches an instance to a tree for one agent; the seed drives the
// agent's random stream (RandomGate, Wait variation, math.random): same seed, same run.
//
// Register custom node types (factory()) and set the Lua prelude before loading.
#pragma once

#include "base/source_dir.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "base/status.h"
#include "mbt/bucket_allocator.h"
#include "mbt/workspace.h"
#include "mbt/group_scopes.h"
#include "mbt/instance.h"
#include "mbt/lua_runtime.h"
#include "mbt/node_factory.h"
#include "mbt/tree.h"
#include "world/name_table.h"
#include "world/signal_names.h"

namespace npc {

struct MbtLibraryConfig {
  size_t lua_memory_limit_bytes = 64u << 20;  // whole Lua state
  uint32_t lua_instruction_limit = 1000000;   // per script call
  // Action nodes fail (and cancel the action) after this long without a result from the
  // host; 0 = wait as long as the host says Running. A node's `timeout` attribute wins.
  double action_timeout_s = 0.0;
};

// An in-memory file (tests, embedded data). `name` is what diagnostics show; the tree is
// named after it without directories and extension.
using MbtSourceFile = SourceFile;

struct MbtLoadReport {
  std::vector<std::string> errors;    // non-empty = the load was refused
  std::vector<std::string> warnings;
  size_t files = 0;
  size_t trees = 0;
  size_t reused = 0;  // trees whose file did not change (agents keep running them)
  std::vector<std::string> broken;  // trees whose file has errors (not in the new set)
  bool ok() const { return errors.empty(); }
  std::string text() const;  // errors then warnings, one per line
};

struct MbtLibraryStats {
  size_t trees = 0;
  size_t retired_trees = 0;       // replaced by a reload, still run by some agent
  size_t instances = 0;           // bound instances
  size_t runtime_bytes = 0;       // bucket allocator: bytes in live blocks (incl. Lua)
  size_t reserved_bytes = 0;      // bucket pages + large blocks
  size_t lua_bytes = 0;
  uint64_t group_scope_users = 0;
};

class MbtLibrary {
 public:
  // Owns its signal and action names (tests, tools).
  explicit MbtLibrary(MbtLibraryConfig config = {});
  // Shares the daemon's signal names (events are SignalIds) and action names (the
  // simulation's NameTable used in TickOutput).
  MbtLibrary(SignalNames& signals, NameTable<ActionNameId>& names, MbtLibraryConfig config = {});
  MbtLibrary(const MbtLibrary&) = delete;
  MbtLibrary& operator=(const MbtLibrary&) = delete;
  ~MbtLibrary();

  // --- set-up -----------------------------------------------------------------------------
  MbtNodeFactory& factory() { return factory_; }
  // Trusted Lua run once; its globals are visible (read-only) to every script. See
  // lua_runtime.h. kInvalidArgument with the Lua message when it fails.
  Status setLuaPrelude(std::string_view code, std::string_view chunk_name = "prelude");

  // --- loading ----------------------------------------------------------------------------
  MbtLoadReport loadDirectory(const std::string& dir);
  MbtLoadReport loadSources(const std::vector<MbtSourceFile>& files);
  MbtLoadReport reload();
  std::optional<MbtLoadReport> reloadIfChanged();
  uint32_t generation() const { return generation_; }

  const MbtTree* findTree(std::string_view name) const;
  std::vector<std::string> treeNames() const;  // sorted
  size_t treeCount() const { return trees_.size(); }

  // --- agents -----------------------------------------------------------------------------
  // Binds `instance` to tree `name` for `agent` (terminating what it ran before, without a
  // host). kNotFound when no such tree is loaded.
  Status bind(MbtInstance& instance, std::string_view tree, EntityId agent, uint64_t seed);
  // Debug view (GetAgent): tree, running path (node type, XML line, custom text such as
  // time left on a Timeout), every node in pre-order with its parent index, line and
  // running state ("nodes", for drawing the whole tree), variables, timestamps, registers,
  // log history, bytes used.
  nlohmann::json describe(const MbtInstance& instance, double now_s) const;

  // --- services (nodes, tests) -----------------------------------------------------------
  SignalNames& signals() { return *signals_; }
  NameTable<ActionNameId>& names() { return *names_; }
  MbtGroupScopes& groupScopes() { return scopes_; }
  const MbtGroupScopes& groupScopes() const { return scopes_; }
  // The tick thread's allocator (workspace 0's).
  BucketAllocator& allocator() { return workspaces_[0]->allocator; }
  // What worker `worker` of the tick's pool ticks trees with (0: the tick thread). Call
  // reserveWorkspaces(n) with the pool's size before the workers tick.
  MbtWorkspace& workspace(unsigned worker) { return *workspaces_[worker]; }
  void reserveWorkspaces(unsigned workers);
  unsigned workspaceCount() const { return static_cast<unsigned>(workspaces_.size()); }
  MbtLuaRuntime& lua() { return *lua_; }
  const MbtLibraryConfig& config() const { return config_; }
  MbtLibraryStats stats() const;

 private:
  friend class MbtInstance;
  void registerStandardNodes();
  // A bound instance let go of `tree`; frees it if it was retired and is now unused.
  void release(const MbtTree* tree);
  // The current tree an instance on `tree` should run after reloads (itself if unchanged,
  // nullptr if gone).
  const MbtTree* successor(const MbtTree* tree) const;
  std::string directoryFingerprint() const;

  MbtLibraryConfig config_;
  std::unique_ptr<SignalNames> own_signals_;
  std::unique_ptr<NameTable<ActionNameId>> own_names_;
  SignalNames* signals_ = nullptr;
  NameTable<ActionNameId>* names_ = nullptr;
  std::vector<std::unique_ptr<MbtWorkspace>> workspaces_;  // [0]: the tick thread's
  BucketAllocator lua_heap_;  // the Lua state's own: any worker may run a script
  MbtGroupScopes scopes_;
  std::unique_ptr<MbtLuaRuntime> lua_;  // before trees_: Lua nodes release chunks into it
  MbtNodeFactory factory_;
  std::vector<std::unique_ptr<MbtTree>> trees_;    // current set, sorted by name
  std::unordered_map<std::string, size_t> by_name_;
  std::vector<std::unique_ptr<MbtTree>> retired_;  // replaced, still bound by instances
  uint32_t generation_ = 0;
  uint32_t built_revision_ = 0;  // factory revision the current trees were built with
  size_t instances_ = 0;
  std::string dir_;
  std::string fingerprint_;
};

}  // namespace npc
