#include "intent/intention_event.h"

#include <charconv>
#include <cstdio>

namespace npc {

static_assert(sizeof(IntentionEvent) == 56, "intention events stay at 56 bytes");

std::string_view toString(IntentionEventKind kind) {
  switch (kind) {
    case IntentionEventKind::kStarted: return "started";
    case IntentionEventKind::kCompleted: return "completed";
    case IntentionEventKind::kFailed: return "failed";
    case IntentionEventKind::kInterrupted: return "interrupted";
  }
  return "?";
}

std::string_view toString(IntentionReason reason) {
  switch (reason) {
    case IntentionReason::kNone: return "none";
    case IntentionReason::kNotAvailable: return "not_available";
    case IntentionReason::kMayStartRefused: return "may_start_refused";
    case IntentionReason::kInitFailed: return "init_failed";
    case IntentionReason::kPerformFailed: return "perform_failed";
    case IntentionReason::kTooManyClientArgs: return "too_many_client_args";
    case IntentionReason::kClientFailed: return "client_failed";
    case IntentionReason::kTimeout: return "timeout";
    case IntentionReason::kGameFailed: return "game_failed";
    case IntentionReason::kMayContinueRefused: return "may_continue_refused";
    case IntentionReason::kCancelled: return "cancelled";
    case IntentionReason::kCoerced: return "coerced";
    case IntentionReason::kPreempted: return "preempted";
    case IntentionReason::kActionUnavailable: return "action_unavailable";
    case IntentionReason::kGameInterrupted: return "game_interrupted";
    case IntentionReason::kRestored: return "restored";
    case IntentionReason::kPrerequisiteFailed: return "prerequisite_failed";
  }
  return "?";
}

namespace {

void appendNumber(std::string& out, uint64_t value) {
  char digits[24];
  out.append(digits, std::to_chars(digits, digits + sizeof digits, value).ptr);
}

void appendQuoted(std::string& out, const NameTable<ActionNameId>& names, ActionNameId name) {
  out.append("\"").append(names.name(name)).append("\"");
}

// Why the intention failed or was interrupted; nothing for kNone.
void appendReason(std::string& out, const IntentionEvent& e, const NameTable<ActionNameId>& names) {
  auto text = [&](const char* why) { out.append(": ").append(why); };
  switch (e.reason) {
    case IntentionReason::kNone: return;
    case IntentionReason::kNotAvailable:
      out.append(": cannot perform ");
      appendQuoted(out, names, e.action);
      out.append(": not among the agent's own actions nor its influences'");
      return;
    case IntentionReason::kMayStartRefused: return text("may not start now (MayStart refused)");
    case IntentionReason::kInitFailed: return text("initialisation failed");
    case IntentionReason::kPerformFailed: return text("the action failed");
    case IntentionReason::kTooManyClientArgs:
      return text("a client-side action carries at most 4 arguments");
    case IntentionReason::kClientFailed: return text("the game reported failure");
    case IntentionReason::kTimeout: return text("no result from the game within the action timeout");
    case IntentionReason::kGameFailed: return text("failed by the game");
    case IntentionReason::kMayContinueRefused: return text("may not continue (MayContinue refused)");
    case IntentionReason::kCancelled: return text("cancelled by the controller");
    case IntentionReason::kCoerced:
      out.append(": coercive action by entity ");
      appendNumber(out, raw(e.subject));
      return;
    case IntentionReason::kPreempted: return text("preempted by a coercive game action");
    case IntentionReason::kActionUnavailable:
      out.append(": the influence providing ");
      appendQuoted(out, names, e.action);
      out.append(" was removed");
      return;
    case IntentionReason::kGameInterrupted: return text("interrupted by the game");
    case IntentionReason::kRestored:
      return text("the daemon restarted from a snapshot taken while it ran");
    case IntentionReason::kPrerequisiteFailed:
      return text("dropped: the intention it depended on did not complete");
  }
}

}  // namespace

void appendEventText(const IntentionEvent& e, const NameTable<ActionNameId>& names,
                     std::string& out) {
  out.append("agent ");
  appendNumber(out, raw(e.agent));
  out.append(": intention ");
  appendNumber(out, raw(e.intention));
  out.append(" ");
  appendQuoted(out, names, e.action);
  out.append(" ").append(toString(e.kind));
  appendReason(out, e, names);
  if (e.detail != ActionNameId::kNone) out.append(" (").append(names.name(e.detail)).append(")");
  if (e.kind == IntentionEventKind::kInterrupted) {
    char buf[32];
    std::snprintf(buf, sizeof buf, " at %.0f%%", static_cast<double>(e.progress) * 100.0);
    out.append(buf);
  }
}

std::string describeEvent(const IntentionEvent& e, const NameTable<ActionNameId>& names) {
  std::string text;
  appendEventText(e, names, text);
  return text;
}

}  // namespace npc
