// Tick timing: a ring of the most recent tick durations for p50/p99, plus counters.
// Tick thread writes; the status line reads the TickDriver's, GetStats a copy of the
// StatsBoard's (stats_board.h).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace npc {

class TickStats {
 public:
  static constexpr size_t kWindow = 1024;  // ticks kept for percentiles

  void record(double duration_ms);
  // Percentile in [0, 100] over the window; 0 when nothing was recorded.
  double percentileMs(double p) const;
  uint64_t ticks() const { return ticks_; }
  size_t windowSize() const { return count_ < kWindow ? count_ : kWindow; }

  uint64_t overruns = 0;  // ticks that ended after their successor's slot
  uint64_t skipped = 0;   // slots dropped instead of caught up

 private:
  std::array<double, kWindow> ring_{};
  size_t count_ = 0;
  uint64_t ticks_ = 0;
};

}  // namespace npc
