// The simulation's planning state (tick step 6, core/goap): loaded domains, a planner per worker,
// what each archetype's planners resolved to, and the per-agent plan state of the agents
// that plan (a row per agent, and a row per planner of it). Internal to core/sim (sim_planning.cpp); Simulation holds it behind a
// pointer so that most of the simulation compiles without the planner's headers.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <span>
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
#include "sim/planner_memory.h"
#include "world/ids.h"

namespace npc {

// One planner of one agent (≈2.9 KB, no heap): its plan life cycle, the facts the daemon
// believes in its domain, and the intentions of the step it is running.
struct PlannerRun {
  EntityId id = EntityId::kNone;        // the agent
  goap::PlanRunner runner;
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
  // The entities of the domain's targets when the plan was searched for (by TargetIndex): a
  // step that names a target acts on the one the plan was made for.
  std::array<EntityId, goap::kMaxTargets> target_entities{};
};

// One planning agent (≈610 B): the memory its planners share — seed 003's ships planned
// movement and attacks independently and talked through one blackboard — and where its
// planners' runs are (SimPlanning::runs[i], one table per planner index).
struct AgentPlanner {
  EntityId id = EntityId::kNone;
  goap::Blackboard blackboard;
  goap::PacingMemory pacing;
  uint8_t count = 0;                                       // its archetype's planners
  std::array<Handle<PlannerRun>, kMaxPlannersPerAgent> runs{};
};

// A domain as the simulation uses it: species map for smart objects, statistics, and each
// action's intention prepared once (interned name, designer parameters as arguments).
struct PlannerDomain {
  const goap::GoapDomain* domain = nullptr;
  std::unique_ptr<goap::SmartObjectSpecies> species;
  std::unique_ptr<goap::PlannerStatistics> stats;  // counting on (statistics_dir set)
  struct PreparedAction {
    ActionNameId name{0};               // interned action name
    uint8_t arg_count = 0;
    std::array<ActionArg, kMaxActionArgs> args{};  // designer params
    bool only_moves = false;            // every effect is a move: the step is one MoveTo
    float speed_mps = 0.f;              // "speed_mps" param; 0 = the archetype's walk speed
  };
  std::vector<PreparedAction> actions;  // by ActionId
};

// What one of an archetype's planners resolved to.
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
  std::vector<ActionNameId> perform;                 // by ActionId: interned action performed
  bool trace = false;
};

// A planner's trace is kept per agent and planner index.
using PlannerKey = std::pair<EntityId, uint8_t>;

// Squad memory: agents of one signal group share a blackboard and pacing.
struct GroupPlannerMemory {
  goap::Blackboard blackboard;
  goap::PacingMemory pacing;
};

// What one search needs beside its request: a planner and the request's scratch. The tick
// thread searches with SimPlanning::own; the pool's workers 1.. with their own
// (SimPlanning::workers), so the planning phase's searches run on every worker at once.
struct PlannerScratch {
  goap::GoapPlanner planner;
  std::array<goap::SmartObjectCandidate, 64> objects{};
  std::array<goap::TargetPosition, goap::kMaxTargets> targets{};
};

struct SimPlanning {
  goap::GoapLibrary library;
  PlannerScratch own;                                 // the tick thread's (worker 0)
  std::vector<std::unique_ptr<PlannerScratch>> workers;  // [w - 1]: worker w's
  std::vector<PlannerDomain> domains;
  std::vector<std::vector<PlannerBinding>> bindings;  // per archetype, per planner
  DenseTable<AgentPlanner, EntityId> agents;
  std::array<DenseTable<PlannerRun, EntityId>, kMaxPlannersPerAgent> runs;  // by planner index
  std::vector<GroupPlannerMemory> groups;            // by perception group
  std::map<PlannerKey, std::unique_ptr<goap::PlanTrace>> traces;  // traced planners only
  std::vector<SleepingPlanners> sleeping;            // by place: its sleeping planning agents
  std::string statistics_dir;
  ActionNameId param_object{0}, param_target{0};     // interned argument names
  size_t cursor = 0;                                 // round-robin start under the budget
  uint32_t budget = 0;                               // searches left this tick

  // The archetype's bound planners (empty when it does not plan or a binding failed).
  std::span<const PlannerBinding> bindingsOf(uint16_t archetype) const {
    if (archetype >= bindings.size()) return {};
    return bindings[archetype];
  }
  const goap::GoapDomain& domainOf(const PlannerBinding& b) const {
    return *domains[static_cast<size_t>(b.domain)].domain;
  }
  // An agent's planner row (Agent::planner), or nullptr when it does not plan.
  AgentPlanner* plannerOf(Handle<AgentPlanner> row) { return row.isNull() ? nullptr : agents.get(row); }
  // Its planner `index`'s run, or nullptr past its archetype's planners.
  PlannerRun* runOf(const AgentPlanner& ap, uint8_t index) {
    return index < ap.count ? runs[index].get(ap.runs[index]) : nullptr;
  }
  PlannerScratch& scratchFor(unsigned worker) { return worker == 0 ? own : *workers[worker - 1]; }
  void reserveWorkers(unsigned count) {
    while (workers.size() + 1 < count) workers.push_back(std::make_unique<PlannerScratch>());
  }
  // Statistics count into one table per domain, so searches that count run one at a time.
  bool counting() const { return !statistics_dir.empty(); }
  SleepingPlanners& sleepingIn(PlaceIndex place) {
    if (sleeping.size() <= raw(place)) sleeping.resize(raw(place) + 1u);
    return sleeping[raw(place)];
  }
};

}  // namespace npc
