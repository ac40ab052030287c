#include "intent/intent_types.h"

namespace npc {

std::string_view toString(IntentionPhase phase) {
  switch (phase) {
    case IntentionPhase::kPending: return "pending";
    case IntentionPhase::kRunning: return "running";
    case IntentionPhase::kAwaitingClient: return "awaiting_client";
    case IntentionPhase::kGameDriven: return "game_driven";
  }
  return "?";
}

std::string_view toString(PerformStatus status) {
  switch (status) {
    case PerformStatus::kCompleted: return "completed";
    case PerformStatus::kFailed: return "failed";
    case PerformStatus::kContinuing: return "continuing";
  }
  return "?";
}

std::string_view toString(IntentStatus status) {
  switch (status) {
    case IntentStatus::kOk: return "ok";
    case IntentStatus::kQueueFull: return "queue_full";
    case IntentStatus::kTooManyArgs: return "too_many_args";
    case IntentStatus::kBadDate: return "bad_date";
    case IntentStatus::kUnknownAction: return "unknown_action";
    case IntentStatus::kGameOnly: return "game_only";
    case IntentStatus::kUnknownIntention: return "unknown_intention";
    case IntentStatus::kNotPending: return "not_pending";
    case IntentStatus::kNotCurrent: return "not_current";
    case IntentStatus::kGameOwned: return "game_owned";
    case IntentStatus::kBusy: return "busy";
    case IntentStatus::kBadProgress: return "bad_progress";
    case IntentStatus::kNotInfluence: return "not_influence";
  }
  return "?";
}

std::string_view toString(ActionSide side) {
  return side == ActionSide::kClient ? "client" : "daemon";
}

}  // namespace npc
