#include "session.h"

#include <algorithm>

#include <utility>

#include "client_hub.h"

namespace npc {

// ------------------------------------------------------------------------------------------
// Session

Session::Session(ClientId id, size_t outbox_max_messages, uint64_t tick, double sim_time_s,
                 bool named, bool read_only)
    : id_(id),
      outbox_max_(outbox_max_messages),
      named_(named),
      read_only_(read_only),
      tick_(tick),
      sim_time_s_(sim_time_s),
      subscription_(std::make_shared<const Subscription>()) {}

std::shared_ptr<const Subscription> Session::subscription() const {
  std::lock_guard lock(mutex_);
  return subscription_;
}

void Session::setSubscription(Subscription subscription) {
  auto next = std::make_shared<const Subscription>(std::move(subscription));
  std::lock_guard lock(mutex_);
  subscription_ = std::move(next);
}

Session::PushResult Session::push(v1::ServerMessage&& message) {
  std::lock_guard lock(mutex_);
  if (finished_) return PushResult::kClosed;
  if (outbox_.size() >= outbox_max_) return PushResult::kFull;
  outbox_.push_back(std::move(message));
  if (!writing_) startWriteLocked();
  return PushResult::kQueued;
}

Session::PushResult Session::pushErrors(uint64_t seq, const std::vector<std::string>& errors) {
  v1::ServerMessage message;
  for (const std::string& text : errors) *message.add_events() = errorEvent(seq, text);
  {
    std::lock_guard lock(mutex_);
    message.set_tick(tick_);
    message.set_sim_time(sim_time_s_);
  }
  return push(std::move(message));
}

Session::SubmitResult Session::submit(Simulation& sim, std::vector<Command>& commands,
                                      std::vector<CommandDigest>& digests) {
  // Held across submit() so finish() + ClientGone cannot slip in between the check and the
  // queueing (ClientHub submits ClientGone only after finish() returned).
  std::lock_guard lock(mutex_);
  if (finished_) return SubmitResult::kClosed;
  return sim.submitExchanging(commands, digests) ? SubmitResult::kSubmitted
                                                 : SubmitResult::kQueueFull;
}

bool Session::finish(const grpc::Status& status) {
  std::lock_guard lock(mutex_);
  if (finished_) return false;
  finishLocked(status);
  return true;
}

bool Session::finished() const {
  std::lock_guard lock(mutex_);
  return finished_;
}

size_t Session::outboxSize() const {
  std::lock_guard lock(mutex_);
  return outbox_.size();
}

void Session::afterPublish(uint64_t tick, double sim_time_s, bool inbox_has_room) {
  std::lock_guard lock(mutex_);
  tick_ = tick;
  sim_time_s_ = sim_time_s;
  if (finished_) return;
  if (read_paused_ && inbox_has_room && reactor_ != nullptr) {
    read_paused_ = false;
    startReadLocked();
  }
  // The first publish after the half-close may belong to a tick that began before the
  // client's last update was queued; the second one certainly ingested it.
  if (publishes_since_half_close_ >= 0 && ++publishes_since_half_close_ >= 2) {
    finish_when_flushed_ = true;
    finishIfFlushedLocked();
  }
}

void Session::attach(ConnectReactor* reactor) {
  std::lock_guard lock(mutex_);
  reactor_ = reactor;
  if (finished_) {
    // drain() or a drop happened between ClientHub::open() and here.
    reactor_->Finish(final_status_);
    return;
  }
  if (!outbox_.empty()) startWriteLocked();  // the Welcome, and whatever queued behind it
  startReadLocked();
}

void Session::detach() {
  std::lock_guard lock(mutex_);
  reactor_ = nullptr;
  outbox_.clear();
  writing_ = false;
}

void Session::onWriteDone(bool ok) {
  std::lock_guard lock(mutex_);
  writing_ = false;
  if (!outbox_.empty()) outbox_.pop_front();
  if (!ok) {
    // The stream is broken (client gone or cancelled); nothing more can be written.
    if (!finished_) finishLocked(grpc::Status(grpc::StatusCode::UNAVAILABLE, "write failed"));
    return;
  }
  if (finished_) return;
  if (!outbox_.empty()) {
    startWriteLocked();
  } else {
    finishIfFlushedLocked();
  }
}

void Session::onHalfClose() {
  std::lock_guard lock(mutex_);
  if (!finished_ && publishes_since_half_close_ < 0) publishes_since_half_close_ = 0;
}

void Session::readNext(bool inbox_has_room) {
  std::lock_guard lock(mutex_);
  if (finished_ || reactor_ == nullptr) return;
  if (!inbox_has_room) {
    read_paused_ = true;  // HTTP/2 flow control now holds the client back
    return;
  }
  startReadLocked();
}

void Session::startWriteLocked() {
  if (reactor_ == nullptr || writing_ || finished_ || outbox_.empty()) return;
  writing_ = true;
  reactor_->StartWrite(&outbox_.front());
}

void Session::startReadLocked() { reactor_->StartRead(&reactor_->update_); }

void Session::finishLocked(const grpc::Status& status) {
  finished_ = true;
  final_status_ = status;
  // Keep only the message gRPC may still be reading from.
  if (writing_) {
    outbox_.erase(outbox_.begin() + 1, outbox_.end());
  } else {
    outbox_.clear();
  }
  if (reactor_ != nullptr) reactor_->Finish(status);
}

void Session::finishIfFlushedLocked() {
  if (finish_when_flushed_ && !writing_ && outbox_.empty() && !finished_) {
    finishLocked(grpc::Status::OK);
  }
}

// ------------------------------------------------------------------------------------------
// ConnectReactor

ConnectReactor::ConnectReactor(ClientHub& hub, std::shared_ptr<Session> session,
                               grpc::CallbackServerContext* context)
    : hub_(hub), session_(std::move(session)), context_(context) {
  session_->attach(this);
}

void ConnectReactor::OnReadDone(bool ok) {
  if (!ok) {
    // Either the client half-closed or the call died; a dead call also gets OnCancel.
    if (context_->IsCancelled()) {
      session_->finish(grpc::Status::CANCELLED);
    } else {
      session_->onHalfClose();
    }
    return;
  }
  handleUpdate();
  const Simulation& sim = hub_.sim();
  session_->readNext(sim.queuedCommands() <= hub_.limits().max_inbox_commands);
}

bool ConnectReactor::withinRateLimit() {
  const double rate = hub_.limits().max_updates_per_s;
  if (rate <= 0.0) return true;
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - refilled_).count();
  refilled_ = now;
  tokens_ = std::min(std::max(rate, 1.0), tokens_ + elapsed * rate);
  if (tokens_ < 1.0) return false;
  tokens_ -= 1.0;
  return true;
}

