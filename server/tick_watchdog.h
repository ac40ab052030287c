// TickWatchdog: a thread outside the tick that watches the tick thread's progress marker
// (core/sim/tick_progress.h). A tick still running after `warn_budgets` tick periods is
// reported once — its number, how long it has run, its phase and the agent it is on — and
// counted (GetStats tick_stalls, npcd_tick_stalls_total). The tick never waits for it.
//
// Threads: check() and stalls() are safe from any thread; start()/stop() from one owner.
// The watchdog wakes every half budget, so a stall is seen within warn_budgets + 0.5 periods.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "sim/tick_profile.h"

namespace npc {

struct StallReport {
  uint64_t tick = 0;
  double elapsed_ms = 0.0;  // wall time since the tick began
  double budgets = 0.0;     // elapsed_ms in tick periods
  TickPhase phase = TickPhase::kIngest;
  EntityId agent = EntityId::kNone;  // kNone: between agents (e.g. inside perception)
  // "tick 42 has run 612 ms (6.1 budgets of 100 ms), in phase behavior at agent 1101"
  std::string text(double budget_ms) const;
};

class TickWatchdog {
 public:
  // `budget_s`: one tick period [Limit: > 0]; `warn_budgets`: periods a tick may run before
  // it is reported [Limit: > 0].
  TickWatchdog(const TickProfile& profile, double budget_s, double warn_budgets);
  ~TickWatchdog();
  TickWatchdog(const TickWatchdog&) = delete;
  TickWatchdog& operator=(const TickWatchdog&) = delete;

  // Looks at the marker once, at `now_ns` on the profile's clock. Returns a report the first
  // time the running tick is past the limit; nullopt otherwise (also for a tick already
  // reported).
  std::optional<StallReport> check(uint64_t now_ns);
  // Starts the watching thread: each new stall goes to `on_stall` (on that thread).
  void start(std::function<void(const StallReport&)> on_stall);
  void stop();  // idempotent; joins the thread

  uint64_t stalls() const { return stalls_.load(std::memory_order_relaxed); }
  double budgetMs() const { return static_cast<double>(budget_ns_) / 1e6; }
  // Where the tick is now, in words ("tick 7, phase behavior, agent 1101, running 3.2 s"),
  // for the bounded shutdown's last log line.
  std::string whereIsTheTick() const;

 private:
  const TickProfile& profile_;
  uint64_t budget_ns_;
  uint64_t limit_ns_;
  std::mutex check_mutex_;
  uint64_t reported_tick_ = 0;  // guarded by check_mutex_; ticks are numbered from 1
  std::atomic<uint64_t> stalls_{0};

  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;  // guarded by mutex_
  std::thread thread_;
};

}  // namespace npc
