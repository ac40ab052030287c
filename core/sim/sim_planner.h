// The simulation's planning state (tick step 6, core/goap): loaded domains, one planner,
// what each archetype's planner config resolved to, and the per-agent plan state of the
// agents that plan. Internal to core/sim (sim_planning.cpp); Simulation holds it behind a
// pointer so that most of the simulation compiles without the planner's headers.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/dense_table.h"
#include "goap/blackboard.h"
#include "goap/domain.h"
#include "goap/pacing.h"
#include "goap/plan_runner.h"
#include "goap/planner.h"
#include "goap/smart_objects.h"
#include "goap/statistics.h"
#include "goap/trace.h"
#include "intent/action_args.h"
#include "intent/intent_types.h"
#include "world/ids.h"

namespace npc {

// One planning agent (≈3.2 KB, no heap): its plan life cycle, blackboard, pacing memory,
// the facts the daemon believes about it, and the intentions of the step it is running.
struct AgentPlanner {
  EntityId id = EntityId::kNone;
  goap::PlanRunner runner;
  goap::Blackboard blackboard;
  goap::PacingMemory pacing;
  goap::GoapState facts;
  // A step is performed as at most two intentions: MoveTo (when the step moves and does
  // more than move), then the action itself. The step succeeds when both did.
  std::array<IntentionId, 2> step_intentions{IntentionId::kNone, IntentionId::kNone};
  uint8_t step_open = 0;                // intentions of the running step not ended yet
  goap::ActionId step_action = goap::ActionId::kNone;
  bool step_is_fallback = false;
  bool awaiting_plan = false;           // the runner asked; this tick's budget was spent
  bool traced = false;                  // searches fill a PlanTrace (SimPlanning::traces)
  // <ExecutePlan>'s view of a tree-driven plan.
  enum class TreePlan : uint8_t { kNone, kExecuting, kSucceeded, kFailed } tree = TreePlan::kNone;
  uint32_t searches = 0;
};

// A domain as the simulation uses it: species map for smart objects, statistics, and each
// action's intention prepared once (interned name, designer parameters as arguments).
struct PlannerDomain {
  const goap::GoapDomain* domain = nullptr;
  std::unique_ptr<goap::SmartObjectSpecies> species;
  std::unique_ptr<goap::PlannerStatistics> stats;  // counting on (statistics_dir set)
  struct PreparedAction {
    uint16_t name = 0;                  // interned action name
    uint8_t arg_count = 0;
    std::array<ActionArg, kMaxActionArgs> args{};  // designer params
    bool only_moves = false;            // every effect is a move: the step is one MoveTo
    float speed_mps = 0.f;              // "speed_mps" param; 0 = the archetype's walk speed
  };
  std::vector<PreparedAction> actions;  // by ActionId
};

// What an archetype's "planner" resolved to.
struct PlannerBinding {
  int domain = -1;                                   // into SimPlanning::domains
  std::vector<goap::BucketId> bucket_of_behavior;    // per BehaviorDef; kNone: does not plan
  enum class Source : uint8_t { kNone, kHome, kAttention, kSelf };
  std::vector<Source> targets;                       // by TargetIndex
  struct Initial {
    goap::BlackboardKeyId key;
    goap::BlackboardType type;
    float value;
  };
  std::vector<Initial> blackboard;
  std::vector<goap::FactId> transient;
  std::vector<uint16_t> perform;                     // by ActionId: interned action performed
  bool trace = false;
};

// What a planning agent keeps while its place sleeps (≈600 B): what it believes, its
// blackboard and pacing memory. The plan itself is not kept: it plans afresh on waking.
struct SleepingPlanner {
  goap::GoapState facts;
  goap::Blackboard blackboard;
  goap::PacingMemory pacing;
};

// Squad memory: agents of one signal group share a blackboard and pacing.
struct GroupPlannerMemory {
  goap::Blackboard blackboard;
  goap::PacingMemory pacing;
};

struct SimPlanning {
  goap::GoapLibrary library;
  goap::GoapPlanner planner;
  std::vector<PlannerDomain> domains;
  std::vector<PlannerBinding> bindings;              // per archetype
  DenseTable<AgentPlanner, EntityId> agents;
  std::vector<GroupPlannerMemory> groups;            // by perception group
  std::map<EntityId, std::unique_ptr<goap::PlanTrace>> traces;  // traced agents only
  std::map<EntityId, SleepingPlanner> sleeping;      // planning agents of sleeping places
  std::array<goap::SmartObjectCandidate, 64> objects{};
  std::array<goap::TargetPosition, goap::kMaxTargets> targets{};
  std::string statistics_dir;
  uint16_t param_object = 0, param_target = 0;       // interned argument names
  size_t cursor = 0;                                 // round-robin start under the budget
  uint32_t budget = 0;                               // searches left this tick

  const PlannerBinding* bindingOf(uint16_t archetype) const {
    if (archetype >= bindings.size() || bindings[archetype].domain < 0) return nullptr;
    return &bindings[archetype];
  }
};

}  // namespace npc
