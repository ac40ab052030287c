#include "tick_driver.h"

#include <cstdio>

#include <spdlog/spdlog.h>

#include "logging.h"

namespace npc {

TickDriver::TickDriver(boost::asio::io_context& io, Simulation& sim, StatsBoard& board,
                       const TickDriverOptions& options, TickHooks hooks)
    : TickDriver(std::make_unique<AsioTickClock>(io), nullptr, sim, board, options,
                 std::move(hooks)) {}

TickDriver::TickDriver(TickClock& clock, Simulation& sim, StatsBoard& board,
                       const TickDriverOptions& options, TickHooks hooks)
    : TickDriver(nullptr, &clock, sim, board, options, std::move(hooks)) {}

TickDriver::TickDriver(std::unique_ptr<TickClock> own_clock, TickClock* clock, Simulation& sim,
                       StatsBoard& board, const TickDriverOptions& options, TickHooks hooks)
    : own_clock_(std::move(own_clock)),
      clock_(clock ? *clock : *own_clock_),
      sim_(sim),
      board_(board),
      options_(options),
      hooks_(std::move(hooks)),
      period_(std::chrono::duration_cast<Clock::Duration>(
          std::chrono::duration<double>(1.0 / options.tick_hz))),
      // Rates are measured every second even when no status line is printed.
      status_period_(std::chrono::duration_cast<Clock::Duration>(std::chrono::duration<double>(
          options.status_interval_s > 0 ? options.status_interval_s : 1.0))),
      tick_timer_(clock_.makeTimer()),
      status_timer_(clock_.makeTimer()) {}

void TickDriver::start() {
  running_ = true;
  const auto now = clock_.now();
  rate_since_ = now;
  tick_due_ = now + period_;
  tick_timer_->armAt(tick_due_, [this] { onTick(); });
  status_due_ = now + status_period_;
  status_timer_->armAt(status_due_, [this] { onStatus(); });
}

void TickDriver::stop() {
  running_ = false;
  tick_timer_->cancel();
  status_timer_->cancel();
}

void TickDriver::onTick() {
  if (!running_) return;
  const auto begin = clock_.now();
  sim_.tick();
  // Whatever hands the output on (demo game, publishing to clients) is the emit phase.
  TickProfile& profile = sim_.profile();
  const uint64_t emit_begin = profile.now();
  if (hooks_.after_tick) hooks_.after_tick();
  profile.add(TickPhase::kEmit, profile.now() - emit_begin);
  const auto end = clock_.now();
  const double tick_ms = std::chrono::duration<double, std::milli>(end - begin).count();
  stats_.record(tick_ms);
  board_.recordPhases(profile);
  publishStats();
  if (hooks_.observe) hooks_.observe(last_, tick_ms / 1000.0);
  scheduleNext();
}

void TickDriver::scheduleNext() {
  auto next = tick_due_ + period_;
  const auto now = clock_.now();
  if (now > next) {
    ++stats_.overruns;
    if (now > next + period_) {
      const auto behind = (now - next) / period_;  // whole slots already in the past
      next += behind * period_;
      stats_.skipped += static_cast<uint64_t>(behind);
    }
    if (stats_.overruns == 1 || stats_.overruns % 100 == 0) {
      spdlog::warn(logEvent("tick overrun",
                            "tick overrun #" + std::to_string(stats_.overruns) + " at tick " +
                                std::to_string(sim_.tickCount()) + " (" +
                                std::to_string(stats_.skipped) + " slots skipped so far)",
                            {{"tick", sim_.tickCount()},
                             {"overruns", stats_.overruns},
                             {"slots_skipped", stats_.skipped}}));
    }
  }
  tick_due_ = next;
  tick_timer_->armAt(tick_due_, [this] { onTick(); });
}

void TickDriver::publishStats() {
  DaemonStats s;
  s.sim = sim_.stats();
  s.ticks_per_second = ticks_per_second_;
  s.tick_overruns = stats_.overruns;
  s.ticks_skipped = stats_.skipped;
  s.tick_p50_ms = last_.tick_p50_ms;
  s.tick_p99_ms = last_.tick_p99_ms;
  if (hooks_.add_stats) hooks_.add_stats(s);
  last_ = s;
  board_.store(s);
}

void TickDriver::onStatus() {
  if (!running_) return;
  const auto now = clock_.now();
  const double elapsed = std::chrono::duration<double>(now - rate_since_).count();
  const SimStats sim = sim_.stats();
  if (elapsed > 0) {
    ticks_per_second_ = static_cast<double>(stats_.ticks() - rate_ticks_) / elapsed;
    actions_per_second_ = static_cast<double>(sim.actions_emitted - rate_actions_) / elapsed;
  }
  rate_since_ = now;
  rate_ticks_ = stats_.ticks();
  rate_actions_ = sim.actions_emitted;
  last_.tick_p50_ms = stats_.percentileMs(50);
  last_.tick_p99_ms = stats_.percentileMs(99);
  last_.ticks_per_second = ticks_per_second_;
  board_.store(last_);
  if (options_.status_interval_s > 0) {
    spdlog::info(logEvent("status", statusLine(), statusFields()));
  }
  status_due_ += status_period_;
  status_timer_->armAt(status_due_, [this] { onStatus(); });
}

std::string TickDriver::statusLine() const {
  char line[640];
  std::snprintf(line, sizeof line,
                "tick %llu | %.1f ticks/s | agents %zu awake %zu (reduced %zu) asleep %zu | "
                "places awake %zu "
                "asleep %zu | tick p50 %.2f ms p99 %.2f ms | %.1f actions/s | clients %u | "
                "overruns %llu",
                static_cast<unsigned long long>(last_.sim.tick), ticks_per_second_,
                last_.sim.agents, last_.sim.agents_awake, last_.sim.agents_reduced,
                last_.sim.agents_asleep,
                last_.sim.places_awake, last_.sim.places_asleep,
                stats_.percentileMs(50), stats_.percentileMs(99), actions_per_second_,
                last_.clients, static_cast<unsigned long long>(stats_.overruns));
  std::string text = line;
  // p99 per phase over the board's window: where the tick's time goes.
  const DaemonStats board = board_.load();
  text += " | phase p99 ms";
  for (TickPhase phase : kTickPhases) {
    std::snprintf(line, sizeof line, " %s %.2f", std::string(tickPhaseName(phase)).c_str(),
                  board.phases[index(phase)].p99_ms);
    text += line;
  }
  return text;
}

std::vector<LogField> TickDriver::statusFields() const {
  std::vector<LogField> fields{{"tick", last_.sim.tick},
                               {"ticks_per_s", ticks_per_second_},
                               {"agents", last_.sim.agents},
                               {"agents_awake", last_.sim.agents_awake},
                               {"agents_asleep", last_.sim.agents_asleep},
                               {"agents_reduced", last_.sim.agents_reduced},
                               {"places_awake", last_.sim.places_awake},
                               {"places_asleep", last_.sim.places_asleep},
                               {"tick_p50_ms", stats_.percentileMs(50)},
                               {"tick_p99_ms", stats_.percentileMs(99)},
                               {"actions_per_s", actions_per_second_},
                               {"clients", last_.clients},
                               {"overruns", stats_.overruns}};
  const DaemonStats board = board_.load();
  for (TickPhase phase : kTickPhases) {
    fields.emplace_back("p99_ms_" + std::string(tickPhaseName(phase)),
                        board.phases[index(phase)].p99_ms);
  }
  return fields;
}

}  // namespace npc
