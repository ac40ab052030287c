#include "cluster/lease_keeper.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include <spdlog/spdlog.h>

#include "base/thread_name.h"
#include "cluster/redis_connection.h"
#include "logging.h"

namespace npc {

namespace {

std::chrono::milliseconds millis(double ms) {
  return std::chrono::milliseconds(static_cast<int64_t>(std::llround(ms)));
}

}  // namespace

LeaseKeeper::LeaseKeeper(ClusterConfig config, std::string address,
                         std::vector<std::string> world_places)
    : config_(std::move(config)), address_(std::move(address)) {
  candidates_ = config_.balanced ? world_places : config_.places;
  world_places_ = std::move(world_places);
  std::sort(world_places_.begin(), world_places_.end());
  // Nodes start their claims at different places, so a cluster that starts at once does not
  // have every node race for the same first place.
  if (config_.balanced && !candidates_.empty()) {
    const size_t first = std::hash<std::string>{}(config_.node_id) % candidates_.size();
    std::rotate(candidates_.begin(), candidates_.begin() + static_cast<ptrdiff_t>(first),
                candidates_.end());
  }
}

LeaseKeeper::~LeaseKeeper() { stop(false); }

std::chrono::milliseconds LeaseKeeper::ttl() const { return millis(config_.lease_ttl_s * 1000.0); }

LeaseKeeper::Clock::duration LeaseKeeper::validity() const {
  return std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(config_.lease_ttl_s * kValidFraction));
}

void LeaseKeeper::start() {
  std::lock_guard lock(mutex_);
  if (running_) return;
  running_ = true;
  thread_ = std::thread([this] {
    setThreadName("npcd-leases");
    run();
  });
}

