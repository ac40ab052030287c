// ClusterNode: the daemon's side of a cluster. Its LeaseKeeper holds place leases in Redis;
// between ticks the node turns what changed into HoldPlace commands (a place acquired is
// held at its lease's epoch; a place lost is released and its agents unloaded) and says
// which places' output must not reach clients because their lease ran out while the tick
// ran.
//
// Handoff: a place comes with its last snapshot (LeaseChange::snapshot). Once the tick
// after the grant has applied the hold, the node adopts the snapshot's agents
// (state/place_handoff.h); a place never written, or whose snapshot is of other
// definitions, gets the world file's npcs instead. Every snapshot_interval_s, and once more
// when it drains, the node writes the places it holds (PlaceSnapshotWriter).
//
// Tick thread, except view() and stats().
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cluster/cluster_config.h"
#include "cluster/lease_keeper.h"
#include "cluster/place_snapshot_writer.h"
#include "npc/state/v1/place.pb.h"
#include "sim/world_file.h"

namespace npc {

class Simulation;

class ClusterNode {
 public:
  // `address`: where clients reach this node (the advertised gRPC address);
  // `definitions_hash`: the definition set its place snapshots are written with and must be
  // read with.
  ClusterNode(const ClusterConfig& config, std::string address, WorldFile world,
              std::string definitions_hash);
  ~ClusterNode();

  // Before the first tick: a simulation restored from a snapshot gives up every place (their
  // leases may be anyone's now); then the keeper starts claiming.
  void start(Simulation& sim);
  // Tick thread, after each tick and before its output is published: lease changes become
  // commands of the next tick. Returns the places whose actions this tick must not be sent.
  std::span<const PlaceIndex> afterTick(Simulation& sim);
  // After the last tick (the tick thread has stopped): with `drain` (SIGTERM), the places
  // held are written for their next holders, then every lease is given up.
  void stop(Simulation& sim, bool drain);
  // Tick thread: called after a place was adopted from a snapshot (the daemon then starts a
  // new local snapshot: its input journal cannot replay an adoption).
  void setOnAdopt(std::function<void()> on_adopt) { on_adopt_ = std::move(on_adopt); }

  ClusterView view() const { return keeper_.view(); }
  LeaseKeeperStats stats() const { return keeper_.stats(); }
  PlaceSnapshotStats snapshotStats() const { return writer_.stats(); }
  uint64_t adopted() const { return adopted_.load(); }
  const ClusterConfig& config() const { return keeper_.config(); }
  const std::string& address() const { return keeper_.address(); }

 private:
  // A grant whose snapshot is adopted once the hold at `epoch` is in force.
  struct PendingAdoption {
    std::string place;
    uint64_t epoch = 0;
    pb::PlaceHandoff handoff;
  };
  void onChange(LeaseChange& change, Simulation& sim);
  void adoptPending(Simulation& sim);
  // Hands the places held here to the writer; false when none or it is still busy.
  bool writeHeld(Simulation& sim);
  void queueWorldNpcs(const std::string& place, uint64_t epoch, Simulation& sim, const std::string& why);

  WorldFile world_;
  std::string definitions_hash_;
  LeaseKeeper keeper_;
  PlaceSnapshotWriter writer_;
  std::vector<PendingAdoption> pending_;
  std::function<void()> on_adopt_;
  std::atomic<uint64_t> adopted_{0};
  std::chrono::steady_clock::time_point next_write_{};
  std::vector<LeaseChange> changes_;  // scratch, capacity reused
  std::vector<PlaceIndex> fenced_;
};

}  // namespace npc
