// PlannerMemory: what a planning agent believes and remembers, apart from the plan it runs.
// Kept while its place sleeps (SleepingPlanners) and in snapshots (state/goap_codec):
// the facts of each of its planners' domains, and the blackboard and pacing memory they
// share. The plans themselves are not kept: an agent plans afresh on waking or restore.
#pragma once

#include <array>
#include <cstdint>

#include "agent/archetype.h"
#include "base/shared_rows.h"
#include "goap/blackboard.h"
#include "goap/goap_types.h"
#include "goap/pacing.h"
#include "world/ids.h"

namespace npc {

struct PlannerMemory {
  std::array<goap::GoapState, kMaxPlannersPerAgent> facts{};  // by the archetype's planner
  uint8_t planners = 1;                                         // facts in use
  goap::Blackboard blackboard;
  goap::PacingMemory pacing;
};

// A sleeping agent's planner memory. A place's sleeping planners are one SharedRows list
// beside its sleepers (SimPlanning::sleeping): 700 bytes a planner, a capture shares them
// as it shares the sleepers instead of copying them. In the order they fell asleep.
struct SleepingPlanner {
  EntityId id = EntityId::kNone;
  PlannerMemory memory;
};
using SleepingPlanners = SharedRows<SleepingPlanner>;

}  // namespace npc
