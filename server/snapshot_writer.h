// SnapshotWriter: when and where the daemon's snapshots are taken (README.md "Snapshots").
// The tick thread copies the state's plain rows between ticks (copySimState,
// state/sim_state_copy.h); one background thread builds the messages from the copy, encodes
// them, checksums them and writes them atomically into the snapshot directory, keeping the
// newest `keep`. Copies are reused: a written job's copy goes back to a spare list, so a
// steady state allocates on the tick thread only when it grew. Snapshots are
// taken every interval_s of simulated time, when requested (admin Snapshot call) and at
// shutdown (takeNow, after the tick thread stopped).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/status.h"
#include "config.h"
#include "snapshot_store.h"

namespace npc {

class Simulation;

struct SnapshotResult {
  Status status;
  std::string path;
  uint64_t tick = 0;
  uint64_t bytes = 0;
};

class SnapshotWriter {
 public:
  using Done = std::function<void(const SnapshotResult&)>;

  SnapshotWriter(const SnapshotConfig& config, std::string definitions_hash, uint64_t world_seed);
  ~SnapshotWriter();  // writes what was captured, then joins
  SnapshotWriter(const SnapshotWriter&) = delete;
  SnapshotWriter& operator=(const SnapshotWriter&) = delete;

  // Tick thread, between ticks: captures when the interval has passed or a request waits.
  void afterTick(Simulation& sim);
  // Any thread: the next afterTick captures; `done` is called (writer thread) once written.
  void request(Done done);
  // Tick thread or after it stopped: captures now and waits until the file is written.
  SnapshotResult takeNow(Simulation& sim);
  // Tick thread: the definitions changed (a reload was accepted).
  void setDefinitionsHash(std::string hash);
  // Before the first tick: called on the tick thread with the tick of each capture (the
  // input journal starts the snapshot's file).
  void setOnCapture(std::function<void(uint64_t tick)> on_capture) {
    on_capture_ = std::move(on_capture);
  }

  // Wall time of the last capture on the tick thread, in milliseconds.
  double lastCaptureMs() const;
  uint64_t written() const;

 private:
  struct Job;
  void capture(Simulation& sim, std::vector<Done> done);
  void run();

  SnapshotStore store_;
  double interval_s_;
  std::string definitions_hash_;  // tick thread
  uint64_t world_seed_;
  double next_due_s_ = 0.0;       // tick thread
  bool scheduled_ = false;        // tick thread: next_due_s_ set
  std::function<void(uint64_t)> on_capture_;  // tick thread

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<Done> requests_;             // guarded: waiting for the next capture
  std::vector<std::unique_ptr<Job>> jobs_; // guarded: captured, not yet written
  std::vector<std::unique_ptr<Job>> spare_; // guarded: written, their copies' capacity kept
  bool stopping_ = false;                  // guarded
  double last_capture_ms_ = 0.0;           // guarded
  uint64_t written_ = 0;                   // guarded
  std::thread thread_;
};

}  // namespace npc
