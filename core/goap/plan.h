// What a search returns: a plan (steps for the caller to turn into intentions), how the
// search ended, and — when there is no plan — why, as fixed-size data (explain() renders
// text on demand). PlanResult holds everything inline (≈2.5 KB, no heap), so a per-agent
// copy costs no allocation and a result can be reused as the "previous" plan of the next
// request (skip replanning, planner.h).
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "goap/domain.h"
#include "goap/goap_types.h"
#include "world/ids.h"
#include "world/vec3.h"

namespace npc::goap {

enum class PlanStatus : uint8_t {
  kIdle,            // no search started
  kInProgress,      // time-sliced search not finished: call step() again
  kFound,           // steps reach `goal`
  kPartial,         // a limit stopped the search: steps lead towards the goal (best h)
  kNoPlan,          // the search space holds no plan (see `why` and `flags`)
  kInvalidRequest,  // unknown bucket / goal, no goal, bad state (a programmer error)
};
const char* toString(PlanStatus status);

// Why a search ended the way it did; several may be set.
enum PlanFlag : uint16_t {
  kPlanOutOfNodes = 1 << 0,      // the node pool filled: some states were never generated
  kPlanExpansionLimit = 1 << 1,  // max_expansions reached
  kPlanWorkLimit = 1 << 2,       // deterministic time budget (max_work) spent
  kPlanWallClockLimit = 1 << 3,  // optional wall-clock budget spent
  kPlanDepthLimited = 1 << 4,    // nodes at max_depth were not expanded
  kPlanSuboptimal = 1 << 5,      // weighted search: cost ≤ weight × optimum
  kPlanAlreadySatisfied = 1 << 6,
  kPlanReused = 1 << 7,          // nothing the previous search read changed: its result
  kPlanRelaxedUnreachable = 1 << 8,  // even ignoring negative effects a goal is unreachable
  kPlanLocationTableFull = 1 << 9,   // too many planned positions; some moves were dropped
  kPlanStepsTruncated = 1 << 10,     // plan longer than kMaxPlanSteps (never with max_depth)
  kPlanPartialAccepted = 1 << 11,    // kPartial, and the domain accepts partial plans
  kPlanExactHeuristic = 1 << 12,     // a small problem's exact table guided it (h0 = optimum)
  kPlanPatternHeuristic = 1 << 13,   // the goals' pattern databases guided it (domain.h)
};

struct PlanStep {
  ActionId action = ActionId::kNone;
  TargetIndex target = TargetIndex::kNone;  // the target this step moves to / measures, if any
  bool moves = false;
  EntityId object = EntityId::kNone;        // bound smart object, if any
  Vec3 destination;                          // planned position after the step (when moves)
  Vec3 object_position;                      // where the bound object was when planning
  float cost = 0.f;                          // as evaluated on the planned state
};

// Why an action (instance) was not used; shared by "no plan: why" and the trace.
enum class RejectReason : uint8_t {
  kNone,               // not rejected
  kNotInBucket,        // the action belongs to another bucket
  kIrrelevant,         // cannot contribute to the requested goals (relevance analysis)
  kContextCondition,   // a blackboard condition failed (checked once per search)
  kMissingTarget,      // a target it refers to is absent from the request
  kNoCandidate,        // a smart-object action with no object left after pruning
  kObjectTooFar,       // candidate beyond the action's max_distance_m
  kObjectUnreachable,  // candidate refused by the Reachability test
  kObjectOverCap,      // candidate beyond the nearest max_candidates
  kCondition,          // a precondition failed on the planned state
  kEffectOutOfRange,   // an add/sub effect would leave the int fact's range
  kLocationTableFull,  // no slot left for a planned position
  kDuplicate,          // reached a known state without a cheaper path
  kNodePoolFull,       // no node left for a new state
  kDepthLimit,         // the node is at max_depth and was not expanded
};
const char* toString(RejectReason reason);

// "no plan: why" — fixed size; explain() names everything.
struct UnmetCondition {
  GoalId goal = GoalId::kNone;
  uint16_t desired = 0;          // index into GoalDef::desired
  uint8_t blocker_count = 0;     // achievers shown (≤ 4)
  uint8_t achievers = 0;         // achievers in the searched pool (0 = nothing can achieve it)
  struct Blocker {
    ActionId action = ActionId::kNone;
    EntityId object = EntityId::kNone;
    uint16_t condition = 0xffff; // declared index of a precondition that never held; 0xffff:
                                 // every precondition held somewhere, but never together
    RejectReason reason = RejectReason::kNone;  // set when pruned before the search
    uint8_t effect = 0xff;       // kEffectOutOfRange: index of the add/sub effect that left
                                 // its fact's range wherever the preconditions held
  };
  std::array<Blocker, 4> blockers{};
};

struct NoPlanWhy {
  uint8_t count = 0;
  std::array<UnmetCondition, 8> unmet{};
};

// Identifies what a search read, so an identical request can be answered without searching.
struct PlanSignature {
  uint64_t domain = 0;      // GoapDomain::serial()
  BucketId bucket = BucketId::kNone;
  std::array<GoalId, kMaxGoalsPerRequest> goals{};
  uint8_t goal_count = 0;
  GoapState read_mask;      // fields of the facts the search could read
  GoapState read_values;    // start state & read_mask
  uint64_t context = 0;     // instances, positions (0.25 m grid), context-condition outcomes
  bool valid = false;
  bool operator==(const PlanSignature&) const = default;
};

struct PlanResult {
  PlanStatus status = PlanStatus::kIdle;
  uint16_t flags = 0;
  GoalId goal = GoalId::kNone;        // the goal reached (or aimed at, for kPartial)
  ActionId fallback = ActionId::kNone;  // the bucket's fallback, to run when there is no plan
  uint8_t step_count = 0;
  float cost = 0.f;
  float h0 = 0.f;                     // heuristic at the start (a lower bound of the cost)
  uint32_t expansions = 0;
  uint32_t generated = 0;
  uint64_t work = 0;                  // deterministic work units spent (planner.h)
  std::array<PlanStep, kMaxPlanSteps> steps{};
  NoPlanWhy why;
  PlanSignature signature;

