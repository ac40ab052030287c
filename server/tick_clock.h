// TickClock: where the tick driver gets "now" and its timers, so tests can drive it by hand
// (the way LevelDB's Env stands between the database and the OS).
//
// AsioTickClock is the daemon's: std::chrono::steady_clock and boost::asio::steady_timer on
// the io_context that runs the tick thread. ManualTickClock is for tests: time moves only
// when the test says so, and a timer fires only from runNext().
//
// Thread safety: none. A clock and its timers are used from one thread (the tick thread, or
// the test's).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include <boost/asio/io_context.hpp>

namespace npc {

class TickClock {
 public:
  using Duration = std::chrono::steady_clock::duration;
  using TimePoint = std::chrono::steady_clock::time_point;

  // A one-shot timer. Arming an armed timer replaces its deadline and callback; a cancelled
  // or replaced callback never runs. Destroying a timer cancels it.
  class Timer {
   public:
    virtual ~Timer() = default;
    virtual void armAt(TimePoint deadline, std::function<void()> fire) = 0;
    virtual void cancel() = 0;
  };

  virtual ~TickClock() = default;
  virtual TimePoint now() const = 0;
  virtual std::unique_ptr<Timer> makeTimer() = 0;
};

class AsioTickClock final : public TickClock {
 public:
  explicit AsioTickClock(boost::asio::io_context& io) : io_(io) {}
  TimePoint now() const override { return std::chrono::steady_clock::now(); }
  std::unique_ptr<Timer> makeTimer() override;

 private:
  boost::asio::io_context& io_;
};

// Starts at the epoch of steady_clock's time_point (TimePoint{}).
class ManualTickClock final : public TickClock {
 public:
  ManualTickClock() = default;
  ManualTickClock(const ManualTickClock&) = delete;
  ManualTickClock& operator=(const ManualTickClock&) = delete;
  ~ManualTickClock() override;

  TimePoint now() const override { return now_; }
  std::unique_ptr<Timer> makeTimer() override;

  // Time passes without any timer firing, as it does while the tick thread is busy.
  void advance(Duration d) { now_ += d; }
  // Fires the armed timer with the earliest deadline (ties: the one armed first), first
  // moving time to that deadline if it lies ahead. False when no timer is armed.
  bool runNext();

 private:
  class ManualTimer;
  friend class ManualTimer;
  TimePoint now_{};
  uint64_t next_order_ = 0;
  std::vector<ManualTimer*> timers_;  // every live timer, armed or not
};

}  // namespace npc
