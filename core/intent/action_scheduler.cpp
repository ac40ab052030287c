#include "intent/action_scheduler.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "intent/decision_tree.h"

namespace npc {

namespace {

constexpr uint8_t kNoSlot = 0xff;
constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

struct ActionScheduler::Turn {
  IntentAgentState& state;
  IntentionQueue& q;
  const AgentTurn& turn;
  BoundedBuffer<ClientActionStart>& starts;
  BoundedBuffer<IntentionEvent>& events;
  double end_s;    // end of the quantum
  double clock_s;  // the agent's clock: how far into the quantum it has got
};

ActionContext ActionScheduler::context(const Turn& t) const {
  ActionContext ctx;
  ctx.agent = t.turn.agent;
  ctx.entity = t.turn.entity;
  ctx.world = env_.world;
  ctx.user = env_.user;
  ctx.inventories = env_.inventories;
  ctx.now_s = t.clock_s;
  ctx.time_left_s = static_cast<float>(std::max(0.0, t.end_s - t.clock_s));
  return ctx;
}

uint8_t ActionScheduler::nextDue(const IntentionQueue& q, double clock_s, bool& coercive) {
  // Intentions are chronological, so the due ones form a prefix of the order.
  uint8_t first = kNoSlot;
  coercive = false;
  for (uint8_t i = 0; i < q.count_; ++i) {
    const Intention& in = q.slots_[q.order_[i]];
    if (in.date_s > clock_s) break;
    if (in.started() || in.waitsOnPrerequisite()) continue;
    if (in.coercive()) {
      coercive = true;
      return q.order_[i];
    }
    if (first == kNoSlot) first = q.order_[i];
  }
  return first;
}

void ActionScheduler::finish(Turn& t, uint8_t slot, IntentionEventKind kind,
                             IntentionReason reason, ActionNameId detail, EntityId subject) {
  IntentionEvent e = makeEvent(t.turn.agent, t.q.slots_[slot], kind, reason, t.clock_s);
  e.detail = detail;
  if (subject != EntityId::kNone) e.subject = subject;
  t.events.push(e);  // room was checked for the whole turn: each intention ends once
  switch (kind) {
    case IntentionEventKind::kCompleted: ++stats_.completed; break;
    case IntentionEventKind::kFailed: ++stats_.failed; break;
    case IntentionEventKind::kInterrupted: ++stats_.interrupted; break;
    case IntentionEventKind::kStarted: break;
  }
  t.q.erase(slot, kind == IntentionEventKind::kCompleted, [&](const Intention& dropped) {
    t.events.push(makeEvent(t.turn.agent, dropped, IntentionEventKind::kFailed,
                            IntentionReason::kPrerequisiteFailed, t.clock_s));
    ++stats_.failed;
  });
}

void ActionScheduler::perform(Turn& t, uint8_t slot) {
  Intention& in = t.q.slots_[slot];
  ActionContext ctx = context(t);
  const PerformResult r = registry_.impl(in.impl).perform(ctx, in);
  ++stats_.performs;
  const double used = std::isfinite(r.time_used_s) && r.time_used_s > 0.f ? r.time_used_s : 0.0;
  switch (r.status) {
    case PerformStatus::kCompleted:
      t.clock_s += used;
      in.progress = 1.f;
      finish(t, slot, IntentionEventKind::kCompleted, IntentionReason::kNone, ActionNameId::kNone,
             r.subject);
      break;
    case PerformStatus::kFailed:
      t.clock_s += used;
      finish(t, slot, IntentionEventKind::kFailed, IntentionReason::kPerformFailed, r.detail,
             r.subject);
      break;
    case PerformStatus::kContinuing:
      in.progress = std::isfinite(r.progress) ? std::clamp(r.progress, 0.f, 1.f) : in.progress;
      t.clock_s = std::max(t.clock_s, t.end_s);
      break;
  }
}

void ActionScheduler::start(Turn& t, uint8_t slot) {
  Intention& in = t.q.slots_[slot];
  const ActionResolution found = registry_.resolve(t.state.access, in.action);
  if (!found.found()) {
    finish(t, slot, IntentionEventKind::kFailed, IntentionReason::kNotAvailable);
    return;
  }
  in.impl = found.impl;
  in.source = found.source;
  const ActionImpl& impl = registry_.impl(found.impl);
  ActionContext ctx = context(t);
  if (!impl.mayStart(ctx, in)) {
    finish(t, slot, IntentionEventKind::kFailed, IntentionReason::kMayStartRefused);
    return;
  }
  if (impl.clientSide()) {
    if (in.arg_count > kMaxClientArgs) {
      finish(t, slot, IntentionEventKind::kFailed, IntentionReason::kTooManyClientArgs);
      return;
    }
    const float timeout = impl.traits().timeout_s > 0.f ? impl.traits().timeout_s
                                                         : t.turn.client_timeout_s;
    in.phase = IntentionPhase::kAwaitingClient;
    in.started_s = t.clock_s;
    in.deadline_s = t.turn.now_s + timeout;
    in.silence_ds = static_cast<uint16_t>(std::min(timeout * 10.f, 65535.f));
    t.q.current_ = slot;
    ClientActionStart s;
    s.agent = t.turn.agent;
    s.intention = in.id;
    s.owner = t.turn.owner;
    s.place = t.turn.place;
    s.action = in.action;
    s.arg_count = in.arg_count;
    std::copy_n(in.arg_storage.begin(), in.arg_count, s.args.begin());
    t.starts.push(s);
    t.events.push(makeEvent(t.turn.agent, in, IntentionEventKind::kStarted,
                            IntentionReason::kNone, t.clock_s));
    ++stats_.started;
    ++stats_.client_starts;
    return;
  }
  in.state.clear();
  if (!impl.initialize(ctx, in)) {
    finish(t, slot, IntentionEventKind::kFailed, IntentionReason::kInitFailed);
    return;
  }
  in.phase = IntentionPhase::kRunning;
  in.started_s = t.clock_s;
  t.q.current_ = slot;
  t.events.push(makeEvent(t.turn.agent, in, IntentionEventKind::kStarted,
                          IntentionReason::kNone, t.clock_s));
  ++stats_.started;
  perform(t, slot);
}

bool ActionScheduler::due(const IntentAgentState& state, double now_s) const {
  const IntentionQueue& q = state.queue;
  return now_s >= q.wake_s_ || state.access.version() != q.access_version_;
}

bool ActionScheduler::skipsTurn(const IntentAgentState& state, double now_s) {
  if (due(state, now_s)) return false;
  countSkipped(1);
  return true;
}

TurnStatus ActionScheduler::update(IntentAgentState& state, const AgentTurn& turn,
                                   BoundedBuffer<ClientActionStart>& starts,
                                   BoundedBuffer<IntentionEvent>& events) {
  if (skipsTurn(state, turn.now_s)) return TurnStatus::kSkipped;
  IntentionQueue& q = state.queue;
  ++stats_.turns;
  if (events.room() < kMaxEventsPerTurn || starts.room() < kMaxStartsPerTurn) {
    ++stats_.no_room;
    return TurnStatus::kNoRoom;
  }
  Turn t{state, q, turn, starts, events, turn.now_s + turn.quantum_s,
         std::max(turn.now_s, q.busy_until_s_)};

  // 1. The influence that provided the current action is gone.
  if (state.access.version() != q.access_version_) {
    q.access_version_ = state.access.version();
    if (const Intention* cur = q.current();
        cur && cur->source != ActionListId::kNone && !state.access.has(cur->source)) {
      finish(t, q.current_, IntentionEventKind::kInterrupted,
             IntentionReason::kActionUnavailable);
    }
  }

  // 2. A due coercive game action preempts the current one.
  bool coercive = false;
  nextDue(q, t.clock_s, coercive);
  if (coercive && q.current_ != kNoSlot) {
    finish(t, q.current_, IntentionEventKind::kInterrupted, IntentionReason::kPreempted);
  }

  // 3. Long action case.
  if (q.current_ != kNoSlot) {
    Intention& cur = q.slots_[q.current_];
    switch (cur.phase) {
      case IntentionPhase::kAwaitingClient:
        if (turn.now_s >= cur.deadline_s) {
          finish(t, q.current_, IntentionEventKind::kFailed, IntentionReason::kTimeout);
        }
        break;
      case IntentionPhase::kRunning:
        if (t.clock_s >= t.end_s) break;  // still paying for an overrun
        if (!registry_.impl(cur.impl).mayContinue(context(t), cur)) {
          finish(t, q.current_, IntentionEventKind::kInterrupted,
                 IntentionReason::kMayContinueRefused);
        } else {
          perform(t, q.current_);
        }
        break;
      case IntentionPhase::kGameDriven:
      case IntentionPhase::kPending:
        break;
    }
  }

  // 4. Simplest and consecutive actions: start due intentions while time is left. Each
  // start either makes the intention current or removes it, so this ends.
  while (q.current_ == kNoSlot && t.clock_s < t.end_s) {
    const uint8_t next = nextDue(q, t.clock_s, coercive);
    if (next == kNoSlot) break;
    start(t, next);
  }

  // 5. When to look at this agent again.
  q.busy_until_s_ = t.clock_s;
  double wake = kInf;
  if (const Intention* cur = q.current()) {
    if (cur->phase == IntentionPhase::kRunning) {
      wake = -kInf;
    } else {
      if (cur->phase == IntentionPhase::kAwaitingClient) wake = cur->deadline_s;
      for (uint8_t i = 0; i < q.count_; ++i) {
        const Intention& in = q.slots_[q.order_[i]];
        if (!in.started() && in.coercive()) {
          wake = std::min(wake, in.date_s);
          break;
        }
      }
    }
  } else {
    for (uint8_t i = 0; i < q.count_; ++i) {
      const Intention& in = q.slots_[q.order_[i]];
      if (!in.started() && !in.waitsOnPrerequisite()) {  // its prerequisite's end touches
        wake = in.date_s;
        break;
      }
    }
  }
  q.wake_s_ = wake;
  return TurnStatus::kRan;
}

}  // namespace npc
