#include "mbt/log_router.h"

#include <charconv>

#include "mbt/host.h"
#include "mbt/instance.h"
#include "mbt/library.h"
#include "mbt/node.h"
#include "mbt/workspace.h"
#include "mbt/tree.h"

namespace npc {
namespace {

void forward(MbtContext& ctx, const MbtNode* node, MbtLogKind kind, std::string_view text) {
  MbtLogMessage message;
  message.kind = kind;
  message.agent = ctx.instance.agent();
  message.time_s = ctx.now_s;
  message.tree = ctx.tree.name();
  message.file = ctx.tree.file();
  message.line = node ? node->line() : 0;
  message.node_type = node ? node->type() : std::string_view{};
  message.text = text;
  ctx.host.log(message);
}

void appendNumber(std::string& out, uint64_t value) {
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  out.append(buffer, result.ptr);
}

}  // namespace

void MbtLogRouter::nodeText(MbtContext& ctx, const MbtNode& node, MbtLogKind kind) {
  const bool own = kind == MbtLogKind::kStart || kind == MbtLogKind::kSuccess ||
                   kind == MbtLogKind::kFailure;
  const std::string_view text = own ? node.logText(kind) : node.logMessage();
  MbtLogEntry entry;
  entry.time_s = ctx.now_s;
  entry.node = raw(node.index());
  entry.kind = kind;
  ctx.instance.appendLog(entry, {}, ctx.workspace.allocator);
  forward(ctx, &node, kind, text);
}

void MbtLogRouter::message(MbtContext& ctx, const MbtNode* node, MbtLogKind kind,
                           std::string_view text) {
  MbtLogEntry entry;
  entry.time_s = ctx.now_s;
  entry.node = node ? raw(node->index()) : uint16_t{0xffff};
  entry.kind = kind;
  ctx.instance.appendLog(entry, text, ctx.workspace.allocator);
  forward(ctx, node, kind, text);
}

void MbtErrorReporter::logError(std::string_view message, std::string_view more) {
  std::string& text = ctx_.workspace.scratch;
  text.clear();
  text += ctx_.tree.file();
  text += ':';
  appendNumber(text, node_.line());
  text += ": <";
  text += node_.type();
  text += "> [";
  const MbtAgentView& agent = ctx_.host.agent();
  if (!agent.name.empty()) {
    text += agent.name;
  } else {
    text += "agent ";
    appendNumber(text, raw(ctx_.instance.agent()));
  }
  text += "]: ";
  text += message;
  text += more;
  MbtLogRouter::message(ctx_, &node_, MbtLogKind::kError, text);
}

}  // namespace npc
