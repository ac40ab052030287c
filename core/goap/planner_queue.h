// PlannerQueue: time-sliced planning for many agents, like Detour's dtPathQueue —
// submit() a request and get a ticket, update(budget) spends a fixed number of node
// expansions per tick on queued requests (oldest first, one search at a time), poll the
// ticket and take the result, release() the slot.
//
// A submitted request is copied: its targets and objects go into the slot's own storage
// (at most max_objects objects are kept; the rest are dropped and counted), so the caller's
// buffers may be reused at once. Blackboard, pacing, reachability, previous and trace
// pointers are NOT copied: they must stay valid until the request has started (poll()
// returns something other than kInProgress... or the ticket is released). Agents that
// disappear must release() their ticket.
//
// Tickets are generation-checked: a released or reused slot makes old tickets stale
// (status kInvalidRequest, result null). Capacity is fixed at construction; submit() on a
// full queue returns kNone. Nothing allocates after construction.
#pragma once

#include <cstdint>
#include <vector>

#include "goap/planner.h"

namespace npc::goap {

enum class PlanTicket : uint32_t { kNone = 0 };

class PlannerQueue {
 public:
  explicit PlannerQueue(uint16_t capacity = 64, uint16_t max_objects = 32);

  PlanTicket submit(const PlanRequest& request);
  // Expands up to max_expansions nodes over the queued requests; starting a request counts
  // as one. Returns the expansions spent.
  uint32_t update(uint32_t max_expansions);
  // kInProgress while queued or running; the final status once done; kInvalidRequest for a
  // stale ticket.
  PlanStatus status(PlanTicket ticket) const;
  // The finished result, or null while queued/running or for a stale ticket.
  const PlanResult* result(PlanTicket ticket) const;
  // Frees the slot (cancels the search if it is running).
  void release(PlanTicket ticket);

  size_t queued() const { return count_; }
  uint64_t droppedObjects() const { return dropped_objects_; }
  GoapPlanner& planner() { return planner_; }

 private:
  enum class SlotState : uint8_t { kFree, kQueued, kRunning, kDone };
  struct Slot {
    PlanRequest request;
    std::vector<SmartObjectCandidate> objects;
    std::array<TargetPosition, kMaxTargets> targets{};
    PlanResult result;
    uint16_t generation = 1;
    SlotState state = SlotState::kFree;
  };
  Slot* slotOf(PlanTicket ticket);
  const Slot* slotOf(PlanTicket ticket) const;

  GoapPlanner planner_;
  std::vector<Slot> slots_;
  std::vector<uint16_t> fifo_;   // ring of queued slot indices
  size_t head_ = 0, count_ = 0;
  int running_ = -1;
  uint16_t max_objects_;
  uint64_t dropped_objects_ = 0;
};

}  // namespace npc::goap