void ConnectReactor::reportErrors(uint64_t seq, const std::vector<std::string>& errors) {
  const Session::PushResult pushed = session_->pushErrors(seq, errors);
  if (pushed == Session::PushResult::kQueued) {
    hub_.countErrors(session_->id(), ClientHub::ErrorKind::kInput, seq, errors);
  } else if (pushed == Session::PushResult::kFull) {
    hub_.dropSlowClient(session_);
  }
}

void ConnectReactor::handleUpdate() {
  const uint64_t seq = update_.seq();
  if (!withinRateLimit()) {
    reportErrors(seq, {"update " + std::to_string(seq) + " refused: more than " +
                       std::to_string(static_cast<int>(hub_.limits().max_updates_per_s)) +
                       " updates/s on this stream"});
    return;
  }
  ConvertedUpdate& converted = converted_;
  convertUpdate(update_, session_->id(), hub_.limits().max_items_per_update,
                hub_.sim().config().world.bounds, converted);
  if (session_->readOnly() && !converted.commands.empty()) {
    // An observer watches: whatever else the update carried is refused as a whole.
    converted.commands.clear();
    converted.digests.clear();
    converted.errors.push_back("update " + std::to_string(seq) +
                               " refused: an observer's stream may only subscribe");
  }
  bool accepted = true;
  if (!converted.commands.empty()) {
    const Session::SubmitResult r =
        session_->submit(hub_.sim(), converted.commands, converted.digests);
    if (r == Session::SubmitResult::kClosed) return;
    if (r == Session::SubmitResult::kQueueFull) {
      accepted = false;
      converted.errors.push_back("update " + std::to_string(seq) +
                                 " dropped: the simulation's command queue is full; send it again"
                                 " later");
    }
  }
  if (accepted && converted.subscription) {
    session_->setSubscription(std::move(*converted.subscription));
  }
  if (!converted.errors.empty()) reportErrors(seq, converted.errors);
}

void ConnectReactor::OnWriteDone(bool ok) {
  if (session_) session_->onWriteDone(ok);
}

void ConnectReactor::OnCancel() {
  if (session_) session_->finish(grpc::Status::CANCELLED);
}

void ConnectReactor::OnDone() {
  if (session_) {
    session_->detach();
    hub_.close(session_);
  }
  delete this;
}

}  // namespace npc
