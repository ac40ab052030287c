// An intention: a reference to an action with all its context parameters (seed 004,
// "Decision Tree"), plus the per-use state of the action performing it.
//
// Actions are stateless singletons; whatever one needs to remember between turns (Raoul's
// start and target positions while he walks, the end time of a wait) lives in the
// intention's ActionState: 32 bytes of plain data that only that action reads and writes.
// Intentions hold no pointers and are trivially copyable, so a hibernation snapshot can
// store them as bytes and settle long actions from their state alone.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <type_traits>

#include "intent/action_args.h"
#include "intent/intent_types.h"
#include "world/ids.h"

namespace npc {

// The private per-use state of an action. Typed access by copy (no aliasing tricks):
//   struct GoState { Vec3 start, target; float length_m; };
//   GoState s = intention.state.get<GoState>();  ...  intention.state.set(s);
// T must be trivially copyable, at most 32 bytes and aligned to at most 8 (checked at
// compile time). A fresh intention's state is all zero bytes.
struct alignas(8) ActionState {
  static constexpr size_t kBytes = 32;
  std::array<std::byte, kBytes> bytes{};

  template <class T>
  T get() const {
    checkFits<T>();
    T value;
    std::memcpy(&value, bytes.data(), sizeof(T));
    return value;
  }
  template <class T>
  void set(const T& value) {
    checkFits<T>();
    std::memcpy(bytes.data(), &value, sizeof(T));
  }
  void clear() { bytes.fill(std::byte{0}); }

 private:
  template <class T>
  static constexpr void checkFits() {
    static_assert(std::is_trivially_copyable_v<T>, "ActionState holds plain data only");
    static_assert(sizeof(T) <= kBytes, "ActionState holds at most 32 bytes");
    static_assert(alignof(T) <= 8, "ActionState is 8-byte aligned");
  }
};

// Intention flags.
inline constexpr uint8_t kIntentionGameScheduled = 1 << 0;  // programmed by the game (ActionTree)
inline constexpr uint8_t kIntentionCoercive = 1 << 1;       // interrupts the current one when due

inline constexpr double kNoDeadline = std::numeric_limits<double>::infinity();
inline constexpr uint8_t kNoIntentionSlot = 0xff;

struct Intention {
  IntentionId id = IntentionId::kNone;
  // What the controller that programmed it refers to it by: its id, or the provisional id a
  // behavior tree ticking on the pool was given before the tick numbered the intention
  // (IntentionQueue::renumber). Only that controller uses it; clients see `id`.
  IntentionId handle = IntentionId::kNone;
  double date_s = 0.0;           // earliest start, simulated seconds
  double started_s = -1.0;       // when it became current (agent clock); < 0 while pending
  double deadline_s = kNoDeadline;  // client-side: fails with kTimeout at this tick time
  ActionState state;             // the action's private per-use state
  float progress = 0.f;          // 0..1, for long actions
  ActionNameId action = ActionNameId::kNone;    // interned action name
  ActionImplId impl = ActionImplId::kNone;      // resolved when it starts
  ActionListId source = ActionListId::kNone;    // the list `impl` was found in
  IntentionPhase phase = IntentionPhase::kPending;
  uint8_t flags = 0;
  uint8_t arg_count = 0;
  // The queue slot of the intention this one runs after, only if that one completes (seed
  // 004's decision tree: "B only if A succeeded"); kNoIntentionSlot: none. A slot, not an
  // id, to fit the padding: the queue settles every dependent the moment its prerequisite
  // leaves (IntentionQueue::erase), so a slot never outlives what it names.
  uint8_t depends_on_slot = kNoIntentionSlot;
  // Client-side: the longest silence allowed, in tenths of a second (fits the padding
  // before the arguments; capped at 6553.5 s). Each PROGRESS report moves the deadline to
  // report time + this, so long actions live while the game says they progress.
  uint16_t silence_ds = 0;
  std::array<ActionArg, kMaxActionArgs> arg_storage{};

  std::span<const ActionArg> args() const { return {arg_storage.data(), arg_count}; }
  bool started() const { return phase != IntentionPhase::kPending; }
  bool gameScheduled() const { return (flags & kIntentionGameScheduled) != 0; }
  bool coercive() const { return (flags & kIntentionCoercive) != 0; }
  bool waitsOnPrerequisite() const { return depends_on_slot != kNoIntentionSlot; }
};

}  // namespace npc
