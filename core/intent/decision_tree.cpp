#include "intent/decision_tree.h"

#include <cmath>
#include <limits>

#include "intent/action_registry.h"

namespace npc {

IntentionEvent makeEvent(EntityId agent, const Intention& in, IntentionEventKind kind,
                         IntentionReason reason, double time_s) {
  IntentionEvent e;
  e.agent = agent;
  e.intention = in.id;
  e.handle = in.handle;
  e.action = in.action;
  e.kind = kind;
  e.reason = reason;
  e.time_s = time_s;
  e.progress = kind == IntentionEventKind::kCompleted ? 1.f : in.progress;
  return e;
}

Programmed DecisionTree::add(double date_s, ActionNameId action, std::span<const ActionArg> args,
                             uint8_t flags, uint8_t capacity, IntentionId depends_on) {
  if (!ctx_.registry->known(action)) return {IntentStatus::kUnknownAction, IntentionId::kNone};
  if (args.size() > kMaxActionArgs) return {IntentStatus::kTooManyArgs, IntentionId::kNone};
  if (std::isnan(date_s) || date_s == std::numeric_limits<double>::infinity()) {
    return {IntentStatus::kBadDate, IntentionId::kNone};
  }
  uint8_t prerequisite = kNoIntentionSlot;
  if (depends_on != IntentionId::kNone) {
    prerequisite = queue_.slotOf(depends_on);
    if (prerequisite == kNoIntentionSlot) return {IntentStatus::kUnknownIntention, depends_on};
  }
  if (queue_.size() >= capacity) {
    ++queue_.overflow_;
    return {IntentStatus::kQueueFull, IntentionId::kNone};
  }
  const IntentionId id = ctx_.ids->next();
  Intention* in = queue_.insert(id, date_s, action, args, flags);
  in->depends_on_slot = prerequisite;
  in->handle = id;
  return {IntentStatus::kOk, id};
}

Programmed DecisionTree::program(double date_s, ActionNameId action,
                                 std::span<const ActionArg> args, IntentionId depends_on) {
  if (ctx_.registry->gameOnly(action)) return {IntentStatus::kGameOnly, IntentionId::kNone};
  return add(date_s, action, args, 0, IntentionQueue::kCapacity - kGameReservedIntentions,
             depends_on);
}

IntentStatus DecisionTree::deprogram(IntentionId ref) {
  const uint8_t slot = queue_.slotOf(ref);
  if (slot == IntentionQueue::kNoSlot) return IntentStatus::kUnknownIntention;
  const Intention& in = queue_.slots_[slot];
  if (in.gameScheduled()) return IntentStatus::kGameOwned;
  if (in.started()) return IntentStatus::kNotPending;
  remove(slot, false);
  return IntentStatus::kOk;
}

IntentStatus DecisionTree::cancel(IntentionId ref) {
  const uint8_t slot = queue_.slotOf(ref);
  if (slot == IntentionQueue::kNoSlot) return IntentStatus::kUnknownIntention;
  if (queue_.slots_[slot].gameScheduled()) return IntentStatus::kGameOwned;
  if (slot != queue_.current_) return IntentStatus::kNotCurrent;
  end(slot, IntentionEventKind::kInterrupted, IntentionReason::kCancelled);
  return IntentStatus::kOk;
}

IntentionId DecisionTree::getCurrentIntention() const {
  const Intention* in = queue_.current();
  return in ? in->id : IntentionId::kNone;
}

std::optional<float> DecisionTree::getProgress(IntentionId ref) const {
  const Intention* in = queue_.find(ref);
  if (!in) return std::nullopt;
  return in->progress;
}

void DecisionTree::end(uint8_t slot, IntentionEventKind kind, IntentionReason reason,
                       ActionNameId detail, EntityId subject) {
  IntentionEvent e = makeEvent(agent_, queue_.slots_[slot], kind, reason, ctx_.now_s);
  e.detail = detail;
  e.subject = subject;
  if (ctx_.events) ctx_.events->push(e);
  remove(slot, kind == IntentionEventKind::kCompleted);
}

void DecisionTree::remove(uint8_t slot, bool completed) {
  queue_.erase(slot, completed, [&](const Intention& dropped) {
    if (ctx_.events) {
      ctx_.events->push(makeEvent(agent_, dropped, IntentionEventKind::kFailed,
                                  IntentionReason::kPrerequisiteFailed, ctx_.now_s));
    }
  });
}

Status toStatus(IntentStatus status, EntityId agent, IntentionId intention) {
  if (status == IntentStatus::kOk) return {};
  const std::string where = "agent " + std::to_string(raw(agent)) + ": ";
  const std::string which = "intention " + std::to_string(raw(intention)) + ": ";
  switch (status) {
    case IntentStatus::kOk: return {};
    case IntentStatus::kQueueFull:
      return {StatusCode::kResourceExhausted,
              where + "intention queue full (" + std::to_string(kMaxIntentions) + ")"};
    case IntentStatus::kTooManyArgs:
      return {StatusCode::kInvalidArgument,
              where + "more than " + std::to_string(kMaxActionArgs) + " action arguments"};
    case IntentStatus::kBadDate:
      return {StatusCode::kInvalidArgument, where + "the date must be a number (not NaN or +inf)"};
    case IntentStatus::kUnknownAction:
      return {StatusCode::kInvalidArgument, where + "no such action is registered"};
    case IntentStatus::kGameOnly:
      return {StatusCode::kFailedPrecondition,
              where + "this action is scheduled by the game only"};
    case IntentStatus::kUnknownIntention:
      return {StatusCode::kNotFound, where + which + "not in the agent's queue"};
    case IntentStatus::kNotPending:
      return {StatusCode::kFailedPrecondition, where + which + "already started"};
    case IntentStatus::kNotCurrent:
      return {StatusCode::kFailedPrecondition,
              where + which + "not the running intention"};
    case IntentStatus::kGameOwned:
      return {StatusCode::kFailedPrecondition,
              where + which + "scheduled by the game; the controller cannot change it"};
    case IntentStatus::kBusy:
      return {StatusCode::kFailedPrecondition,
              where + which + "another intention is running"};
    case IntentStatus::kBadProgress:
      return {StatusCode::kInvalidArgument, where + which + "progress must be within 0..1"};
    case IntentStatus::kNotInfluence:
      return {StatusCode::kInvalidArgument, where + "the action list is not an influence"};
  }
  return {StatusCode::kInvalidArgument, where + "unknown status"};
}

}  // namespace npc