void LeaseKeeper::stop(bool release) {
  {
    std::lock_guard lock(mutex_);
    if (!running_) return;
    running_ = false;
    release_on_stop_ = release;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void LeaseKeeper::run() {
  RedisConnection redis(config_.redis_host, config_.redis_port, millis(config_.redis_timeout_ms));
  PlaceLeaseStore store(redis, config_.key_prefix);
  const auto period = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(config_.lease_ttl_s / 4.0));
  std::unique_lock lock(mutex_);
  for (uint64_t rounds = 0; running_; ++rounds) {
    const Clock::time_point round = Clock::now();
    lock.unlock();
    if (Status s = store.announceNode(config_.node_id, address_, ttl()); !s.isOk()) {
      spdlog::warn(logText("cluster: " + s.message()));
    }
    renewAll(store);
    releaseDropped(store);
    // A balanced node's first round only announces it: nodes started together then see
    // each other before anyone claims, and split the places, instead of the first one up
    // claiming every place and shedding them one handoff at a time.
    if (rounds > 0 || !config_.balanced) claim(store);
    shed(store);
    if (rounds % 4 == 0) refreshHolders(store);
    lock.lock();
    wake_.wait_until(lock, round + period, [this] { return !running_; });
  }
  if (!release_on_stop_) return;
  // Withdrawn first: the others then count this node out as they claim what it releases.
  if (Status s = store.withdrawNode(config_.node_id); !s.isOk()) {
    spdlog::warn(logText("cluster: " + s.message()));
  }
  std::vector<LeaseToken> tokens;
  for (auto& [place, held] : held_) tokens.push_back(held.token);
  held_.clear();
  lock.unlock();
  for (const LeaseToken& token : tokens) {
    const LeaseCheck released = store.release(token);
    std::lock_guard relock(mutex_);
    stats_.released += released.status.isOk() && released.held;
  }
  spdlog::info(logText("cluster: " + config_.node_id + " gave up " + std::to_string(tokens.size()) +
                       " place lease(s)"));
}

void LeaseKeeper::renewAll(PlaceLeaseStore& store) {
  std::vector<LeaseToken> tokens;
  {
    std::lock_guard lock(mutex_);
    for (auto& [place, held] : held_) tokens.push_back(held.token);
  }
  for (const LeaseToken& token : tokens) {
    const Clock::time_point sent = Clock::now();
    const LeaseCheck renewed = store.renew(token, ttl());
    std::lock_guard lock(mutex_);
    auto it = held_.find(token.place);
    if (it == held_.end() || it->second.token.epoch != token.epoch) continue;  // dropped meanwhile
    if (renewed.status.isOk() && renewed.held) {
      it->second.valid_until = sent + validity();
    } else if (renewed.status.isOk()) {
      // Redis says someone else holds it (our lease expired there): lost at once.
      changes_.push_back({LeaseChange::Kind::kLost, token.place, token.epoch,
                          "the lease is no longer this node's in Redis"});
      if (shedding_ == token.place) shedding_.clear();
      held_.erase(it);
      ++stats_.lost;
    } else {
      ++stats_.renew_failures;  // it stays valid until its validity runs out
      spdlog::warn(logText("cluster: renewing place \"" + token.place + "\": " +
                           renewed.status.message()));
    }
  }
}

void LeaseKeeper::releaseDropped(PlaceLeaseStore& store) {
  std::vector<LeaseToken> tokens;
  {
    std::lock_guard lock(mutex_);
    tokens.swap(dropped_);
  }
  for (const LeaseToken& token : tokens) {
    const LeaseCheck released = store.release(token);
    std::lock_guard lock(mutex_);
    stats_.released += released.status.isOk() && released.held;
  }
}

size_t LeaseKeeper::share(PlaceLeaseStore& store) const {
  if (!config_.balanced) return candidates_.size();
  const LiveNodesResult live = store.liveNodes();
  return fairShare(live.status.isOk() ? live.nodes.size() : 1);
}

size_t LeaseKeeper::fairShare(size_t live_nodes) const {
  const size_t nodes = std::max<size_t>(1, live_nodes);
  return (candidates_.size() + nodes - 1) / nodes;
}

void LeaseKeeper::claim(PlaceLeaseStore& store) {
  const size_t wanted = share(store);
  for (const std::string& place : candidates_) {
    {
      std::lock_guard lock(mutex_);
      if (!running_ || held_.size() >= wanted) return;
      if (held_.count(place)) continue;
      // A place this node shed is left to the others for a while (else the node, below its
      // share after shedding, takes it straight back).
      auto shed = shed_until_.find(place);
      if (shed != shed_until_.end()) {
        if (Clock::now() < shed->second) continue;
        shed_until_.erase(shed);
      }
    }
    const Clock::time_point sent = Clock::now();
    const AcquireResult got = store.acquire(place, config_.node_id, address_, ttl(), known_epoch_[place]);
    if (!got.status.isOk()) {
      spdlog::warn(logText("cluster: claiming place \"" + place + "\": " + got.status.message()));
      return;  // Redis is away: try again next round
    }
    if (!got.acquired) {
      known_epoch_[place] = std::max(known_epoch_[place], got.holder.epoch);
      continue;
    }
    known_epoch_[place] = got.token.epoch;
    ReadResult snapshot = store.read(place, kPlaceSnapshotKey);
    if (!snapshot.status.isOk()) {
      spdlog::warn(logText("cluster: place \"" + place + "\" given back: its snapshot could not be read: " +
                           snapshot.status.message()));
      store.release(got.token);  // if Redis is away, the lease runs out on its own
      return;
    }
    std::vector<std::string> inputs;
    if (Status read = readInputs(store, place, inputs); !read.isOk()) {
      spdlog::warn(logText("cluster: place \"" + place + "\" given back: its inputs could not be read: " +
                           read.message()));
      store.release(got.token);
      return;
    }
    holders_[place].clear();  // if it is lost one day, its next holder is news
    holder_nodes_.erase(place);
    std::lock_guard lock(mutex_);
    held_[place] = Held{got.token, sent + validity()};
    changes_.push_back({LeaseChange::Kind::kAcquired, place, got.token.epoch, {},
                        snapshot.bytes.value_or(std::string()), std::move(inputs)});
    ++stats_.acquired;
  }
}

Status LeaseKeeper::readInputs(PlaceLeaseStore& store, const std::string& place,
                              std::vector<std::string>& out) {
  constexpr size_t kBatch = 1000;
  std::string after;
  while (true) {
    StreamResult read = store.readInputs(place, after, kBatch);
    if (!read.status.isOk()) return read.status;
    for (StreamEntry& e : read.entries) out.push_back(std::move(e.bytes));
    if (read.entries.size() < kBatch) return Status::ok();
    after = read.entries.back().id;
  }
}

void LeaseKeeper::shed(PlaceLeaseStore& store) {
  if (!config_.balanced) return;
  {
    std::lock_guard lock(mutex_);
    if (!shedding_.empty() || held_.size() <= 1) return;
  }
  const LiveNodesResult live = store.liveNodes();
  if (!live.status.isOk() || live.nodes.size() < 2) return;
  const size_t wanted = fairShare(live.nodes.size());
  // Above the fair share, or two places above the least loaded other node (4 places on 3
  // nodes: 2, 1, 1 rather than 2, 2, 0). The holders as last read say whether to look; a
  // fresh read decides, so a place does not move on news a ttl old.
  auto excess = [&] {
    size_t least = SIZE_MAX;
    for (const LiveNode& n : live.nodes) {
      if (n.node == config_.node_id) continue;
      size_t count = 0;
      for (const auto& [place, node] : holder_nodes_) count += node == n.node;
      least = std::min(least, count);
    }
    std::lock_guard lock(mutex_);
    // While places lie unowned, a node below its share claims those (nodes started
    // together): moving one of ours to it would be a handoff for nothing.
    const bool unowned = held_.size() + holder_nodes_.size() < world_places_.size();
    return held_.size() > wanted || (!unowned && held_.size() >= least + 2);
  };
  if (!excess()) return;
  refreshHolders(store);
  if (!excess()) return;
  std::lock_guard lock(mutex_);
  if (!running_) return;
  // The last of this node's candidates it holds: the first ones are where it starts
  // claiming, so a place shed is not one it would take straight back.
  for (auto it = candidates_.rbegin(); it != candidates_.rend(); ++it) {
    auto held = held_.find(*it);
    if (held == held_.end()) continue;
    shedding_ = *it;
    changes_.push_back({LeaseChange::Kind::kShed, *it, held->second.token.epoch,
                        std::to_string(held_.size()) + " places held, a fair share is " +
                            std::to_string(wanted)});
    return;
  }
}

void LeaseKeeper::giveUp(const std::string& place, uint64_t epoch) {
  std::lock_guard lock(mutex_);
  if (shedding_ == place) shedding_.clear();
  auto it = held_.find(place);
  if (it == held_.end() || it->second.token.epoch != epoch) return;
  dropped_.push_back(it->second.token);
  held_.erase(it);
  ++stats_.shed;
  shed_until_[place] = Clock::now() + 2 * ttl();
}

void LeaseKeeper::refreshHolders(PlaceLeaseStore& store) {
  for (const std::string& place : world_places_) {
    {
      std::lock_guard lock(mutex_);
      if (!running_) return;
      if (held_.count(place)) continue;
    }
    const OwnerResult owner = store.owner(place);
    if (!owner.status.isOk()) return;  // Redis is away: next time
    std::string holder;
    uint64_t epoch = 0;
    if (owner.holder) {
      holder = owner.holder->node + " at " + owner.holder->address;
      epoch = owner.holder->epoch;
      known_epoch_[place] = std::max(known_epoch_[place], epoch);
      holder_nodes_[place] = owner.holder->node;
    } else {
      holder_nodes_.erase(place);
    }
    std::string& last = holders_[place];
    if (holder == last) continue;
    last = holder;
    std::lock_guard lock(mutex_);
    changes_.push_back({LeaseChange::Kind::kHeldElsewhere, place, epoch, std::move(holder)});
  }
}

void LeaseKeeper::takeChanges(Clock::time_point now, std::vector<LeaseChange>& out) {
  std::lock_guard lock(mutex_);
  for (auto it = held_.begin(); it != held_.end();) {
    if (it->second.valid_until > now) {
      ++it;
      continue;
    }
    changes_.push_back({LeaseChange::Kind::kLost, it->first, it->second.token.epoch,
                        "not renewed in time"});
    if (shedding_ == it->first) shedding_.clear();
    dropped_.push_back(it->second.token);
    ++stats_.lost;
    it = held_.erase(it);
  }
  out.insert(out.end(), std::make_move_iterator(changes_.begin()),
             std::make_move_iterator(changes_.end()));
  changes_.clear();
}

bool LeaseKeeper::valid(const std::string& place, Clock::time_point now) const {
  std::lock_guard lock(mutex_);
  auto it = held_.find(place);
  return it != held_.end() && it->second.valid_until > now;
}

LeaseKeeperStats LeaseKeeper::stats() const {
  std::lock_guard lock(mutex_);
  LeaseKeeperStats s = stats_;
  s.held = held_.size();
  return s;
}

ClusterView LeaseKeeper::view() const {
  RedisConnection redis(config_.redis_host, config_.redis_port, millis(config_.redis_timeout_ms));
  PlaceLeaseStore store(redis, config_.key_prefix);
  ClusterView out;
  LiveNodesResult live = store.liveNodes();
  if (!live.status.isOk()) {
    out.status = live.status;
    return out;
  }
  out.nodes = std::move(live.nodes);
  for (const std::string& place : world_places_) {
    const OwnerResult owner = store.owner(place);
    if (!owner.status.isOk()) {
      out.status = owner.status;
      return out;
    }
    ClusterPlaceView p;
    p.place = place;
    if (owner.holder) {
      p.node = owner.holder->node;
      p.epoch = owner.holder->epoch;
      p.address = owner.holder->address;
      p.remaining_s = static_cast<double>(owner.holder->remaining.count()) / 1000.0;
    }
    out.places.push_back(std::move(p));
  }
  return out;
}

}  // namespace npc
