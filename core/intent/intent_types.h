// Ids, limits and small enums shared by the intention subsystem (seed 004). See README.md.
#pragma once

#include <cstdint>
#include <string_view>

namespace npc {

// One implementation of an action name, registered in the ActionRegistry.
enum class ActionImplId : uint16_t { kNone = 0xffff };
// A list of action implementations: an entity type's own actions or an influence's
// (a spell, a profession, a vehicle).
enum class ActionListId : uint16_t { kNone = 0xffff };

inline constexpr uint16_t raw(ActionImplId id) { return static_cast<uint16_t>(id); }
inline constexpr uint16_t raw(ActionListId id) { return static_cast<uint16_t>(id); }

// Limits. Every one is reported when reached, never silently exceeded.
inline constexpr uint8_t kMaxActionArgs = 6;        // arguments per intention (program refuses more)
inline constexpr uint8_t kMaxClientArgs = 4;        // arguments of a client-side action (= kMaxActionParams)
inline constexpr uint8_t kMaxIntentions = 8;        // intentions per agent (program counts overflow)
inline constexpr uint8_t kMaxInfluences = 6;        // influences on one agent at a time

// Which side performs an action.
enum class ActionSide : uint8_t {
  kDaemon,  // performed inside the daemon by ActionImpl::perform on its world model
  kClient,  // emitted to the game client, which reports completed / failed / progress
};

// What ActionImpl::perform returns (the seed's COMPLETED_ACTION / FAILED_ACTION /
// CONTINUING_ACTION).
enum class PerformStatus : uint8_t { kCompleted, kFailed, kContinuing };

// Where an intention is in its life. Ended intentions leave the queue at once.
enum class IntentionPhase : uint8_t {
  kPending,         // programmed, not started
  kRunning,         // current, daemon-side: performed every turn until it ends
  kAwaitingClient,  // current, client-side: emitted, waiting for the client's result
  kGameDriven,      // current, started by the game (ActionTree::setStarted); the game ends it
};

// Results of the DecisionTree / ActionTree calls: expected failures, never exceptions.
// Cheap to return every tick; toStatus() (decision_tree.h) makes a Status at the RPC edge.
enum class IntentStatus : uint8_t {
  kOk,
  kQueueFull,         // kMaxIntentions already programmed (counted in overflow())
  kTooManyArgs,       // more than kMaxActionArgs arguments
  kBadDate,           // a date that is NaN or +infinity (never due)
  kUnknownAction,     // no implementation of this name is registered anywhere
  kGameOnly,          // the controller may not program this action (Die, Land...)
  kUnknownIntention,  // no intention with this id in this queue (ended, or never here)
  kNotPending,        // deprogram / setStarted on an intention that already started
  kNotCurrent,        // cancel / setProgress / client result on one that is not current
  kGameOwned,         // the controller may not deprogram or cancel a game-scheduled action
  kBusy,              // setStarted while another intention is current
  kBadProgress,       // progress outside 0..1 or not finite
  kNotInfluence,      // ActionRegistry::addInfluence with a list that is not an influence
};

std::string_view toString(IntentionPhase phase);
std::string_view toString(PerformStatus status);
std::string_view toString(IntentStatus status);
std::string_view toString(ActionSide side);

}  // namespace npc
