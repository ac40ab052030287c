// The intention queue: one agent's planned actions (seed 004's "Decision Tree"; the seed's
// own word "tree" is kept for the interfaces, the structure is a chronological list).
//
// The queue is a protected structure. Controllers change it through DecisionTree, the
// simulation and the game through ActionTree, and the ActionScheduler runs it; everyone
// may read it through the const API below.
//
// Invariants
//   - At most kMaxIntentions intentions; a program() beyond that is refused and counted
//     (overflow()), never dropped silently.
//   - Chronological order: by date, then by programming order for equal dates (a new
//     intention goes after every one whose date is <= its own).
//   - At most one intention is current (started): the one at current(). Ended intentions
//     (completed, failed, interrupted) leave the queue at once; their events say how.
//   - Dependencies (seed 004's "decision tree"): an intention may run only after another of
//     the queue completes. It does not start while its prerequisite is in the queue; when
//     the prerequisite completes it is free to run, when it ends any other way (failed,
//     interrupted, deprogrammed) the dependent is dropped too, and so on down the chain.
//   - References are IntentionIds, unique for the daemon's lifetime: a reference to an
//     ended intention finds nothing, it can never alias a newer one.
//   - Trivially copyable, no pointers, no heap: ≈1.9 KB embedded in the agent, copied as
//     bytes into a hibernation snapshot.
// Owned by the tick thread.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <span>

#include "intent/intention.h"

namespace npc {

class IntentionQueue {
 public:
  static constexpr uint8_t kCapacity = kMaxIntentions;

  uint8_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  bool full() const { return count_ == kCapacity; }
  // The i-th intention in chronological order [Limit: i < size()].
  const Intention& at(uint8_t i) const { return slots_[order_[i]]; }
  // The intention `id`, or nullptr.
  const Intention* find(IntentionId id) const;
  // The intention its controller calls `handle` (Intention::handle), or nullptr.
  const Intention* findHandle(IntentionId handle) const;
  // Intentions programmed under provisional ids first .. first + count - 1 get their final
  // ids base + (id - first); their handles stay. A behavior tree on the pool programs
  // under provisional ids and the tick numbers them afterwards, in agent order, as a
  // serial tick would have (core/sim/behavior_phase.h).
  void renumber(IntentionId first, uint32_t count, uint64_t base);
  // The intention `in` runs after (only if it completes), or nullptr.
  const Intention* prerequisiteOf(const Intention& in) const {
    return in.waitsOnPrerequisite() ? &slots_[in.depends_on_slot] : nullptr;
  }
  // The current (started) intention, or nullptr.
  const Intention* current() const { return current_ == kNoSlot ? nullptr : &slots_[current_]; }
  // program() calls refused because the queue was full, since the agent was created.
  uint32_t overflow() const { return overflow_; }
  // The agent's clock after its last action: when it overran its quantum (an action took
  // longer than the time left), its next action starts then, not at the next tick.
  double busyUntil() const { return busy_until_s_; }

  // Makes this queue a copy of `from`, byte for byte, writing only the slots one of the two
  // uses: a free slot is always a default Intention (erase() resets it), so the others are
  // equal already. A snapshot copies ten thousand queues per capture; most of a queue's
  // 1.9 KB is free slots.
  void assignUsedSlots(const IntentionQueue& from);

 private:
  friend class DecisionTree;
  friend class ActionTree;
  friend class ActionScheduler;
  static constexpr uint8_t kNoSlot = 0xff;

  // Adds a pending intention in chronological order; nullptr (and overflow + 1) when full.
  Intention* insert(IntentionId id, double date_s, ActionNameId action,
                    std::span<const ActionArg> args, uint8_t flags);
  // Removes the intention in `slot` (clears current when it was current). Its dependents
  // are released when it `completed`; otherwise each is dropped as well, depth first, after
  // being passed to on_dropped(const Intention&) (which emits its event).
  template <class OnDropped>
  void erase(uint8_t slot, bool completed, OnDropped&& on_dropped) {
    for (uint8_t i = 0; i < count_;) {
      Intention& dependent = slots_[order_[i]];
      if (dependent.depends_on_slot != slot) {
        ++i;
        continue;
      }
      dependent.depends_on_slot = kNoIntentionSlot;
      if (completed) {
        ++i;
        continue;
      }
      on_dropped(static_cast<const Intention&>(dependent));
      erase(order_[i], false, on_dropped);
      i = 0;  // the chain's removals may sit anywhere in order_: scan again (<= 8 entries)
    }
    erase(slot);
  }
  // Removes the intention in `slot` alone (it has no dependents, or they were settled).
  void erase(uint8_t slot);
  // Slot of `id`, or kNoSlot.
  uint8_t slotOf(IntentionId id) const;
  // The scheduler must look at this agent on its next update (something changed).
  void touch() { wake_s_ = -std::numeric_limits<double>::infinity(); }

  // Snapshots keep a queue as its bytes (state/README.md "native records"): the gaps the
  // compiler would pad are named fields here, so every byte has a value.
  uint8_t count_ = 0;
  uint8_t current_ = kNoSlot;
  std::array<uint8_t, kCapacity> order_{};  // slots, chronological
  uint16_t unused_after_order_ = 0;
  uint32_t overflow_ = 0;
  uint32_t access_version_ = 0;  // ActionAccess::version() the scheduler last checked
  uint32_t unused_after_version_ = 0;
  double busy_until_s_ = 0.0;
  // Until then the scheduler has nothing to do (no due intention, no deadline) unless
  // touch()ed or the agent's ActionAccess changed.
  double wake_s_ = -std::numeric_limits<double>::infinity();
  std::array<Intention, kCapacity> slots_{};  // slot is free when its id is kNone
};

}  // namespace npc
