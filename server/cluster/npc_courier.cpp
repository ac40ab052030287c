#include "cluster/npc_courier.h"

#include <algorithm>
#include <cmath>

#include <spdlog/spdlog.h>

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
  thread_ = std::thread([this] { run(); });
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

void NpcCourier::record(PlaceInputEntry entry) {
  {
    std::lock_guard lock(mutex_);
    if (inputs_.size() >= kMaxQueuedInputs) {
      inputs_.pop_front();
      ++inputs_removed_;
      ++stats_.inputs_dropped;
    }
    inputs_.push_back(std::move(entry));
  }
  wake_.notify_all();  // what is not in the stream is lost with this node: do not wait
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
  while (true) {
    OutgoingNpcs batch;
    {
      std::lock_guard lock(mutex_);
      if (outgoing_.empty()) return true;
      batch = outgoing_.front();
    }
    const AppendResult appended = store.appendArrival(batch.place, batch.field, batch.bytes);
    std::lock_guard lock(mutex_);
    if (!appended.status.isOk()) {
      ++stats_.send_failures;
      spdlog::warn(logText("cluster: writing to place \"" + batch.place + "\"'s arrivals: " +
                           appended.status.message() + " (tried again)"));
      return false;  // Redis is away: the batch stays first in line
    }
    ++stats_.sent;
    delivered_.insert(delivered_.end(), batch.ids.begin(), batch.ids.end());
    outgoing_.pop_front();
  }
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
  for (auto& [place, watch] : watched) {
    const StreamResult read = store.readArrivals(place, watch.cursor, kReadBatch);
    if (!read.status.isOk()) return;  // Redis is away: next poll
    if (read.entries.empty()) continue;
    std::lock_guard lock(mutex_);
    auto it = watched_.find(place);
    if (it == watched_.end() || it->second.generation != watch.generation) continue;  // rewatched
    it->second.cursor = read.entries.back().id;
    stats_.received += read.entries.size();
    for (const StreamEntry& e : read.entries) incoming_.push_back({place, e.id, e.field, e.bytes});
  }
}

}  // namespace npc
