// StatsBoard: the latest daemon-wide figures, written by the tick thread once per tick and
// read by any thread (GetStats, the status line). One mutex guards one small struct and the
// window of recent tick durations.
#pragma once

#include <cstdint>
#include <mutex>

#include "sim/simulation.h"
#include "tick_stats.h"

namespace npc {

struct DaemonStats {
  SimStats sim;
  double ticks_per_second = 0.0;  // measured over the last status interval
  double tick_p50_ms = 0.0;       // over the last TickStats::kWindow ticks (see load())
  double tick_p99_ms = 0.0;
  uint64_t tick_overruns = 0;
  uint64_t ticks_skipped = 0;
  uint32_t clients = 0;
  uint64_t clients_dropped = 0;
  uint64_t errors_input = 0;    // error events sent to clients, ClientHub::ErrorKind::kInput
  uint64_t errors_refused = 0;  // and ClientHub::ErrorKind::kRefused
};

class StatsBoard {
 public:
  void store(const DaemonStats& stats) {
    std::lock_guard lock(mutex_);
    stats_ = stats;
  }

  // One tick's duration (tick thread, every tick). Once ticks are recorded here, load()
  // reports percentiles computed at the time of the call, so GetStats is as fresh as the
  // last tick whatever the status line's period (which only sets how often it is printed).
  void recordTick(double duration_ms) {
    std::lock_guard lock(mutex_);
    ticks_.record(duration_ms);
  }

  DaemonStats load() const {
    DaemonStats stats;
    TickStats window;
    {
      std::lock_guard lock(mutex_);
      stats = stats_;
      window = ticks_;  // 8 KiB copy: the tick thread never waits for the sort below
    }
    if (window.windowSize() > 0) {
      stats.tick_p50_ms = window.percentileMs(50);
      stats.tick_p99_ms = window.percentileMs(99);
    }
    return stats;
  }

 private:
  mutable std::mutex mutex_;
  DaemonStats stats_;  // guarded by mutex_
  TickStats ticks_;    // guarded by mutex_; empty unless recordTick() is used
};

}  // namespace npc
