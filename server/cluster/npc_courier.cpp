#include "cluster/npc_courier.h"

#include <algorithm>
#include <cmath>

#include <spdlog/spdlog.h>

#include "base/thread_name.h"
#include "cluster/place_lease_store.h"
#include "cluster/redis_connection.h"
#include "logging.h"

namespace npc {

namespace {

constexpr size_t kReadBatch = 64;  // entries per read of one stream

// How long a place's inputs stay in its stream: the ones after the place's last snapshot
// are what a next holder needs, and snapshots come every snapshot_interval_s (a place npcs
// left, or just adopted, within a second). Ten intervals, and never under a minute, leave
// room for snapshot writes that fail for a while.
std::chrono::milliseconds inputKeep(const ClusterConfig& config) {
  return std::chrono::milliseconds(
      std::llround(std::max(60.0, 10.0 * config.snapshot_interval_s) * 1000.0));
}

}  // namespace

NpcCourier::NpcCourier(const ClusterConfig& config, std::chrono::milliseconds poll)
    : config_(config), poll_(poll), input_keep_(inputKeep(config)) {
  thread_ = std::thread([this] {
    setThreadName("npcd-courier");
    run();
  });
}

NpcCourier::~NpcCourier() {
  {
    std::lock_guard lock(mutex_);
    running_ = false;
  }
  wake_.notify_all();
  thread_.join();
}

void NpcCourier::send(OutgoingNpcs batch) {
  {
    std::lock_guard lock(mutex_);
    outgoing_.push_back(std::move(batch));
  }
  wake_.notify_all();  // an npc in flight is fenced off until sent: do not wait for the poll
}

uint64_t NpcCourier::record(PlaceInputEntry entry) {
  uint64_t number = 0;
  {
    std::lock_guard lock(mutex_);
    if (inputs_.size() >= kMaxQueuedInputs) {
      inputs_.pop_front();
      inputs_lost_.push_back(++inputs_removed_);
      ++stats_.inputs_dropped;
    }
    inputs_.push_back(std::move(entry));
    number = inputs_removed_ + inputs_.size();
  }
  wake_.notify_all();  // what is not in the stream is lost with this node: do not wait
  return number;
}

void NpcCourier::takeSettled(uint64_t& through, std::vector<uint64_t>& lost) {
  std::lock_guard lock(mutex_);
  through = inputs_removed_;
  lost.insert(lost.end(), inputs_lost_.begin(), inputs_lost_.end());
  inputs_lost_.clear();
}

void NpcCourier::takeDelivered(std::vector<EntityId>& out) {
  std::lock_guard lock(mutex_);
  out.insert(out.end(), delivered_.begin(), delivered_.end());
  delivered_.clear();
}

void NpcCourier::watch(const std::string& place, std::string after) {
  std::lock_guard lock(mutex_);
  watched_[place] = Watch{std::move(after), ++generations_};
  std::erase_if(incoming_, [&](const IncomingNpcs& in) { return in.place == place; });
}

void NpcCourier::unwatch(const std::string& place) {
  std::lock_guard lock(mutex_);
  watched_.erase(place);
  std::erase_if(incoming_, [&](const IncomingNpcs& in) { return in.place == place; });
}

void NpcCourier::takeArrivals(std::vector<IncomingNpcs>& out) {
  std::lock_guard lock(mutex_);
  out.insert(out.end(), std::make_move_iterator(incoming_.begin()),
             std::make_move_iterator(incoming_.end()));
  incoming_.clear();
}

bool NpcCourier::flush(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  wake_.notify_all();
  return sent_all_.wait_for(lock, timeout, [this] { return outgoing_.empty() && inputs_.empty(); });
}

NpcCourierStats NpcCourier::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

void NpcCourier::run() {
  RedisConnection redis(config_.redis_host, config_.redis_port,
                        std::chrono::milliseconds(std::llround(config_.redis_timeout_ms)));
  PlaceLeaseStore store(redis, config_.key_prefix);
  auto next_read = std::chrono::steady_clock::now();
  std::unique_lock lock(mutex_);
  while (running_) {
    lock.unlock();
    const bool answered = sendQueued(store) && appendInputs(store);
    if (std::chrono::steady_clock::now() >= next_read) {
      readWatched(store);
      next_read = std::chrono::steady_clock::now() + poll_;
    }
    lock.lock();
    if (answered && outgoing_.empty() && inputs_.empty()) sent_all_.notify_all();
    // After a failure the queues wait for the poll: a Redis that refuses at once would
    // otherwise be asked again and again.
    wake_.wait_until(lock, answered ? next_read : std::chrono::steady_clock::now() + poll_, [&] {
      return !running_ || (answered && (!outgoing_.empty() || !inputs_.empty()));
    });
  }
}

bool NpcCourier::sendQueued(PlaceLeaseStore& store) {
  std::vector<OutgoingNpcs> batch;
  std::vector<ArrivalEntry> entries;
  while (true) {
    {
      std::lock_guard lock(mutex_);
      if (outgoing_.empty()) return true;
      const size_t n = std::min(outgoing_.size(), kMaxArrivalsPerAppend);
      batch.assign(outgoing_.begin(), outgoing_.begin() + static_cast<std::ptrdiff_t>(n));
    }
    entries.clear();
    for (const OutgoingNpcs& b : batch) entries.push_back({b.place, b.field, b.bytes});
    if (!settleSent(batch, store.appendArrivals(entries))) return false;
  }
}

bool NpcCourier::settleSent(std::vector<OutgoingNpcs>& batch,
                            const std::vector<AppendResult>& appended) {
  std::vector<OutgoingNpcs> again;
  std::lock_guard lock(mutex_);
  for (size_t i = 0; i < batch.size(); ++i) {
    if (!appended[i].status.isOk()) {
      // One line per batch: Redis away fails every entry after the first alike.
      if (again.empty()) {
        spdlog::warn(logText("cluster: writing to place \"" + batch[i].place + "\"'s arrivals: " +
                             appended[i].status.message() + " (tried again)"));
      }
      ++stats_.send_failures;
      again.push_back(std::move(batch[i]));
      continue;
    }
    ++stats_.sent;
    delivered_.insert(delivered_.end(), batch[i].ids.begin(), batch[i].ids.end());
  }
  // Only this thread takes from the queue, so its front is still the batch. What Redis took
  // is not sent again (an entry twice would be a sound heard twice); what it did not take
  // goes first in line. After an I/O error that is everything from the failed entry on, in
  // order, as before the batch was sent.
  outgoing_.erase(outgoing_.begin(), outgoing_.begin() + static_cast<std::ptrdiff_t>(batch.size()));
  outgoing_.insert(outgoing_.begin(), std::make_move_iterator(again.begin()),
                   std::make_move_iterator(again.end()));
  return again.empty();
}

bool NpcCourier::appendInputs(PlaceLeaseStore& store) {
  std::vector<PlaceInputEntry> batch;
  while (true) {
    uint64_t first = 0;  // the batch's first entry, counted from the first ever queued
    {
      std::lock_guard lock(mutex_);
      if (inputs_.empty()) return true;
      first = inputs_removed_;
      const size_t n = std::min(inputs_.size(), kMaxInputsPerAppend);
      batch.assign(inputs_.begin(), inputs_.begin() + static_cast<std::ptrdiff_t>(n));
    }
    const std::vector<LeaseCheck> appended = store.appendInputs(batch, input_keep_);
    std::lock_guard lock(mutex_);
    size_t done = 0;
    for (; done < appended.size(); ++done) {
      const LeaseCheck& a = appended[done];
      if (!a.status.isOk()) {
        ++stats_.send_failures;
        spdlog::warn(logText("cluster: writing to place \"" + batch[done].token.place +
                             "\"'s inputs: " + a.status.message() + " (tried again)"));
        break;
      }
      // Not held any more: the place is someone else's, and so are its inputs from now on.
      if (a.held) {
        ++stats_.inputs;
      } else {
        ++stats_.inputs_dropped;
        if (first + done >= inputs_removed_) inputs_lost_.push_back(first + done + 1);
      }
    }
    // What was appended leaves the queue, unless record() dropped it meanwhile.
    while (inputs_removed_ < first + done && !inputs_.empty()) {
      inputs_.pop_front();
      ++inputs_removed_;
    }
    if (done < appended.size()) return false;  // Redis is away: the rest waits for the poll
  }
}

void NpcCourier::readWatched(PlaceLeaseStore& store) {
  std::vector<std::pair<std::string, Watch>> watched;
  {
    std::lock_guard lock(mutex_);
    watched.assign(watched_.begin(), watched_.end());
  }
  if (watched.empty()) return;
  std::vector<StreamCursor> cursors;
  for (const auto& [place, watch] : watched) cursors.push_back({place, watch.cursor});
  std::vector<StreamResult> reads = store.readArrivals(cursors, kReadBatch);
  std::lock_guard lock(mutex_);
  for (size_t i = 0; i < watched.size(); ++i) {
    // A read that failed is asked again at the next poll, from the same cursor.
    if (!reads[i].status.isOk() || reads[i].entries.empty()) continue;
    const auto& [place, watch] = watched[i];
    auto it = watched_.find(place);
    if (it == watched_.end() || it->second.generation != watch.generation) continue;  // rewatched
    it->second.cursor = reads[i].entries.back().id;
    stats_.received += reads[i].entries.size();
    for (StreamEntry& e : reads[i].entries) {
      incoming_.push_back({place, std::move(e.id), std::move(e.field), std::move(e.bytes)});
    }
  }
}

}  // namespace npc
