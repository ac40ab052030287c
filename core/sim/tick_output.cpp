#include "sim/tick_output.h"

namespace npc {

std::string_view toString(EventKind kind) {
  switch (kind) {
    case EventKind::kError: return "error";
    case EventKind::kAgentSpawned: return "agent_spawned";
    case EventKind::kAgentDespawned: return "agent_despawned";
    case EventKind::kIntentionCompleted: return "intention_completed";
    case EventKind::kIntentionFailed: return "intention_failed";
    case EventKind::kBehavior: return "behavior";
    case EventKind::kStealth: return "stealth";
    case EventKind::kPlaceAsleep: return "place_asleep";
    case EventKind::kPlaceAwake: return "place_awake";
    case EventKind::kIntentionStarted: return "intention_started";
    case EventKind::kIntentionInterrupted: return "intention_interrupted";
  }
  return "?";
}

}  // namespace npc
