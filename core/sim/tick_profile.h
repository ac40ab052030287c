// TickProfile: wall time spent in each phase of the last tick and since start, always on.
// The tick thread marks phase boundaries (Simulation::tick) and each agent it visits
// (TickProgress, for the watchdog); the server adds the emit phase it measures itself.
//
// Cost: one clock reading per phase boundary (8 per tick) and one relaxed store per agent
// per phase; nothing allocates. Percentile windows live with the reader (server/), which
// copies lastNs() after each tick.
//
// Determinism: the clock only measures, it never feeds the simulation. It is injectable so
// tests can drive it (a counter), and a test hook can make the tick stall at one agent.
#pragma once

#include <array>
#include <cstdint>
#include <functional>

#include "sim/tick_phase.h"
#include "sim/tick_progress.h"

namespace npc {

// Monotonic clock in nanoseconds.
using PhaseClock = uint64_t (*)();
uint64_t steadyClockNs();

class TickProfile {
 public:
  explicit TickProfile(PhaseClock clock = &steadyClockNs) : clock_(clock) {}

  // Tick thread, in this order once per tick: beginTick, enter (any phases, each at most
  // once), endTick. Entering a phase closes the one before it.
  void beginTick(uint64_t tick);
  void enter(TickPhase phase);
  void endTick();
  // The current phase's loop reached `agent` on worker `worker` (0: the tick thread),
  // published for the watchdog; see TickProgress for phases on the pool.
  void atAgent(EntityId agent, unsigned worker = 0) {
    progress_.atAgent(agent, worker);
    if (agent == stall_agent_) [[unlikely]] stall_hook_();
  }
  void workerDone(unsigned worker) { progress_.workerDone(worker); }
  // Adds time measured outside Simulation::tick (the server's emit) to the last tick.
  void add(TickPhase phase, uint64_t ns);

  // Durations of the last tick, per phase (0 for a phase that did not run) and in all
  // (beginTick to endTick, plus whatever add() contributed).
  uint64_t lastNs(TickPhase phase) const { return last_ns_[index(phase)]; }
  uint64_t lastTickNs() const { return last_tick_ns_; }
  // Sums since construction.
  uint64_t totalNs(TickPhase phase) const { return total_ns_[index(phase)]; }
  uint64_t ticks() const { return ticks_; }

  const TickProgress& progress() const { return progress_; }
  PhaseClock clock() const { return clock_; }
  uint64_t now() const { return clock_(); }
  void setClock(PhaseClock clock) { clock_ = clock; }

  // Fault injection for tests of the watchdog and of a bounded shutdown: `hook` runs on the
  // thread whose loop reaches `agent` (the tick thread, or a pool worker in a phase on the
  // pool), whenever a phase's loop reaches it (it may block). kNone removes it.
  void setStallHook(EntityId agent, std::function<void()> hook);

 private:
  void close(uint64_t now);

  PhaseClock clock_;
  TickProgress progress_;
  std::array<uint64_t, kTickPhaseCount> last_ns_{};
  std::array<uint64_t, kTickPhaseCount> total_ns_{};
  uint64_t last_tick_ns_ = 0;
  uint64_t ticks_ = 0;
  uint64_t tick_begin_ns_ = 0;
  uint64_t phase_begin_ns_ = 0;
  TickPhase phase_ = TickPhase::kIngest;
  bool open_ = false;  // a phase is being timed
  EntityId stall_agent_ = EntityId::kNone;
  std::function<void()> stall_hook_;
};

}  // namespace npc
