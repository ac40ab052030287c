// TickProgress: where the tick thread is right now — the tick, when it began, its phase and
// the agent it works on — published through relaxed atomics so that a watchdog on another
// thread can say where a stuck tick hangs without ever making the tick wait.
//
// A phase that runs on the worker pool publishes one agent per worker: each worker writes its
// own slot (a cache line of its own) and clears it when its share is done, so the agent a
// snapshot names is one a worker is still on, the lowest worker's first — where a stuck
// tick hangs, whichever thread hangs.
//
// Thread safety: beginTick/enterPhase/endTick from the tick thread; slot w's atAgent and
// workerDone from worker w only (0: the tick thread); read() from any thread. A snapshot may
// mix values of two consecutive moments (phase of one agent, agent id of the next): it is a
// diagnostic, not a synchronisation. Cost: one relaxed store per agent per phase.
#pragma once

#include <array>
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
    for (Slot& slot : slots_) slot.agent.store(0, std::memory_order_relaxed);
    phase_.store(static_cast<uint8_t>(phase), std::memory_order_relaxed);
  }
  void endTick() { in_tick_.store(false, std::memory_order_release); }

  // Worker `worker` of the phase's loop (0: the tick thread) reached `id`; workers past
  // kMaxWorkers share the last slot.
  void atAgent(EntityId id, unsigned worker = 0) {
    slots_[slotOf(worker)].agent.store(raw(id), std::memory_order_relaxed);
  }
  // Worker `worker` finished its share of the phase's agents.
  void workerDone(unsigned worker) { slots_[slotOf(worker)].agent.store(0, std::memory_order_relaxed); }

  static constexpr unsigned kMaxWorkers = 16;

  // Any thread.
  Snapshot read() const {
    Snapshot s;
    s.in_tick = in_tick_.load(std::memory_order_acquire);
    s.tick = tick_.load(std::memory_order_relaxed);
    s.started_ns = started_ns_.load(std::memory_order_relaxed);
    s.phase = static_cast<TickPhase>(phase_.load(std::memory_order_relaxed));
    for (const Slot& slot : slots_) {
      const uint64_t agent = slot.agent.load(std::memory_order_relaxed);
      if (agent == 0) continue;
      s.agent = static_cast<EntityId>(agent);
      break;
    }
    return s;
  }

 private:
  struct alignas(64) Slot {
    std::atomic<uint64_t> agent{0};
  };
  static unsigned slotOf(unsigned worker) { return worker < kMaxWorkers ? worker : kMaxWorkers - 1; }

  std::atomic<bool> in_tick_{false};
  std::atomic<uint64_t> tick_{0};
  std::atomic<uint64_t> started_ns_{0};
  std::atomic<uint8_t> phase_{0};
  std::array<Slot, kMaxWorkers> slots_{};
};

}  // namespace npc
