// ActionTree: the simulation's and the game's interface to one agent's intentions (seed
// 004, "Interface exposed to the game scheduler"). Extends DecisionTree with:
//   iterateOnActions(fn)       every intention, including game-scheduled actions
//   programGame(...)           actions controllers cannot program (Die next turn, Land at
//                              the end of a fall); coercive ones interrupt the current
//                              action as soon as they are due
//   setStarted / setCompleted / setProgress / setFailed / setInterrupted
//   clientResult(...)          a client's report on a client-side action it was sent
//   receiveExternal(...)       another entity acted on this one (coercive or not)
// Same conventions as DecisionTree: IntentStatus results, events into ctx.events, no
// allocation. Typical callers: ingest (client results, external actions, admin programs)
// and game rules (combat schedules Die).
#pragma once

#include "intent/decision_tree.h"

namespace npc {

// What a client reports about an action it was sent (mirrors sim's ActionOutcome).
enum class ClientOutcome : uint8_t { kCompleted, kFailed, kProgress };

class ActionTree : public DecisionTree {
 public:
  using DecisionTree::DecisionTree;

  // Calls fn(const Intention&) for every intention, chronological.
  template <class Fn>
  void iterateOnActions(Fn&& fn) const {
    for (uint8_t i = 0; i < queue_.size(); ++i) fn(queue_.at(i));
  }

  // Schedules a game action (game-only ones allowed). `coercive`: when due it interrupts
  // the current intention (Interrupted, kPreempted) and starts first. May use the slot
  // reserved for the game. kUnknownAction, kTooManyArgs, kQueueFull.
  Programmed programGame(double date_s, ActionNameId action,
                         std::span<const ActionArg> args = {}, bool coercive = false);

  // Makes a pending intention current, driven by the game: the scheduler neither performs
  // it nor times it out; the game ends it with setCompleted / setFailed / setInterrupted.
  // Started event. kUnknownIntention, kNotPending, kBusy.
  IntentStatus setStarted(IntentionId ref);
  // Ends a current or pending intention: Completed (progress 1) / Failed (kGameFailed) /
  // Interrupted (kGameInterrupted) event, and removes it. `detail`: interned reason.
  IntentStatus setCompleted(IntentionId ref);
  IntentStatus setFailed(IntentionId ref, ActionNameId detail = ActionNameId::kNone);
  IntentStatus setInterrupted(IntentionId ref, ActionNameId detail = ActionNameId::kNone);
  // Progress of the current intention, 0..1. kNotCurrent, kBadProgress. No event.
  IntentStatus setProgress(IntentionId ref, float progress);

  // A client's result for the client-side action `ref` it was sent: kCompleted →
  // Completed; kFailed → Failed (kClientFailed); kProgress → progress. kUnknownIntention
  // (ended already, e.g. timed out), kNotCurrent (not an emitted client-side action),
  // kBadProgress.
  IntentStatus clientResult(IntentionId ref, ClientOutcome outcome, float progress = 0.f);

  // Entity `from` performed an external action on this agent. Coercive (an attack): the
  // current intention is interrupted now (Interrupted, kCoerced, subject = from) and true
  // is returned. Not coercive: the current intention continues at least this turn; false.
  // A current game-scheduled action (a fall, dying) is never interrupted this way.
  // Either way the controller learns of the action through perception and decides.
  bool receiveExternal(EntityId from, bool coercive);
  // Same, coercive when any registered implementation of `action` is coercive.
  bool receiveExternal(EntityId from, ActionNameId action);
};

}  // namespace npc
