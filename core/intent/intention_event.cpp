#include "intent/intention_event.h"

#include <cstdio>

namespace npc {

static_assert(sizeof(IntentionEvent) == 48, "intention events stay at 48 bytes");

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

std::string quoted(const NameTable<ActionNameId>& names, ActionNameId name) {
  return "\"" + names.name(name) + "\"";
}

std::string explain(const IntentionEvent& e, const NameTable<ActionNameId>& names) {
  const std::string action = quoted(names, e.action);
  switch (e.reason) {
    case IntentionReason::kNone: return {};
    case IntentionReason::kNotAvailable:
      return "cannot perform " + action +
             ": not among the agent's own actions nor its influences'";
    case IntentionReason::kMayStartRefused: return "may not start now (MayStart refused)";
    case IntentionReason::kInitFailed: return "initialisation failed";
    case IntentionReason::kPerformFailed: return "the action failed";
    case IntentionReason::kTooManyClientArgs:
      return "a client-side action carries at most 4 arguments";
    case IntentionReason::kClientFailed: return "the game reported failure";
    case IntentionReason::kTimeout: return "no result from the game within the action timeout";
    case IntentionReason::kGameFailed: return "failed by the game";
    case IntentionReason::kMayContinueRefused: return "may not continue (MayContinue refused)";
    case IntentionReason::kCancelled: return "cancelled by the controller";
    case IntentionReason::kCoerced:
      return "coercive action by entity " + std::to_string(raw(e.subject));
    case IntentionReason::kPreempted: return "preempted by a coercive game action";
    case IntentionReason::kActionUnavailable:
      return "the influence providing " + action + " was removed";
    case IntentionReason::kGameInterrupted: return "interrupted by the game";
    case IntentionReason::kRestored:
      return "the daemon restarted from a snapshot taken while it ran";
    case IntentionReason::kPrerequisiteFailed:
      return "dropped: the intention it depended on did not complete";
  }
  return {};
}

}  // namespace

std::string describeEvent(const IntentionEvent& e, const NameTable<ActionNameId>& names) {
  std::string text = "agent " + std::to_string(raw(e.agent)) + ": intention " +
                     std::to_string(raw(e.intention)) + " " + quoted(names, e.action) + " " +
                     std::string(toString(e.kind));
  const std::string why = explain(e, names);
  if (!why.empty()) text += ": " + why;
  if (e.detail != ActionNameId::kNone) text += " (" + names.name(e.detail) + ")";
  if (e.kind == IntentionEventKind::kInterrupted) {
    char buf[32];
    std::snprintf(buf, sizeof buf, " at %.0f%%", static_cast<double>(e.progress) * 100.0);
    text += buf;
  }
  return text;
}

}  // namespace npc
