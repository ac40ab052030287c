// Per-agent runtime state: flat, fixed-size, and owned by the simulation's agent table.
// Definitions (archetype, selection tree) are shared and immutable; only what differs per
// agent is here: what it perceives, its selection variables, what it is doing.
#pragma once

#include <array>
#include <cstdint>

#include "base/rng.h"
#include "bst/selection_tree_library.h"
#include "hibernation/inventory.h"
#include "hibernation/long_action.h"
#include "intent/intent_agent_state.h"
#include "mbt/instance.h"
#include "perception/perception_state.h"
#include "world/ids.h"
#include "world/name_table.h"
#include "world/vec3.h"

namespace npc {

struct AgentPlanner;  // core/sim/sim_planner.h: the planner side table's row

struct Agent {
  static constexpr uint8_t kNoBehaviorDef = 0xff;

  EntityId id = EntityId::kNone;
  EntityHandle entity;          // the agent's body in the world's entity table
  uint16_t archetype = 0;       // index in the ArchetypeSet
  Vec3 home;                    // where it was spawned; wandering stays near it
  Rng rng;                      // seeded from (world seed, id): order-independent

  PerceptionState perception;   // what it sees, remembers and heard (≈1.6 KB, no heap)
  BstAgentState bst;            // selection variables and current behavior (32 bytes)
  uint8_t behavior_def = kNoBehaviorDef;  // the archetype's BehaviorDef now running

  // Its actions: own list + influences, and the intention queue (seed 004's decision tree).
  IntentAgentState intent;
  // How its recent intentions ended, for behavior trees polling their actions.
  struct Outcome {
    IntentionId intention = IntentionId::kNone;
    IntentionId handle = IntentionId::kNone;  // what its tree calls it (Intention::handle)
    bool succeeded = false;
  };
  std::array<Outcome, 8> recent_outcomes{};
  uint8_t next_outcome = 0;
  // Where its recent client-side actions were sent (kUnowned: to every subscriber), so that
  // only that client may report their results. The oldest record is overwritten.
  struct SentAction {
    IntentionId intention = IntentionId::kNone;
    ClientId to = ClientId::kDaemon;
  };
  std::array<SentAction, 4> sent_actions{};
  uint8_t next_sent = 0;

  MbtInstance mbt;  // the running modular behavior tree, when its behavior has one
  Handle<AgentPlanner> planner;  // its GOAP plan state in the simulation's side table, if it plans

  // Built-in behavior memory (builtin_behaviors.h).
  double idle_until_s = 0.0;    // no new wander before this
  double greet_ready_s = 0.0;   // no new greeting before this
  double attack_ready_s = 0.0;  // no new attack before this
  EntityId faced = EntityId::kNone;   // attention target last turned to
  Vec3 investigated{1e30f, 1e30f, 1e30f};  // last position investigated
  bool looked_around = false;   // investigate: looked around at `investigated`

  // Daemon-side long action (a long_action behavior, or the hibernation action while its
  // place sleeps) and what it produced.
  LongActionRun work;
  bool work_is_hibernation = false;  // started because the place slept: stops on wake
  Inventory inventory;

  uint32_t actions_completed = 0;
  uint32_t actions_failed = 0;

  // Something programmed or running: behaviors program the next action only when idle.
  bool busy() const { return !intent.queue.empty(); }
};

}  // namespace npc
