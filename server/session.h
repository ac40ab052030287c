// Session: one game client's Connect stream — its ClientId, what it subscribed to, and its
// bounded outbox — plus the ConnectReactor that moves messages between the stream and the
// simulation.
//
// Lifetime (SERVER-REFERENCE.md §1): the reactor owns a shared_ptr<Session>; the hub and
// the tick thread hold shared_ptrs to the Session only, never a reactor pointer. Session
// keeps a raw pointer to its reactor, guarded by mutex_, and every call into the reactor
// (StartRead, StartWrite, Finish) happens with mutex_ held. OnDone clears that pointer
// under the lock before the reactor deletes itself, so a late publish() finds no reactor
// instead of a freed one. gRPC never runs our reactions inline from those calls (user
// reactions are not inlineable in 1.51), so holding the lock cannot deadlock.
//
// Invariants, all under mutex_:
//   - at most one StartWrite outstanding; outbox_.front() is the message in flight while
//     writing_, and nothing pops or modifies it before OnWriteDone;
//   - at most one StartRead outstanding; reads pause while the simulation's command queue
//     is over HubLimits::max_inbox_commands and resume from the next publish();
//   - exactly one Finish per stream (finished_), even after cancellation;
//   - the outbox never holds more than outbox_max_ messages: a push beyond that fails and
//     the caller drops the client (ClientHub::dropSlowClient).
//
// Half-close: when the client stops sending, the stream stays open for two more publish()
// calls, so the tick that ingests the client's last update has run and its replies (errors,
// actions) are queued; then the outbox is flushed and the stream finishes OK.
#pragma once

#include <chrono>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <grpcpp/server_context.h>
#include <grpcpp/support/server_callback.h>

#include "npc/v1/npc.grpc.pb.h"
#include "proto_convert.h"
#include "sim/simulation.h"

namespace npc {

class ClientHub;
class ConnectReactor;

class Session {
 public:
  enum class PushResult { kQueued, kFull, kClosed };
  enum class SubmitResult { kSubmitted, kQueueFull, kClosed };

  // `tick` and `sim_time_s` stamp messages raised outside publish() (input errors) until
  // the first publish() brings newer values.
  // `named`: the stream belongs to a configured client identity (see ClientHub::open);
  // `read_only`: an observer's stream, whose updates may only subscribe.
  Session(ClientId id, size_t outbox_max_messages, uint64_t tick, double sim_time_s,
          bool named = false, bool read_only = false);
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  ClientId id() const { return id_; }
  bool named() const { return named_; }
  bool readOnly() const { return read_only_; }

  // Any thread. The current filter, never null; replaced whole by setSubscription().
  std::shared_ptr<const Subscription> subscription() const;
  void setSubscription(Subscription subscription);

  // Any thread. Queues `message` and starts writing if the stream is idle. kFull: the
  // outbox already holds outbox_max_messages (nothing queued); kClosed: the stream is
  // finishing or gone (nothing queued, nothing to do).
  PushResult push(v1::ServerMessage&& message);
  // Any thread. One EVENT_KIND_ERROR per line, for the client's update `seq`.
  PushResult pushErrors(uint64_t seq, const std::vector<std::string>& errors);

  // Any thread. Submits a client's commands unless the stream is finishing: a command that
  // arrives after the stream was dropped must not reach the simulation after ClientGone.
  // Once submitted, `commands` holds an earlier, applied batch, its commands left for the
  // stream's next convertUpdate() to overwrite (Simulation::submitExchanging), and
  // `digests` (one per command) an earlier batch's digest buffer.
  SubmitResult submit(Simulation& sim, std::vector<Command>& commands,
                      std::vector<CommandDigest>& digests);

  // Any thread. Ends the stream with `status` (queued messages not yet in flight are
  // discarded). Returns false if the stream was already finishing: the first status wins.
  bool finish(const grpc::Status& status);
  bool finished() const;

  // Tick thread, once per publish(): remembers the tick for later stamps, counts ticks
  // since a half-close and resumes a paused read when the command queue has room again.
  void afterPublish(uint64_t tick, double sim_time_s, bool inbox_has_room);

  // For tests and stats.
  size_t outboxSize() const;

 private:
  friend class ConnectReactor;

  // Reactor side, gRPC threads.
  void attach(ConnectReactor* reactor);
  void detach();
  void onWriteDone(bool ok);
  void onHalfClose();
  void readNext(bool inbox_has_room);

  void startWriteLocked();
  void startReadLocked();
  void finishLocked(const grpc::Status& status);
  void finishIfFlushedLocked();

  const ClientId id_;
  const size_t outbox_max_;
  const bool named_;
  const bool read_only_;

  mutable std::mutex mutex_;
  ConnectReactor* reactor_ = nullptr;     // null before attach() and after OnDone
  std::deque<v1::ServerMessage> outbox_;  // front is in flight while writing_
  bool writing_ = false;
  bool read_paused_ = false;              // back-pressure: no StartRead outstanding
  bool finished_ = false;                 // Finish called, or decided before attach()
  grpc::Status final_status_;             // what attach() finishes with if decided early
  int publishes_since_half_close_ = -1;   // -1: the client is still sending
  bool finish_when_flushed_ = false;
  uint64_t tick_ = 0;
  double sim_time_s_ = 0.0;
  std::shared_ptr<const Subscription> subscription_;
};

// The Connect RPC. Thin: converts what it reads, submits it, and leaves every decision
// about writing to Session. Deletes itself in OnDone.
class ConnectReactor final
    : public grpc::ServerBidiReactor<v1::WorldUpdate, v1::ServerMessage> {
 public:
  // `session` is an open one (ClientHub::open succeeded).
  ConnectReactor(ClientHub& hub, std::shared_ptr<Session> session,
                 grpc::CallbackServerContext* context);

  void OnReadDone(bool ok) override;
  void OnWriteDone(bool ok) override;
  void OnCancel() override;
  void OnDone() override;

 private:
  friend class Session;

  void handleUpdate();
  // Sends one update's errors to this client, counted as input errors.
  void reportErrors(uint64_t seq, const std::vector<std::string>& errors);
  // Token bucket of HubLimits::max_updates_per_s; reads are serial, so no lock is needed.
  bool withinRateLimit();

  ClientHub& hub_;
  std::shared_ptr<Session> session_;
  grpc::CallbackServerContext* context_;
  v1::WorldUpdate update_;  // the one outstanding read's buffer
  // What update_ converted to; kept across reads so that its buffers are reused (the
  // simulation hands back an applied batch's buffer for each batch it takes).
  ConvertedUpdate converted_;
  double tokens_ = 1.0;
  std::chrono::steady_clock::time_point refilled_ = std::chrono::steady_clock::now();
};

}  // namespace npc