  // A partial result (a prefix towards the goal) is a plan only when the domain opted in
  // ("search": {"accept_partial": true}); by default a caller never executes half a plan.
  bool hasPlan() const {
    return status == PlanStatus::kFound ||
           (status == PlanStatus::kPartial && step_count > 0 && (flags & kPlanPartialAccepted));
  }
};

// One line per unmet goal condition, e.g.
//   no plan for "kill": "enemy_alive = false" never held; achievers: shoot_pistol (never
//   "pistol_loaded = true"), melee_stunned (never "at = melee"), deliver (effect
//   "coins + 1" always left [0, 2])
std::string explain(const PlanResult& result, const GoapDomain& domain);

// The executor's belief update: a step succeeded, so its fact effects now hold in
// `facts` (moves are the world's business: positions come from the game). add/sub effects
// clamp to the fact's range instead of failing: the step already happened.
void applyFactEffects(const ActionDef& action, GoapState& facts);

// Execution check (PlanRunner): from `current`, do the fact preconditions of steps
// from..end hold in sequence when each step's fact effects are applied (an `any`: one
// alternative's facts), and does the goal hold at the end? With `from_is_running`, step
// `from` is already executing: its own preconditions are the executor's business (they may
// be consumed by the step itself), so only its effects are applied. Positions are not
// checked (they change continuously while executing; moves are the caller's to verify).
// Returns −1 when the rest of the plan is valid, else the index of the first step whose
// preconditions fail (step_count when only the goal fails).
int firstInvalidStep(const GoapDomain& domain, const PlanResult& plan, int from,
                     const GoapState& current, bool from_is_running = false);

}  // namespace npc::goap
