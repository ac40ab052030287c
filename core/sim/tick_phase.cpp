#include "sim/tick_phase.h"

namespace npc {

std::string_view tickPhaseName(TickPhase phase) {
  switch (phase) {
    case TickPhase::kIngest: return "ingest";
    case TickPhase::kPlaces: return "places";
    case TickPhase::kPerception: return "perception";
    case TickPhase::kSelection: return "selection";
    case TickPhase::kBehavior: return "behavior";
    case TickPhase::kPlanning: return "planning";
    case TickPhase::kScheduling: return "scheduling";
    case TickPhase::kEmit: return "emit";
  }
  return "?";
}

}  // namespace npc
