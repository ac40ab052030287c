// StatsBoard: the latest daemon-wide figures, written by the tick thread once per tick and
// read by any thread (GetStats, the status line). One mutex guards one small struct.
#pragma once

#include <cstdint>
#include <mutex>

#include "sim/simulation.h"

namespace npc {

struct DaemonStats {
  SimStats sim;
  double ticks_per_second = 0.0;  // measured over the last status interval
  double tick_p50_ms = 0.0;
  double tick_p99_ms = 0.0;
  uint64_t tick_overruns = 0;
  uint64_t ticks_skipped = 0;
  uint32_t clients = 0;
  uint64_t clients_dropped = 0;
};

class StatsBoard {
 public:
  void store(const DaemonStats& stats) {
    std::lock_guard lock(mutex_);
    stats_ = stats;
  }
  DaemonStats load() const {
    std::lock_guard lock(mutex_);
    return stats_;
  }

 private:
  mutable std::mutex mutex_;
  DaemonStats stats_;  // guarded by mutex_
};

}  // namespace npc
