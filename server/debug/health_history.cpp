#include "debug/health_history.h"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace npc {

HealthHistory::HealthHistory(size_t max_samples, Clock::duration period)
    : max_samples_(max_samples), period_(period) {}

void HealthHistory::observe(const DaemonStats& stats, double tick_s, Clock::time_point now,
                            const PhaseMs& phase_ms) {
  if (!started_) {
    started_ = true;
    start_ = window_start_ = now;
    last_actions_ = stats.sim.actions_emitted;
    last_errors_ = stats.sim.errors;
    last_plans_ = stats.sim.plans;
  }
  const double tick_ms = tick_s * 1000.0;
  window_sum_ms_ += tick_ms;
  window_max_ms_ = std::max(window_max_ms_, tick_ms);
  for (size_t i = 0; i < kTickPhaseCount; ++i) window_phase_ms_[i] += phase_ms[i];
  ++window_ticks_;
  if (now - window_start_ < period_) return;

  const double elapsed_s = std::chrono::duration<double>(now - window_start_).count();
  HealthSample s;
  s.t_s = std::chrono::duration<double>(now - start_).count();
  s.tick_mean_ms = window_sum_ms_ / window_ticks_;
  s.tick_max_ms = window_max_ms_;
  for (size_t i = 0; i < kTickPhaseCount; ++i) s.phase_mean_ms[i] = window_phase_ms_[i] / window_ticks_;
  s.ticks = window_ticks_;
  s.agents_awake = stats.sim.agents_awake;
  s.agents_asleep = stats.sim.agents_asleep;
  s.places_awake = stats.sim.places_awake;
  s.places_asleep = stats.sim.places_asleep;
  s.actions_per_s = static_cast<double>(stats.sim.actions_emitted - last_actions_) / elapsed_s;
  s.errors_per_s = static_cast<double>(stats.sim.errors - last_errors_) / elapsed_s;
  s.plans_per_s = static_cast<double>(stats.sim.plans - last_plans_) / elapsed_s;
  last_actions_ = stats.sim.actions_emitted;
  last_errors_ = stats.sim.errors;
  last_plans_ = stats.sim.plans;
  window_start_ = now;
  window_sum_ms_ = window_max_ms_ = 0.0;
  window_phase_ms_ = {};
  window_ticks_ = 0;

  std::lock_guard lock(mutex_);
  samples_.push_back(s);
  while (samples_.size() > max_samples_) samples_.pop_front();
}

nlohmann::json HealthHistory::json() const {
  nlohmann::json samples = nlohmann::json::array();
  std::lock_guard lock(mutex_);
  for (const HealthSample& s : samples_) {
    nlohmann::json phases = nlohmann::json::object();
    for (TickPhase phase : kTickPhases) phases[std::string(tickPhaseName(phase))] = s.phase_mean_ms[index(phase)];
    samples.push_back({{"t_s", s.t_s},
                       {"phase_mean_ms", std::move(phases)},
                       {"tick_mean_ms", s.tick_mean_ms},
                       {"tick_max_ms", s.tick_max_ms},
                       {"ticks", s.ticks},
                       {"agents_awake", s.agents_awake},
                       {"agents_asleep", s.agents_asleep},
                       {"places_awake", s.places_awake},
                       {"places_asleep", s.places_asleep},
                       {"actions_per_s", s.actions_per_s},
                       {"errors_per_s", s.errors_per_s},
                       {"plans_per_s", s.plans_per_s}});
  }
  nlohmann::json phases = nlohmann::json::array();  // in tick order (the samples' keys sort)
  for (TickPhase phase : kTickPhases) phases.push_back(tickPhaseName(phase));
  return {{"period_s", std::chrono::duration<double>(period_).count()},
          {"phases", std::move(phases)},
          {"samples", std::move(samples)}};
}

}  // namespace npc
