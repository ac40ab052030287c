// PlannerMemory: what a planning agent believes and remembers, apart from the plan it runs.
// Kept while its place sleeps (SimPlanning::sleeping) and in snapshots (state/goap_codec):
// the facts of each of its planners' domains, and the blackboard and pacing memory they
// share. The plans themselves are not kept: an agent plans afresh on waking or restore.
#pragma once

#include <array>
#include <cstdint>

#include "agent/archetype.h"
#include "goap/blackboard.h"
#include "goap/goap_types.h"
#include "goap/pacing.h"

namespace npc {

struct PlannerMemory {
  std::array<goap::GoapState, kMaxPlannersPerAgent> facts{};  // by the archetype's planner
  uint8_t planners = 1;                                         // facts in use
  goap::Blackboard blackboard;
  goap::PacingMemory pacing;
};

}  // namespace npc
