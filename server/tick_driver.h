// TickDriver: runs Simulation::tick() on a Boost.Asio steady_timer at a fixed rate, on the
// thread that runs the io_context (the tick thread), and reports how it keeps up.
//
// Schedule policy (no drift, no unbounded catch-up): ticks are due on the grid
// t0 + k * period, each expiry computed from the previous expiry, never from "now", so
// small delays do not accumulate. A tick that ends after its successor's slot is an
// overrun: the successor runs at once (one catch-up at most) and any further slots already
// in the past are skipped and counted. Simulated time advances by exactly one dt per tick
// run, so an overloaded daemon slows simulated time instead of bunching ticks.
//
// Time comes from a TickClock (tick_clock.h): the io_context's steady clock in the daemon, a
// ManualTickClock in tests, which then run the schedule without sleeping.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <memory>

#include <boost/asio/io_context.hpp>

#include "logging.h"
#include "sim/simulation.h"
#include "stats_board.h"
#include "tick_clock.h"
#include "tick_stats.h"

namespace npc {

struct TickDriverOptions {
  double tick_hz = 10.0;           // [Limit: > 0]
  double status_interval_s = 5.0;  // status line period; 0 = no status line
};

struct TickHooks {
  std::function<void()> after_tick;             // tick thread: demo game, publish to clients
  std::function<void(DaemonStats&)> add_stats;  // tick thread: fill client counts
  std::function<void(const DaemonStats&, double tick_s)> observe;  // tick thread: metrics
};

class TickDriver {
 public:
  // Ticks on `io`'s thread by the steady clock.
  TickDriver(boost::asio::io_context& io, Simulation& sim, StatsBoard& board,
             const TickDriverOptions& options, TickHooks hooks);
  // Ticks by `clock` (which must outlive the driver), on whichever thread fires its timers.
  TickDriver(TickClock& clock, Simulation& sim, StatsBoard& board,
             const TickDriverOptions& options, TickHooks hooks);

  // Arms the timers; ticks start one period from now. Call before or while io runs.
  void start();
  // Cancels the timers. Call on the tick thread (post it): a tick in progress finishes.
  void stop();

  const TickStats& stats() const { return stats_; }
  // The line printed every status interval (also useful in tests).
  std::string statusLine() const;
  // Its figures, the fields of the status line in JSON logs (see logEvent).
  std::vector<LogField> statusFields() const;

 private:
  using Clock = TickClock;
  TickDriver(std::unique_ptr<TickClock> own_clock, TickClock* clock, Simulation& sim,
             StatsBoard& board, const TickDriverOptions& options, TickHooks hooks);
  void onTick();
  void onStatus();
  void scheduleNext();
  void publishStats();

  std::unique_ptr<TickClock> own_clock_;  // set by the io_context constructor only
  TickClock& clock_;
  Simulation& sim_;
  StatsBoard& board_;
  TickDriverOptions options_;
  TickHooks hooks_;
  Clock::Duration period_;
  Clock::Duration status_period_;
  std::unique_ptr<TickClock::Timer> tick_timer_;
  std::unique_ptr<TickClock::Timer> status_timer_;
  Clock::TimePoint tick_due_{};    // deadline of the armed tick (the schedule's grid)
  Clock::TimePoint status_due_{};
  TickStats stats_;
  bool running_ = false;

  // Rates over the last status interval.
  Clock::TimePoint rate_since_{};
  uint64_t rate_ticks_ = 0;
  uint64_t rate_actions_ = 0;
  double ticks_per_second_ = 0.0;
  double actions_per_second_ = 0.0;
  DaemonStats last_;
};

}  // namespace npc
