#include "intent/action_tree.h"

#include <algorithm>

#include <cmath>

#include "intent/action_registry.h"

namespace npc {

Programmed ActionTree::programGame(double date_s, ActionNameId action,
                                   std::span<const ActionArg> args, bool coercive) {
  const uint8_t flags = kIntentionGameScheduled | (coercive ? kIntentionCoercive : 0);
  return add(date_s, action, args, flags, IntentionQueue::kCapacity);
}

IntentStatus ActionTree::setStarted(IntentionId ref) {
  const uint8_t slot = queue_.slotOf(ref);
  if (slot == IntentionQueue::kNoSlot) return IntentStatus::kUnknownIntention;
  Intention& in = queue_.slots_[slot];
  if (in.started()) return IntentStatus::kNotPending;
  if (queue_.current_ != IntentionQueue::kNoSlot) return IntentStatus::kBusy;
  in.phase = IntentionPhase::kGameDriven;
  in.started_s = ctx_.now_s;
  queue_.current_ = slot;
  queue_.touch();
  if (ctx_.events) {
    ctx_.events->push(makeEvent(agent_, in, IntentionEventKind::kStarted,
                                IntentionReason::kNone, ctx_.now_s));
  }
  return IntentStatus::kOk;
}

IntentStatus ActionTree::setCompleted(IntentionId ref) {
  const uint8_t slot = queue_.slotOf(ref);
  if (slot == IntentionQueue::kNoSlot) return IntentStatus::kUnknownIntention;
  end(slot, IntentionEventKind::kCompleted, IntentionReason::kNone);
  return IntentStatus::kOk;
}

IntentStatus ActionTree::setFailed(IntentionId ref, ActionNameId detail) {
  const uint8_t slot = queue_.slotOf(ref);
  if (slot == IntentionQueue::kNoSlot) return IntentStatus::kUnknownIntention;
  end(slot, IntentionEventKind::kFailed, IntentionReason::kGameFailed, detail);
  return IntentStatus::kOk;
}

IntentStatus ActionTree::setInterrupted(IntentionId ref, ActionNameId detail) {
  const uint8_t slot = queue_.slotOf(ref);
  if (slot == IntentionQueue::kNoSlot) return IntentStatus::kUnknownIntention;
  end(slot, IntentionEventKind::kInterrupted, IntentionReason::kGameInterrupted, detail);
  return IntentStatus::kOk;
}

IntentStatus ActionTree::setProgress(IntentionId ref, float progress) {
  const uint8_t slot = queue_.slotOf(ref);
  if (slot == IntentionQueue::kNoSlot) return IntentStatus::kUnknownIntention;
  if (slot != queue_.current_) return IntentStatus::kNotCurrent;
  if (!(std::isfinite(progress) && progress >= 0.f && progress <= 1.f)) {
    return IntentStatus::kBadProgress;
  }
  Intention& in = queue_.slots_[slot];
  in.progress = progress;
  if (in.phase == IntentionPhase::kAwaitingClient && in.silence_ds > 0) {
    in.deadline_s = std::max(in.deadline_s, ctx_.now_s + 0.1 * in.silence_ds);  // a heartbeat
  }
  return IntentStatus::kOk;
}

IntentStatus ActionTree::clientResult(IntentionId ref, ClientOutcome outcome, float progress) {
  const uint8_t slot = queue_.slotOf(ref);
  if (slot == IntentionQueue::kNoSlot) return IntentStatus::kUnknownIntention;
  if (slot != queue_.current_ ||
      queue_.slots_[slot].phase != IntentionPhase::kAwaitingClient) {
    return IntentStatus::kNotCurrent;
  }
  switch (outcome) {
    case ClientOutcome::kProgress: return setProgress(ref, progress);
    case ClientOutcome::kCompleted:
      end(slot, IntentionEventKind::kCompleted, IntentionReason::kNone);
      break;
    case ClientOutcome::kFailed:
      end(slot, IntentionEventKind::kFailed, IntentionReason::kClientFailed);
      break;
  }
  return IntentStatus::kOk;
}

bool ActionTree::receiveExternal(EntityId from, bool coercive) {
  if (!coercive || queue_.current_ == IntentionQueue::kNoSlot) return false;
  if (queue_.slots_[queue_.current_].gameScheduled()) return false;  // a fall goes on
  end(queue_.current_, IntentionEventKind::kInterrupted, IntentionReason::kCoerced,
      ActionNameId::kNone, from);
  return true;
}

bool ActionTree::receiveExternal(EntityId from, ActionNameId action) {
  return receiveExternal(from, ctx_.registry->coercive(action));
}

}  // namespace npc
