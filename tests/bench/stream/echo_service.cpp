#include "echo_service.h"

#include <mutex>

namespace npc::bench {

namespace {

// One Connect stream of the echo: counts the replies it owes and writes the same reply
// that many times. Deletes itself in OnDone.
class EchoReactor final : public grpc::ServerBidiReactor<v1::WorldUpdate, v1::ServerMessage> {
 public:
  EchoReactor(const v1::ServerMessage& reply, size_t max_owed)
      : reply_(reply), max_owed_(max_owed) {
    StartRead(&update_);
  }

  void OnReadDone(bool ok) override {
    std::lock_guard lock(mutex_);
    if (!ok) {
      reads_done_ = true;  // half-close or a dead call; either way, finish once flushed
      finishIfFlushedLocked();
      return;
    }
    ++owed_;
    if (!writing_) startWriteLocked();
    if (owed_ < max_owed_) {
      StartRead(&update_);
    } else {
      read_paused_ = true;
    }
  }

  void OnWriteDone(bool ok) override {
    std::lock_guard lock(mutex_);
    writing_ = false;
    if (!ok) {
      owed_ = 0;  // the client is gone: nothing more can be written
      finishLocked(grpc::Status(grpc::StatusCode::UNAVAILABLE, "write failed"));
      return;
    }
    --owed_;
    if (owed_ > 0) startWriteLocked();
    if (read_paused_ && owed_ < max_owed_ && !reads_done_) {
      read_paused_ = false;
      StartRead(&update_);
    }
    finishIfFlushedLocked();
  }

  void OnDone() override { delete this; }

 private:
  void startWriteLocked() {
    writing_ = true;
    StartWrite(&reply_);
  }
  void finishIfFlushedLocked() {
    if (reads_done_ && owed_ == 0 && !writing_) finishLocked(grpc::Status::OK);
  }
  void finishLocked(const grpc::Status& status) {
    if (finished_) return;
    finished_ = true;
    Finish(status);
  }

  const v1::ServerMessage& reply_;
  const size_t max_owed_;
  std::mutex mutex_;
  v1::WorldUpdate update_;  // the one outstanding read's buffer
  size_t owed_ = 0;         // guarded by mutex_: updates read, replies not yet written
  bool writing_ = false;    // guarded by mutex_
  bool read_paused_ = false;
  bool reads_done_ = false;
  bool finished_ = false;
};

}  // namespace

EchoService::EchoService(const v1::ServerMessage& reply, size_t max_owed)
    : reply_(reply), max_owed_(max_owed) {}

grpc::ServerBidiReactor<v1::WorldUpdate, v1::ServerMessage>* EchoService::Connect(
    grpc::CallbackServerContext*) {
  return new EchoReactor(reply_, max_owed_);
}

}  // namespace npc::bench
