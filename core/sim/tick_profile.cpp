#include "sim/tick_profile.h"

#include <chrono>

namespace npc {

uint64_t steadyClockNs() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

void TickProfile::beginTick(uint64_t tick) {
  last_ns_.fill(0);
  last_tick_ns_ = 0;
  ++ticks_;
  tick_begin_ns_ = clock_();
  phase_begin_ns_ = tick_begin_ns_;
  phase_ = TickPhase::kIngest;
  open_ = true;
  progress_.beginTick(tick, tick_begin_ns_);
}

void TickProfile::enter(TickPhase phase) {
  const uint64_t now = clock_();
  close(now);
  phase_ = phase;
  phase_begin_ns_ = now;
  open_ = true;
  progress_.enterPhase(phase);
}

void TickProfile::endTick() {
  const uint64_t now = clock_();
  close(now);
  last_tick_ns_ = now - tick_begin_ns_;
  progress_.endTick();
}

void TickProfile::add(TickPhase phase, uint64_t ns) {
  last_ns_[index(phase)] += ns;
  total_ns_[index(phase)] += ns;
  last_tick_ns_ += ns;
}

void TickProfile::close(uint64_t now) {
  if (!open_) return;
  const uint64_t spent = now - phase_begin_ns_;
  last_ns_[index(phase_)] += spent;
  total_ns_[index(phase_)] += spent;
  open_ = false;
}

void TickProfile::setStallHook(EntityId agent, std::function<void()> hook) {
  stall_agent_ = hook ? agent : EntityId::kNone;
  stall_hook_ = std::move(hook);
}

}  // namespace npc
