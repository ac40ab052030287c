// The debug view of one agent's tree (seed 002, "Debugging and Tree Visualization"): the
// running path as the visualizer shows it, with XML lines and custom node text.
#include <nlohmann/json.hpp>

#include "mbt/library.h"

namespace npc {
namespace {

void runningPath(const MbtNode& node, const MbtContext& ctx, int depth, nlohmann::json& out) {
  if (!node.isActive(ctx)) return;
  nlohmann::json entry = {{"depth", depth}, {"line", node.line()}, {"type", node.type()}};
  std::string text;
  node.debugText(ctx, text);
  if (!text.empty()) entry["text"] = text;
  out.push_back(std::move(entry));
  for (size_t i = 0; i < node.childCount(); ++i) runningPath(node.child(i), ctx, depth + 1, out);
}

// Every node in pre-order with its parent's index (-1 for the root), so a viewer can draw
// the whole tree and highlight the running branch; `text` only for running nodes.
void allNodes(const MbtNode& node, const MbtContext& ctx, int parent, int depth,
              nlohmann::json& out) {
  const int index = static_cast<int>(out.size());
  const bool running = node.isActive(ctx);
  nlohmann::json entry = {{"index", index},  {"parent", parent},   {"depth", depth},
                          {"line", node.line()}, {"type", node.type()}, {"running", running}};
  if (running) {
    std::string text;
    node.debugText(ctx, text);
    if (!text.empty()) entry["text"] = text;
  }
  out.push_back(std::move(entry));
  for (size_t i = 0; i < node.childCount(); ++i) allNodes(node.child(i), ctx, index, depth + 1, out);
}

nlohmann::json vec(Vec3 v) { return nlohmann::json::array({v.x, v.y, v.z}); }

}  // namespace

nlohmann::json MbtLibrary::describe(const MbtInstance& instance, double now_s) const {
  nlohmann::json j;
  const MbtTree* tree = instance.tree();
  if (!tree) {
    j["tree"] = nullptr;
    return j;
  }
  j["tree"] = tree->name();
  j["file"] = tree->file();
  j["stopped"] = instance.stopped();
  j["root_finishes"] = instance.rootFinishes();

  // describe() is const for callers; node debug text only reads runtime data.
  auto& self = const_cast<MbtLibrary&>(*this);
  auto& agent = const_cast<MbtInstance&>(instance);
  MbtNullHost host(instance.agent());
  MbtContext ctx{agent, host, *tree, self, self.workspace(0), now_s, nullptr};
  nlohmann::json running = nlohmann::json::array();
  runningPath(tree->root(), ctx, 0, running);
  j["running"] = std::move(running);
  nlohmann::json nodes = nlohmann::json::array();
  allNodes(tree->root(), ctx, -1, 0, nodes);
  j["nodes"] = std::move(nodes);

  nlohmann::json variables = nlohmann::json::object();
  for (size_t i = 0; i < tree->variableCount(); ++i) {
    variables[tree->variableName(i)] = instance.variable(i);
  }
  j["variables"] = std::move(variables);

  nlohmann::json stamps = nlohmann::json::object();
  const auto defs = tree->timestamps();
  for (size_t i = 0; i < defs.size(); ++i) {
    const MbtTimestamp& t = instance.timestamp(i);
    nlohmann::json s = {{"ever_set", t.ever_set}};
    if (t.valid) {
      s["elapsed_s"] = now_s - t.time_s;
    } else {
      s["elapsed_s"] = nullptr;
    }
    stamps[defs[i].name] = std::move(s);
  }
  j["timestamps"] = std::move(stamps);

  nlohmann::json registers = nlohmann::json::object();
  Vec3 p;
  if (instance.getRegister(MbtRegister::kRefPoint, p)) registers["RefPoint"] = vec(p);
  if (instance.getRegister(MbtRegister::kCover, p)) registers["Cover"] = vec(p);
  j["registers"] = std::move(registers);

  nlohmann::json log = nlohmann::json::array();
  for (size_t i = 0; i < instance.logCount(); ++i) {
    const MbtLogEntry& e = instance.logEntry(i);
    nlohmann::json entry = {{"time_s", e.time_s}, {"kind", toString(e.kind)}};
    std::string_view text = instance.dynamicText(e);
    if (e.node != 0xffff && e.node < tree->nodeCount()) {
      const MbtNode& node = tree->node(e.node);
      entry["line"] = node.line();
      entry["type"] = node.type();
      if (e.text == 0xff) {
        const bool own = e.kind == MbtLogKind::kStart || e.kind == MbtLogKind::kSuccess ||
                         e.kind == MbtLogKind::kFailure;
        text = own ? node.logText(e.kind) : node.logMessage();
      }
    }
    entry["text"] = text;
    log.push_back(std::move(entry));
  }
  j["log"] = std::move(log);
  const std::string_view finish = instance.lastRootFinish();
  j["last_root_finish"] = finish.empty() ? nlohmann::json(nullptr) : nlohmann::json(finish);

  j["memory"] = {{"bytes", instance.bytesUsed()},
                 {"runtime_bytes", instance.runtimeBytes()},
                 {"running_nodes", instance.activeNodes()},
                 {"slots", tree->slotCount()},
                 {"tree_shared_bytes", tree->sharedBytes()}};
  return j;
}

}  // namespace npc
