// PlaceSnapshotWriter: writes the places a node holds to Redis, each under its lease
// (server/cluster/README.md "Handoff"), so that the next holder adopts them: every few
// seconds while the node runs (what a place applies in between goes to its input stream,
// cluster_node.h) and once more when it drains, before its leases are given up.
//
// The tick thread only copies the simulation (copySimState, the same split as the local
// snapshot writer's); this writer's own thread builds the messages, cuts out each place
// (state/place_handoff.h), encodes it and writes it with a fenced SET: a node whose lease
// was taken over meanwhile writes nothing. One capture at a time: submit() refuses while
// the last one is being written.
//
// Thread: begin()/submit() on the tick thread; flush() and stats() from any thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cluster/cluster_config.h"
#include "place_handoff.h"
#include "sim_state_copy.h"

namespace npc {

class Simulation;

struct PlaceSnapshotStats {
  uint64_t written = 0;    // place snapshots Redis took
  uint64_t fenced = 0;     // refused: the lease is no longer this node's
  uint64_t failed = 0;     // Redis did not answer
  size_t last_bytes = 0;   // the last capture's handoffs, all places
  double last_write_ms = 0.0;  // build, encode and write of the last capture
};

// How the write of one place went.
struct PlaceWritten {
  std::string place;
  uint64_t epoch = 0;
  bool ok = false;  // Redis took it under the lease
};

class PlaceSnapshotWriter {
 public:
  // `address`: this node's advertised address (part of the lease token written under).
  PlaceSnapshotWriter(const ClusterConfig& config, std::string address, HandoffSource source);
  ~PlaceSnapshotWriter();
  PlaceSnapshotWriter(const PlaceSnapshotWriter&) = delete;
  PlaceSnapshotWriter& operator=(const PlaceSnapshotWriter&) = delete;

  // Tick thread, between ticks: copies the simulation and hands `places` (held here, at
  // their epochs) to the writer thread. False, copying nothing, while the last capture is
  // still being written.
  bool submit(Simulation& sim, std::vector<PlaceToHand> places);
  // Waits until the submitted capture is written (or `timeout` passes); true when idle.
  bool flush(std::chrono::milliseconds timeout);
  PlaceSnapshotStats stats() const;
  // Tick thread: the places written (or not) since the last call.
  void takeWritten(std::vector<PlaceWritten>& out);

 private:
  void run();
  void write(std::vector<pb::PlaceHandoff>& handoffs, const std::vector<PlaceToHand>& places);

  ClusterConfig config_;
  std::string address_;
  HandoffSource source_;

  mutable std::mutex mutex_;
  std::condition_variable wake_, idle_;
  bool busy_ = false;      // a capture waits or is being written (the copy is the thread's)
  bool running_ = true;
  SimStateCopy copy_;      // tick thread while !busy_, writer thread while busy_
  std::vector<PlaceToHand> places_;
  double sim_time_s_ = 0.0;
  PlaceSnapshotStats stats_;  // guarded by mutex_
  std::vector<PlaceWritten> written_;  // guarded by mutex_
  std::thread thread_;
};

}  // namespace npc
