// Intention events (seed 004, "Event message"): what the controller learns about its
// decision tree — Intention_Started / _Completed / _Failed / _Interrupted — and why.
// Records are 56 bytes, carry no strings, and are written into a caller-provided
// BoundedBuffer; describeEvent() makes the text for logs and clients, off the hot path.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "world/ids.h"
#include "world/name_table.h"

namespace npc {

enum class IntentionEventKind : uint8_t { kStarted, kCompleted, kFailed, kInterrupted };

// Why an intention ended (kNone for Started and for plain completions).
enum class IntentionReason : uint8_t {
  kNone,
  kNotAvailable,        // Failed: the name is among neither the agent's own actions nor its
                        // influences' ("cannot perform"): a broken controller or a changed
                        // context ("you can't fly anymore because the spell ended")
  kMayStartRefused,     // Failed: the MayStart predicate said no
  kInitFailed,          // Failed: the action's initialisation failed (target unknown...)
  kPerformFailed,       // Failed: perform returned FAILED (detail: the action's reason)
  kTooManyClientArgs,   // Failed: a client-side action carries at most kMaxClientArgs
  kClientFailed,        // Failed: the client reported failure
  kTimeout,             // Failed: no client result before the deadline
  kGameFailed,          // Failed: ActionTree::setFailed
  kMayContinueRefused,  // Interrupted: the MayContinue predicate said no
  kCancelled,           // Interrupted: the controller cancelled it (DecisionTree::cancel)
  kCoerced,             // Interrupted: a coercive external action hit the agent (subject)
  kPreempted,           // Interrupted: a coercive game-scheduled action became due
  kActionUnavailable,   // Interrupted: the influence providing it was removed
  kGameInterrupted,     // Interrupted: ActionTree::setInterrupted
  kRestored,            // Interrupted: it was running when the snapshot restored was taken
  kPrerequisiteFailed,  // Failed: it was to run only if another intention completed, and
                        // that one failed, was interrupted or deprogrammed (never started)
};

std::string_view toString(IntentionEventKind kind);
std::string_view toString(IntentionReason reason);

struct IntentionEvent {
  EntityId agent = EntityId::kNone;
  IntentionId intention = IntentionId::kNone;
  IntentionId handle = IntentionId::kNone;  // Intention::handle: what its controller calls it
  EntityId subject = EntityId::kNone;     // kCoerced: who performed the external action;
                                          // a daemon-side action's outcome: what it
                                          // concerns (PerformResult::subject)
  double time_s = 0.0;                    // when it happened (the agent's clock)
  float progress = 0.f;                   // progress reached (1 when completed)
  ActionNameId action = ActionNameId::kNone;  // interned action name
  ActionNameId detail = ActionNameId::kNone;  // interned reason given by the action or game
  IntentionEventKind kind = IntentionEventKind::kStarted;
  IntentionReason reason = IntentionReason::kNone;
};

// One line for logs and EventOut text, e.g.
//   agent 7: intention 12 "Fly" failed: cannot perform "Fly": not among the agent's own
//   actions nor its influences'
// Allocates: call it when emitting, never per agent per tick.
std::string describeEvent(const IntentionEvent& event, const NameTable<ActionNameId>& names);
// The same text appended to `out`, which keeps its capacity from one event to the next.
void appendEventText(const IntentionEvent& event, const NameTable<ActionNameId>& names,
                     std::string& out);

}  // namespace npc
