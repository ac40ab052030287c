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

}  // namespace

NpcCourier::NpcCourier(const ClusterConfig& config, std::chrono::milliseconds poll)
    : config_(config), poll_(poll) {
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
  return sent_all_.wait_for(lock, timeout, [this] { return outgoing_.empty(); });
}

NpcCourierStats NpcCourier::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

void NpcCourier::run() {
  RedisConnection redis(config_.redis_host, config_.redis_port,
                        std::chrono::milliseconds(std::llround(config_.redis_timeout_ms)));
  PlaceLeaseStore store(redis, config_.key_prefix);
  std::unique_lock lock(mutex_);
  while (running_) {
    lock.unlock();
    sendQueued(store);
    readWatched(store);
    lock.lock();
    wake_.wait_for(lock, poll_, [this] { return !running_ || !outgoing_.empty(); });
  }
}

void NpcCourier::sendQueued(PlaceLeaseStore& store) {
  while (true) {
    OutgoingNpcs batch;
    {
      std::lock_guard lock(mutex_);
      if (outgoing_.empty()) {
        sent_all_.notify_all();
        return;
      }
      batch = outgoing_.front();
    }
    const AppendResult appended = store.appendArrival(batch.place, batch.field, batch.bytes);
    std::lock_guard lock(mutex_);
    if (!appended.status.isOk()) {
      ++stats_.send_failures;
      spdlog::warn(logText("cluster: writing to place \"" + batch.place + "\"'s arrivals: " +
                           appended.status.message() + " (tried again)"));
      return;  // Redis is away: the batch stays first in line
    }
    ++stats_.sent;
    delivered_.insert(delivered_.end(), batch.ids.begin(), batch.ids.end());
    outgoing_.pop_front();
  }
}

void NpcCourier::readWatched(PlaceLeaseStore& store) {
  std::vector<std::pair<std::string, Watch>> watched;
  {
    std::lock_guard lock(mutex_);
    watched.assign(watched_.begin(), watched_.end());
  }
  for (auto& [place, watch] : watched) {
    const ArrivalsResult read = store.readArrivals(place, watch.cursor, kReadBatch);
    if (!read.status.isOk()) return;  // Redis is away: next poll
    if (read.entries.empty()) continue;
    std::lock_guard lock(mutex_);
    auto it = watched_.find(place);
    if (it == watched_.end() || it->second.generation != watch.generation) continue;  // rewatched
    it->second.cursor = read.entries.back().id;
    stats_.received += read.entries.size();
    for (const ArrivalEntry& e : read.entries) incoming_.push_back({place, e.id, e.field, e.bytes});
  }
}

}  // namespace npc
