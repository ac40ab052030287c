#include "cluster/place_snapshot_writer.h"

#include <cmath>

#include <spdlog/spdlog.h>

#include "base/thread_name.h"
#include "cluster/place_lease_store.h"
#include "cluster/redis_connection.h"
#include "logging.h"
#include "sim/simulation.h"
#include "sim_state_codec.h"

namespace npc {

PlaceSnapshotWriter::PlaceSnapshotWriter(const ClusterConfig& config, std::string address,
                                         HandoffSource source)
    : config_(config), address_(std::move(address)), source_(std::move(source)) {
  thread_ = std::thread([this] {
    setThreadName("npcd-place-snap");
    run();
  });
}

PlaceSnapshotWriter::~PlaceSnapshotWriter() {
  {
    std::lock_guard lock(mutex_);
    running_ = false;
  }
  wake_.notify_all();
  thread_.join();
}

bool PlaceSnapshotWriter::submit(Simulation& sim, std::vector<PlaceToHand> places) {
  {
    std::lock_guard lock(mutex_);
    if (busy_) return false;
  }
  // Not busy: the copy is the tick thread's until busy_ is set again.
  copySimState(sim, copy_);
  sim_time_s_ = sim.timeS();
  places_ = std::move(places);
  {
    std::lock_guard lock(mutex_);
    busy_ = true;
  }
  wake_.notify_all();
  return true;
}

bool PlaceSnapshotWriter::flush(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return idle_.wait_for(lock, timeout, [this] { return !busy_; });
}

void PlaceSnapshotWriter::takeWritten(std::vector<PlaceWritten>& out) {
  std::lock_guard lock(mutex_);
  out.insert(out.end(), written_.begin(), written_.end());
  written_.clear();
}

PlaceSnapshotStats PlaceSnapshotWriter::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

void PlaceSnapshotWriter::run() {
  pb::SimState whole;
  std::vector<pb::PlaceHandoff> handoffs;
  std::vector<PlaceIndex> indices;
  std::unique_lock lock(mutex_);
  while (true) {
    wake_.wait(lock, [this] { return busy_ || !running_; });
    if (!busy_) return;  // stopping with nothing to write
    lock.unlock();
    const auto started = std::chrono::steady_clock::now();
    indices.clear();
    for (const PlaceToHand& p : places_) indices.push_back(p.index);
    keepPlaces(copy_, indices);  // only what the handoffs are cut from is built
    buildSimState(copy_, whole);
    splitPlaces(whole, places_, sim_time_s_, source_, handoffs);
    write(handoffs, places_);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    lock.lock();
    stats_.last_write_ms = ms;
    busy_ = false;
    idle_.notify_all();
  }
}

void PlaceSnapshotWriter::write(std::vector<pb::PlaceHandoff>& handoffs,
                                const std::vector<PlaceToHand>& places) {
  // A connection per capture: a few every interval, and nothing held open while idle.
  RedisConnection redis(config_.redis_host, config_.redis_port,
                        std::chrono::milliseconds(std::llround(config_.redis_timeout_ms)));
  PlaceLeaseStore store(redis, config_.key_prefix);
  size_t bytes = 0;
  std::string encoded;
  for (size_t i = 0; i < handoffs.size(); ++i) {
    handoffs[i].SerializeToString(&encoded);
    bytes += encoded.size();
    const LeaseToken token{places[i].name, config_.node_id, places[i].epoch, address_};
    const LeaseCheck wrote = store.writeFenced(token, kPlaceSnapshotKey, encoded);
    std::lock_guard lock(mutex_);
    written_.push_back({places[i].name, places[i].epoch, wrote.status.isOk() && wrote.held});
    if (!wrote.status.isOk()) {
      ++stats_.failed;
      spdlog::warn(logText("cluster: writing place \"" + places[i].name + "\"'s snapshot: " +
                           wrote.status.message()));
    } else if (!wrote.held) {
      ++stats_.fenced;
      spdlog::warn(logText("cluster: place \"" + places[i].name + "\"'s snapshot at epoch " +
                           std::to_string(places[i].epoch) +
                           " not written: the lease is no longer this node's"));
    } else {
      ++stats_.written;
    }
  }
  std::lock_guard lock(mutex_);
  stats_.last_bytes = bytes;
}

}  // namespace npc
