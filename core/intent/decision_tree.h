// DecisionTree: the interface entity controllers use to manage their agent's intentions
// (seed 004, "Interfaces exposed to entity controllers"). A view over one agent's
// IntentionQueue, built per call site (three pointers and a time: construct it where you
// need it, don't store it).
//
//   program(date, action, args)  schedules an intention; same date = in programming order,
//                                as soon as possible from that date
//   program(..., depends_on)     ... that runs only if intention `depends_on` completes
//                                (seed 004's decision tree: a chain programmed at once;
//                                dropped with Failed kPrerequisiteFailed otherwise)
//   iterateOnIntentions(fn)      the controller's intentions, chronological
//   deprogram(ref)               removes one that has not started (no event)
//   cancel(ref)                  interrupts the current one (Interrupted, kCancelled)
//   getIntention / getCurrentIntention / getProgress
//
// Refs are IntentionIds (unique for the daemon's lifetime, also what clients see). Calls
// return IntentStatus values and allocate nothing; toStatus() makes a Status with a message
// at the RPC edge. Events go to ctx.events (the controller receives them as MBT events / BST
// signals); a full buffer counts the drop (BoundedBuffer::dropped()).
// Game-scheduled actions (Die, Land) are visible to the controller through getIntention /
// getCurrentIntention but it cannot deprogram or cancel them (kGameOwned), and one queue
// slot is reserved for the game: controllers get kQueueFull at kMaxIntentions - 1.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "base/status.h"
#include "intent/action_args.h"
#include "intent/bounded_buffer.h"
#include "intent/intention_event.h"
#include "intent/intention_queue.h"

namespace npc {

class ActionRegistry;

// Hands out IntentionIds, unique for the daemon's lifetime. One per simulation.
class IntentionIdSource {
 public:
  explicit IntentionIdSource(uint64_t first = 1) : next_(first == 0 ? 1 : first) {}
  IntentionId next() { return static_cast<IntentionId>(next_++); }
  // The first of `count` consecutive ids, all taken.
  IntentionId reserve(uint64_t count) {
    const uint64_t first = next_;
    next_ += count;
    return static_cast<IntentionId>(first);
  }
  uint64_t peek() const { return next_; }

 private:
  uint64_t next_;
};

// What the tree views need besides the queue; build one per tick (or per phase).
struct TreeContext {
  const ActionRegistry* registry = nullptr;
  IntentionIdSource* ids = nullptr;
  BoundedBuffer<IntentionEvent>* events = nullptr;
  double now_s = 0.0;  // stamped on events the views emit
};

struct Programmed {
  IntentStatus status = IntentStatus::kOk;
  IntentionId id = IntentionId::kNone;
  bool ok() const { return status == IntentStatus::kOk; }
};

// Slots only the game may fill (ActionTree::programGame), so Die always fits.
inline constexpr uint8_t kGameReservedIntentions = 1;

class DecisionTree {
 public:
  DecisionTree(IntentionQueue& queue, EntityId agent, const TreeContext& ctx)
      : queue_(queue), agent_(agent), ctx_(ctx) {}

  // Schedules `action` for `date_s` (simulated seconds; <= now means as soon as possible).
  // kUnknownAction: no implementation of that name is registered at all (whether this
  // agent can perform it is decided when it starts: a Failed kNotAvailable event);
  // kGameOnly; kTooManyArgs (> kMaxActionArgs); kBadDate (NaN, +inf); kQueueFull (counted
  // in overflow()).
  // With `depends_on` (an intention of this queue, pending or running; kUnknownIntention
  // otherwise), it waits for that one to complete and is dropped if it ends any other way.
  Programmed program(double date_s, ActionNameId action,
                     std::span<const ActionArg> args = {},
                     IntentionId depends_on = IntentionId::kNone);
  // Calls fn(const Intention&) for each intention the controller programmed, in
  // chronological order (game-scheduled actions are skipped; ActionTree shows them).
  template <class Fn>
  void iterateOnIntentions(Fn&& fn) const {
    for (uint8_t i = 0; i < queue_.size(); ++i) {
      if (!queue_.at(i).gameScheduled()) fn(queue_.at(i));
    }
  }
  // Removes an intention that has not started (no event; those that depended on it are
  // dropped with Failed kPrerequisiteFailed). kUnknownIntention, kNotPending, kGameOwned.
  IntentStatus deprogram(IntentionId ref);
  // Interrupts the current intention (long daemon-side or client-side): Interrupted event
  // with kCancelled; a client-side one tells the client to stop through that event.
  // kUnknownIntention, kNotCurrent, kGameOwned.
  IntentStatus cancel(IntentionId ref);
  // The intention, or nullptr when it ended or never was in this queue. Valid until the
  // queue next changes.
  const Intention* getIntention(IntentionId ref) const { return queue_.find(ref); }
  // The current intention's id, or kNone.
  IntentionId getCurrentIntention() const;
  // 0..1 (0 before it starts); nullopt for an unknown ref.
  std::optional<float> getProgress(IntentionId ref) const;

  const IntentionQueue& queue() const { return queue_; }
  EntityId agent() const { return agent_; }

 protected:
  Programmed add(double date_s, ActionNameId action, std::span<const ActionArg> args,
                 uint8_t flags, uint8_t capacity, IntentionId depends_on = IntentionId::kNone);
  // Removes `slot`, settling its dependents (released, or dropped with their events).
  void remove(uint8_t slot, bool completed);
  // Emits the event and removes the intention.
  void end(uint8_t slot, IntentionEventKind kind, IntentionReason reason,
           ActionNameId detail = ActionNameId::kNone, EntityId subject = EntityId::kNone);

  IntentionQueue& queue_;
  EntityId agent_;
  TreeContext ctx_;
};

// A Status with a message saying where and why, for RPC replies and logs, e.g.
// "agent 7: intention 12: not current (cancel applies to the running intention)".
Status toStatus(IntentStatus status, EntityId agent, IntentionId intention);

// Fills an event record for `in`.
IntentionEvent makeEvent(EntityId agent, const Intention& in, IntentionEventKind kind,
                         IntentionReason reason, double time_s);

}  // namespace npc
