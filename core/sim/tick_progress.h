// TickProgress: where the tick thread is right now — the tick, when it began, its phase and
// the agent it works on — published through relaxed atomics so that a watchdog on another
// thread can say where a stuck tick hangs without ever making the tick wait.
//
// Thread safety: written by the tick thread only; read() from any thread. A snapshot may mix
// values of two consecutive moments (phase of one agent, agent id of the next): it is a
// diagnostic, not a synchronisation. Cost: one relaxed store per agent per phase.
#pragma once

#include <atomic>
#include <cstdint>

#include "sim/tick_phase.h"
#include "world/ids.h"

namespace npc {

class TickProgress {
 public:
  struct Snapshot {
    bool in_tick = false;     // false between ticks
    uint64_t tick = 0;        // the tick running (or the last one run)
    uint64_t started_ns = 0;  // TickProfile clock reading when it began
    TickPhase phase = TickPhase::kIngest;
    EntityId agent = EntityId::kNone;  // kNone: not inside a per-agent loop
  };

  // Tick thread.
  void beginTick(uint64_t tick, uint64_t now_ns) {
    tick_.store(tick, std::memory_order_relaxed);
    started_ns_.store(now_ns, std::memory_order_relaxed);
    enterPhase(TickPhase::kIngest);
    in_tick_.store(true, std::memory_order_release);
  }
  void enterPhase(TickPhase phase) {
    agent_.store(0, std::memory_order_relaxed);
    phase_.store(static_cast<uint8_t>(phase), std::memory_order_relaxed);
  }
  void atAgent(EntityId id) { agent_.store(raw(id), std::memory_order_relaxed); }
  void endTick() { in_tick_.store(false, std::memory_order_release); }

  // Any thread.
  Snapshot read() const {
    Snapshot s;
    s.in_tick = in_tick_.load(std::memory_order_acquire);
    s.tick = tick_.load(std::memory_order_relaxed);
    s.started_ns = started_ns_.load(std::memory_order_relaxed);
    s.phase = static_cast<TickPhase>(phase_.load(std::memory_order_relaxed));
    s.agent = static_cast<EntityId>(agent_.load(std::memory_order_relaxed));
    return s;
  }

 private:
  std::atomic<bool> in_tick_{false};
  std::atomic<uint64_t> tick_{0};
  std::atomic<uint64_t> started_ns_{0};
  std::atomic<uint8_t> phase_{0};
  std::atomic<uint64_t> agent_{0};
};

}  // namespace npc
