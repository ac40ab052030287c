// Planner monitor: an optional record of one search — the location table, every action
// instance searched, every expanded node (state, g, h, the goal conditions still open),
// every child generated with its cost, and every rejection with its reason (failed
// condition, pruned object, bucket, duplicate, limits). toJson() gives the structured form
// the API returns for GetPlanTrace.
//
// Keep one PlanTrace per agent you want to debug and pass it in PlanRequest::trace. The
// planner clear()s it at the start of a search; vectors keep their capacity, so repeated
// traced searches stop allocating once warm. At most max_events children / rejections and
// max_expansions nodes are kept; beyond that `dropped` counts what was left out.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "goap/plan.h"

namespace npc::goap {

inline constexpr uint32_t kTraceNoNode = 0xffffffffu;

struct TraceInstance {
  ActionId action = ActionId::kNone;
  EntityId object = EntityId::kNone;
  uint8_t object_slot = 0xff;
  float pacing = 0.f;          // pacing cost added to every use in this search
};

struct TraceLocation {
  Vec3 position;
  EntityId entity = EntityId::kNone;
  uint8_t kind = 0;            // 0 self, 1 target, 2 object, 3 planned (MoveNear)
  uint8_t index = 0;           // target index (kind 1)
};

struct TraceRejection {
  uint32_t node = kTraceNoNode;  // expanded node; kTraceNoNode: before the search
  ActionId action = ActionId::kNone;  // kNone for node-level rejections (kDepthLimit)
  int32_t instance = -1;         // into PlanTrace::instances; −1 when never instantiated
  RejectReason reason = RejectReason::kNone;
  uint16_t condition = 0xffff;   // declared index of the failed condition
  EntityId object = EntityId::kNone;
  float value = 0.f;             // metres (too far), rank (over cap), g kept (duplicate)
};

struct TraceChild {
  uint32_t node = 0;
  int32_t instance = -1;
  float cost = 0.f, g = 0.f, h = 0.f;
  bool improved = false;         // an existing state reached more cheaply
};

struct TraceExpansion {
  uint32_t node = 0, parent = kTraceNoNode;
  int32_t via = -1;              // instance that produced this node
  uint8_t depth = 0;
  float g = 0.f, h = 0.f;
  GoapState state;
  uint32_t open_conditions = 0;  // bit i: PlanTrace::desired[i] does not hold here
  uint32_t first_child = 0, child_count = 0;
  uint32_t first_rejection = 0, rejection_count = 0;
};

struct TraceDesired {
  GoalId goal = GoalId::kNone;
  uint16_t desired = 0;
};

struct TraceLandmark {
  float cost = 0.f;
  uint32_t first_member = 0, member_count = 0;  // into landmark_members (instances)
};

class PlanTrace {
 public:
  uint32_t max_expansions = 2000;
  uint32_t max_events = 50000;

  const GoapDomain* domain = nullptr;
  BucketId bucket = BucketId::kNone;
  std::vector<GoalId> goals;
  GoapState start;
  std::vector<TraceDesired> desired;
  std::vector<TraceLocation> locations;
  std::vector<TraceInstance> instances;
  std::vector<TraceLandmark> landmarks;
  std::vector<int32_t> landmark_members;
  std::vector<TraceExpansion> expansions;
  std::vector<TraceChild> children;
  std::vector<TraceRejection> rejections;  // pre-search ones first, then per expansion
  uint32_t dropped = 0;
  PlanResult result;

  void clear();
  bool roomForEvent() {
    if (children.size() + rejections.size() < max_events) return true;
    ++dropped;
    return false;
  }
  // Counts of one reason over all rejections (tests, summaries).
  size_t count(RejectReason reason) const;

  nlohmann::json toJson() const;
};

}  // namespace npc::goap
