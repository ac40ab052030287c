// LeaseKeeper: a cluster node's leases on places, kept on a thread of its own so that Redis
// round trips never touch the tick (SERVER-REFERENCE.md section 4).
//
// Every ttl/4 it announces the node, renews each lease it holds and claims the places its
// policy gives it (a static list, or unowned places up to a fair share among live nodes).
// A lease counts as valid here until kValidFraction of the ttl after the renew was *sent*:
// Redis starts the ttl later than that, so the node stops acting on a place while the lease
// is still surely its own, and the rest of the ttl covers the tick in progress. Two renew
// attempts fall inside that window.
//
// Once a ttl it also reads who holds the other places, so that the daemon can tell a game
// where a refused update belongs.
//
// A place is granted together with its last snapshot (kPlaceSnapshotKey) and its input
// stream (kPlaceInputKey): a grant whose snapshot or inputs cannot be read is given back and
// claimed again later, so that a place with a snapshot never starts afresh, nor without
// what was applied after it.
//
// The tick thread takes the changes (places acquired, places lost) between ticks and turns
// them into HoldPlace commands; a lease whose validity ran out on the node's own clock is
// reported lost there and then, even if the keeper thread is stuck in a Redis call. A lease
// once reported lost is never renewed again (the place's agents are gone here); the keeper
// releases it if it still can, so another node, or this one, takes the place up afresh.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cluster/cluster_config.h"
#include "cluster/place_lease_store.h"

namespace npc {

struct LeaseChange {
  // kHeldElsewhere: another node holds a place this one does not (or nobody now).
  // kShed: a balanced node holds more than its fair share: it should write the place for its
  // next holder, stop running it and giveUp() the lease.
  enum class Kind : uint8_t { kAcquired, kLost, kHeldElsewhere, kShed };
  Kind kind = Kind::kAcquired;
  std::string place;
  uint64_t epoch = 0;
  // kLost: why ("not renewed in time", ...); kHeldElsewhere: "node-b at 10.0.0.6:50051", or
  // "" when nobody holds the place.
  std::string why;
  // kAcquired: the place's last snapshot as its previous holder wrote it (an encoded
  // PlaceHandoff), read right after the grant; "" when none was ever written.
  std::string snapshot;
  // kAcquired: the entries of the place's input stream (encoded PlaceInputs, oldest first),
  // read with the snapshot: the new holder applies again those written after it.
  std::vector<std::string> inputs;
};

// One place as Redis sees it (GetClusterState).
struct ClusterPlaceView {
  std::string place;
  std::string node;     // "" when nobody holds it
  uint64_t epoch = 0;
  std::string address;
  double remaining_s = 0.0;
};

struct ClusterView {
  Status status;  // not ok: Redis did not answer
  std::vector<LiveNode> nodes;
  std::vector<ClusterPlaceView> places;
};

struct LeaseKeeperStats {
  uint64_t acquired = 0;        // leases granted to this node
  uint64_t lost = 0;            // leases this node stopped holding without giving them up
  uint64_t renew_failures = 0;  // renews Redis did not answer
  uint64_t released = 0;        // leases given up (drain, shed, or after a loss)
  uint64_t shed = 0;            // places given up for a fair share
  size_t held = 0;
};

class LeaseKeeper {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr double kValidFraction = 0.6;

  // `address`: where clients reach this node; `world_places`: every place of the world, in
  // the world file's order (the balanced policy's candidates).
  LeaseKeeper(ClusterConfig config, std::string address, std::vector<std::string> world_places);
  ~LeaseKeeper();
  LeaseKeeper(const LeaseKeeper&) = delete;
  LeaseKeeper& operator=(const LeaseKeeper&) = delete;

  void start();
  // Stops the thread; with `release`, gives every lease up first (a graceful drain).
  void stop(bool release);

  // Tick thread, between ticks: what changed since the last call. Leases whose validity
  // ended by `now` are reported lost and dropped.
  void takeChanges(Clock::time_point now, std::vector<LeaseChange>& out);
  // Tick thread: whether the lease on `place` is valid at `now` (the output of a tick for
  // a place whose lease ran out during the tick is not sent).
  bool valid(const std::string& place, Clock::time_point now) const;
  // Tick thread, after a kShed: the place is written and unloaded; its lease is released in
  // the next round (no kLost). Ignored for a lease no longer held at `epoch`.
  void giveUp(const std::string& place, uint64_t epoch);

  // Asks Redis (own connection, any thread; blocks up to a few timeouts).
  ClusterView view() const;
  LeaseKeeperStats stats() const;
  const ClusterConfig& config() const { return config_; }
  const std::string& address() const { return address_; }

 private:
  struct Held {
    LeaseToken token;
    Clock::time_point valid_until;
  };
  void run();
  void renewAll(PlaceLeaseStore& store);
  void claim(PlaceLeaseStore& store);
  // Balanced: asks the tick thread to give one place up when this node holds more than its
  // fair share, or two more than the least loaded other live node (a node joined), one
  // place at a time.
  void shed(PlaceLeaseStore& store);
  // Every entry of the place's input stream, in batches.
  static Status readInputs(PlaceLeaseStore& store, const std::string& place,
                           std::vector<std::string>& out);
  void releaseDropped(PlaceLeaseStore& store);
  // Once a ttl: who holds the places this node does not, reported when it changed.
  void refreshHolders(PlaceLeaseStore& store);
  // The places this node should hold now (balanced: up to its fair share).
  size_t share(PlaceLeaseStore& store) const;
  size_t fairShare(size_t live_nodes) const;  // ⌈places / live nodes⌉
  std::chrono::milliseconds ttl() const;
  Clock::duration validity() const;

  ClusterConfig config_;
  std::string address_;
  std::vector<std::string> candidates_;  // places to claim, rotated by node id
  std::vector<std::string> world_places_;  // sorted: what view() reports

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool running_ = false;
  bool release_on_stop_ = false;
  std::map<std::string, Held> held_;            // guarded by mutex_
  std::vector<LeaseToken> dropped_;             // lost or given up here, to release if still ours
  std::string shedding_;                        // guarded by mutex_: the place being shed
  std::map<std::string, Clock::time_point> shed_until_;  // guarded by mutex_: not claimed till
  std::vector<LeaseChange> changes_;            // guarded by mutex_
  std::map<std::string, uint64_t> known_epoch_; // keeper thread only
  std::map<std::string, std::string> holders_;  // keeper thread only: as last reported
  std::map<std::string, std::string> holder_nodes_;  // keeper thread only: place -> node id
  LeaseKeeperStats stats_;                      // guarded by mutex_
  std::thread thread_;
};

}  // namespace npc
