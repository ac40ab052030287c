#include "tick_watchdog.h"

#include <chrono>
#include <cstdio>

#include "base/thread_name.h"

namespace npc {

namespace {

std::string agentText(EntityId agent) {
  return agent == EntityId::kNone ? std::string("between agents")
                                  : "at agent " + std::to_string(raw(agent));
}

}  // namespace

std::string StallReport::text(double budget_ms) const {
  char line[200];
  std::snprintf(line, sizeof line, "tick %llu has run %.0f ms (%.1f budgets of %.0f ms), in phase %s ",
                static_cast<unsigned long long>(tick), elapsed_ms, budgets, budget_ms,
                std::string(tickPhaseName(phase)).c_str());
  return line + agentText(agent);
}

TickWatchdog::TickWatchdog(const TickProfile& profile, double budget_s, double warn_budgets)
    : profile_(profile),
      budget_ns_(static_cast<uint64_t>(budget_s * 1e9)),
      limit_ns_(static_cast<uint64_t>(budget_s * warn_budgets * 1e9)) {}

TickWatchdog::~TickWatchdog() { stop(); }

std::optional<StallReport> TickWatchdog::check(uint64_t now_ns) {
  const TickProgress::Snapshot s = profile_.progress().read();
  if (!s.in_tick || now_ns < s.started_ns || now_ns - s.started_ns < limit_ns_) return std::nullopt;
  {
    std::lock_guard lock(check_mutex_);
    if (s.tick == reported_tick_) return std::nullopt;
    reported_tick_ = s.tick;
  }
  stalls_.fetch_add(1, std::memory_order_relaxed);
  StallReport r;
  r.tick = s.tick;
  r.elapsed_ms = static_cast<double>(now_ns - s.started_ns) / 1e6;
  r.budgets = static_cast<double>(now_ns - s.started_ns) / static_cast<double>(budget_ns_);
  r.phase = s.phase;
  r.agent = s.agent;
  return r;
}

void TickWatchdog::start(std::function<void(const StallReport&)> on_stall) {
  stop();
  {
    std::lock_guard lock(mutex_);
    stopping_ = false;
  }
  thread_ = std::thread([this, on_stall = std::move(on_stall)] {
    setThreadName("npcd-watchdog");
    const auto period = std::chrono::nanoseconds(budget_ns_ / 2 > 0 ? budget_ns_ / 2 : 1);
    std::unique_lock lock(mutex_);
    while (!wake_.wait_for(lock, period, [this] { return stopping_; })) {
      if (auto report = check(profile_.now())) on_stall(*report);
    }
  });
}

void TickWatchdog::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::string TickWatchdog::whereIsTheTick() const {
  const TickProgress::Snapshot s = profile_.progress().read();
  if (!s.in_tick) return "between ticks (last tick " + std::to_string(s.tick) + ")";
  const uint64_t now = profile_.now();
  char line[160];
  std::snprintf(line, sizeof line, "tick %llu, phase %s, %s, running %.1f s",
                static_cast<unsigned long long>(s.tick), std::string(tickPhaseName(s.phase)).c_str(),
                agentText(s.agent).c_str(),
                now > s.started_ns ? static_cast<double>(now - s.started_ns) / 1e9 : 0.0);
  return line;
}

}  // namespace npc
