// Logging of behavior trees (seed 002, "Logging and Tracing"): _startLog / _successLog /
// _failureLog on any node, <Log>, <Bubble log>, Lua print, runtime errors and root
// finishes all go through here. Each message is
//   1. appended to the agent's short history (MbtInstance, kMbtLogHistory entries, shown by
//      the debug view), and
//   2. forwarded to MbtHost::log, where the daemon hands it to spdlog (or drops it).
// A node's own texts are referenced, never copied; texts made at run time are copied into
// a small per-agent ring whose strings keep their capacity, so steady-state logging does
// not allocate.
//
// MbtErrorReporter is the run-time half of the seed's ErrorReporter: it prefixes a message
// with file, line, node type and agent ("Grunt.xml:42: <ExecuteLua> [agent 7]: ...").
// Load-time errors go through MbtXmlElement / MbtLoadContext instead.
#pragma once

#include <string_view>

#include "mbt/mbt_types.h"

namespace npc {

class MbtNode;
struct MbtContext;

class MbtLogRouter {
 public:
  // One of the node's own texts (kStart/kSuccess/kFailure: the _xxxLog attribute;
  // kMessage/kBreakpoint: logMessage()).
  static void nodeText(MbtContext& ctx, const MbtNode& node, MbtLogKind kind);
  // A text made at run time (copied). `node` may be nullptr (the tree itself).
  static void message(MbtContext& ctx, const MbtNode* node, MbtLogKind kind,
                      std::string_view text);
};

class MbtErrorReporter {
 public:
  MbtErrorReporter(const MbtNode& node, MbtContext& ctx) : node_(node), ctx_(ctx) {}
  // Logs "file:line: <Type> [agent]: message more" as kError (no allocation once warm).
  void logError(std::string_view message, std::string_view more = {});

 private:
  const MbtNode& node_;
  MbtContext& ctx_;
};

}  // namespace npc
