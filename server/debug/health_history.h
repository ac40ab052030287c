// HealthHistory: one sample per second of the daemon's vital signs over the last minutes,
// for the debug page's live charts: tick time (mean and max over the second, and the mean
// of each phase: where the time went), ticks, agents
// awake / asleep, places awake / asleep, actions emitted per second, errors (refused
// commands) per second, planner searches per second. The tick thread feeds every tick
// (observe); HTTP threads read the samples. One mutex guards the ring.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <mutex>

#include <nlohmann/json_fwd.hpp>

#include "sim/tick_phase.h"
#include "stats_board.h"

namespace npc {

struct HealthSample {
  double t_s = 0.0;             // wall seconds since the history started
  double tick_mean_ms = 0.0;
  double tick_max_ms = 0.0;
  std::array<double, kTickPhaseCount> phase_mean_ms{};  // by TickPhase
  uint32_t ticks = 0;
  uint64_t agents_awake = 0;
  uint64_t agents_asleep = 0;
  uint64_t places_awake = 0;
  uint64_t places_asleep = 0;
  double actions_per_s = 0.0;
  double errors_per_s = 0.0;
  double plans_per_s = 0.0;
};

class HealthHistory {
 public:
  using Clock = std::chrono::steady_clock;
  // Keeps `max_samples` samples (600: ten minutes), one per `period`.
  explicit HealthHistory(size_t max_samples = 600,
                         Clock::duration period = std::chrono::seconds(1));

  using PhaseMs = std::array<double, kTickPhaseCount>;  // one tick's phases, by TickPhase

  // Tick thread, every tick: `tick_s` is that tick's duration, `now` the wall time after it,
  // `phase_ms` its phases (TickProfile::lastNs).
  void observe(const DaemonStats& stats, double tick_s, Clock::time_point now,
               const PhaseMs& phase_ms = {});

  // Any thread: {"period_s": 1, "phases": [tick phase names, in tick order],
  // "samples": [{..., "phase_mean_ms": {name: ms}}, ...]} oldest first.
  nlohmann::json json() const;

 private:
  const size_t max_samples_;
  const Clock::duration period_;
  // Tick thread only: the second being accumulated.
  Clock::time_point start_{};
  Clock::time_point window_start_{};
  bool started_ = false;
  double window_sum_ms_ = 0.0;
  double window_max_ms_ = 0.0;
  PhaseMs window_phase_ms_{};
  uint32_t window_ticks_ = 0;
  uint64_t last_actions_ = 0, last_errors_ = 0, last_plans_ = 0;

  mutable std::mutex mutex_;
  std::deque<HealthSample> samples_;  // guarded by mutex_
};

}  // namespace npc
