// DormantAgent: all that is kept of an agent while its place sleeps. Sleeping agents leave
// the simulation's dense tables (agents and world entities) entirely, so the tick never sees
// them: no perception, selection, behavior or scheduling runs for them, and their cost per
// tick is zero. What is kept is what waking needs to resume exactly: the body, the selection
// tree state, the random stream, the running long action and the inventory. Perception
// state is not kept (≈1.6 KB): a sleeping place had no perception activity, so the agent
// wakes with empty tracks, as if memory had aged through the sleep.
#pragma once

#include <cstdint>

#include "bst/selection_tree_library.h"
#include "hibernation/inventory.h"
#include "hibernation/long_action.h"
#include "intent/action_access.h"
#include "world/entity.h"
#include "world/vec3.h"

namespace npc {

// 232 bytes; with its 16-byte index entry a sleeping agent holds under 256 bytes.
struct DormantAgent {
  // Ordered largest-alignment first so the record has no padding holes.
  Entity body;                  // its world entity while out of the world
  uint64_t rng_state = 0;
  BstAgentState bst;
  LongActionRun work;
  ActionAccess actions;         // own list + influences (a spell outlives the sleep)
  Inventory inventory;
  Vec3 home;
  uint32_t actions_completed = 0;
  uint32_t actions_failed = 0;
  uint16_t archetype = 0;
  GroupNumber group = GroupNumber::kNone;  // its signal group (PerceptionState::group)
  uint8_t behavior_def = 0xff;
  bool work_is_hibernation = false;
};

}  // namespace npc
