#include "tick_clock.h"

#include <algorithm>

#include <boost/asio/steady_timer.hpp>

namespace npc {

namespace {

class AsioTimer final : public TickClock::Timer {
 public:
  explicit AsioTimer(boost::asio::io_context& io) : timer_(io) {}
  void armAt(TickClock::TimePoint deadline, std::function<void()> fire) override {
    timer_.expires_at(deadline);  // cancels a pending wait: its handler sees operation_aborted
    timer_.async_wait([fire = std::move(fire)](const boost::system::error_code& ec) {
      if (!ec) fire();
    });
  }
  void cancel() override { timer_.cancel(); }

 private:
  boost::asio::steady_timer timer_;
};

}  // namespace

std::unique_ptr<TickClock::Timer> AsioTickClock::makeTimer() {
  return std::make_unique<AsioTimer>(io_);
}

class ManualTickClock::ManualTimer final : public TickClock::Timer {
 public:
  explicit ManualTimer(ManualTickClock* clock) : clock_(clock) { clock_->timers_.push_back(this); }
  ~ManualTimer() override {
    if (!clock_) return;
    auto& timers = clock_->timers_;
    timers.erase(std::find(timers.begin(), timers.end(), this));
  }
  void armAt(TimePoint deadline, std::function<void()> fire) override {
    deadline_ = deadline;
    fire_ = std::move(fire);
    order_ = clock_ ? clock_->next_order_++ : 0;
  }
  void cancel() override { fire_ = nullptr; }

  ManualTickClock* clock_;
  TimePoint deadline_{};
  uint64_t order_ = 0;
  std::function<void()> fire_;
};

ManualTickClock::~ManualTickClock() {
  for (ManualTimer* t : timers_) t->clock_ = nullptr;
}

std::unique_ptr<TickClock::Timer> ManualTickClock::makeTimer() {
  return std::make_unique<ManualTimer>(this);
}

bool ManualTickClock::runNext() {
  ManualTimer* next = nullptr;
  for (ManualTimer* t : timers_) {
    if (!t->fire_) continue;
    if (!next || t->deadline_ < next->deadline_ ||
        (t->deadline_ == next->deadline_ && t->order_ < next->order_)) {
      next = t;
    }
  }
  if (!next) return false;
  now_ = std::max(now_, next->deadline_);
  // The callback may re-arm this timer: take it out first.
  std::function<void()> fire = std::move(next->fire_);
  next->fire_ = nullptr;
  fire();
  return true;
}

}  // namespace npc
