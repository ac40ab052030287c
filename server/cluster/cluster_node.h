// ClusterNode: the daemon's side of a cluster. Its LeaseKeeper holds place leases in Redis;
// between ticks the node turns what changed into HoldPlace commands (a place acquired is
// held at its lease's epoch and, with no snapshot of it yet, gets the world file's npcs; a
// place lost is released and its agents unloaded) and says which places' output must not
// reach clients because their lease ran out while the tick ran.
//
// Tick thread, except view() and stats().
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cluster/cluster_config.h"
#include "cluster/lease_keeper.h"
#include "sim/world_file.h"

namespace npc {

class Simulation;

class ClusterNode {
 public:
  // `address`: where clients reach this node (the advertised gRPC address).
  ClusterNode(const ClusterConfig& config, std::string address, WorldFile world);
  ~ClusterNode();

  // Before the first tick: a simulation restored from a snapshot gives up every place (their
  // leases may be anyone's now); then the keeper starts claiming.
  void start(Simulation& sim);
  // Tick thread, after each tick and before its output is published: lease changes become
  // commands of the next tick. Returns the places whose actions this tick must not be sent.
  std::span<const PlaceIndex> afterTick(Simulation& sim);
  // After the last tick: with `drain`, every lease is given up (SIGTERM).
  void stop(bool drain);

  ClusterView view() const { return keeper_.view(); }
  LeaseKeeperStats stats() const { return keeper_.stats(); }
  const ClusterConfig& config() const { return keeper_.config(); }
  const std::string& address() const { return keeper_.address(); }

 private:
  void onChange(const LeaseChange& change, Simulation& sim);

  WorldFile world_;
  LeaseKeeper keeper_;
  std::vector<LeaseChange> changes_;  // scratch, capacity reused
  std::vector<PlaceIndex> fenced_;
};

}  // namespace npc
