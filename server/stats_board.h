// StatsBoard: the latest daemon-wide figures, written by the tick thread once per tick and
// read by any thread (GetStats, the status line). One mutex guards one small struct and the
// windows of recent tick and phase durations.
#pragma once

#include <array>
#include <cstdint>
#include <mutex>

#include "sim/simulation.h"
#include "tick_stats.h"

namespace npc {

// One tick phase's wall time over the last TickStats::kWindow ticks.
struct PhaseTiming {
  double p50_ms = 0.0;
  double p99_ms = 0.0;
};

struct DaemonStats {
  SimStats sim;
  double ticks_per_second = 0.0;  // measured over the last status interval
  double tick_p50_ms = 0.0;       // over the last TickStats::kWindow ticks (see load())
  double tick_p99_ms = 0.0;
  uint64_t tick_overruns = 0;
  uint64_t ticks_skipped = 0;
  uint32_t clients = 0;
  uint64_t clients_dropped = 0;
  std::array<PhaseTiming, kTickPhaseCount> phases{};  // by TickPhase, as of load()
  uint64_t tick_stalls = 0;  // ticks the watchdog reported running past its limit
  uint64_t errors_input = 0;    // error events sent to clients, ClientHub::ErrorKind::kInput
  uint64_t errors_refused = 0;  // and ClientHub::ErrorKind::kRefused
  uint64_t state_checksum = 0;  // after the last tick (state/state_checksum.h); 0: off
  uint64_t outbox_messages = 0;  // messages queued for all Connect streams together
  uint64_t outbox_max = 0;       // the fullest stream's outbox
  uint64_t leases_lost = 0;           // cluster: leases stopped without giving them up
  uint64_t lease_renew_failures = 0;  // cluster: renewals Redis did not answer
  uint64_t place_snapshots_written = 0;  // cluster: place snapshots Redis took
  uint64_t place_snapshots_failed = 0;   // cluster: not written (fenced off, or Redis away)
  uint64_t places_adopted = 0;           // cluster: places taken up from a snapshot
  uint64_t npcs_handed_over = 0;         // cluster: npcs that walked into places held elsewhere
  uint64_t npcs_arrived = 0;             // cluster: npcs adopted from arrivals streams
  uint64_t sounds_relayed = 0;           // cluster: sounds made here, sent to places held elsewhere
  uint64_t sounds_heard = 0;             // cluster: sounds relayed here from other nodes' places
  uint64_t signals_relayed = 0;          // cluster: the game's signals sent to places held elsewhere
  uint64_t signals_heard = 0;            // cluster: signals relayed here from other nodes
  uint64_t players_relayed = 0;          // cluster: players' states sent to places held elsewhere
  uint64_t players_visiting = 0;         // cluster: players' states relayed here (visitors)
  uint64_t inputs_recorded = 0;          // cluster: ticks' place inputs appended to their streams
  uint64_t inputs_dropped = 0;           // cluster: not appended (lease lost, or queue full)
  uint64_t inputs_replayed = 0;          // cluster: commands applied again after an adoption
};

class StatsBoard {
 public:
  void store(const DaemonStats& stats) {
    std::lock_guard lock(mutex_);
    stats_ = stats;
  }

  // One tick's duration (tick thread, every tick). Once ticks are recorded here, load()
  // reports percentiles computed at the time of the call, so GetStats is as fresh as the
  // last tick whatever the status line's period (which only sets how often it is printed).
  void recordTick(double duration_ms) {
    std::lock_guard lock(mutex_);
    ticks_.record(duration_ms);
  }

  // The last tick's phase durations (tick thread, every tick, after the emit phase).
  void recordPhases(const TickProfile& profile) {
    std::lock_guard lock(mutex_);
    for (TickPhase phase : kTickPhases) {
      phases_[index(phase)].record(static_cast<double>(profile.lastNs(phase)) / 1e6);
    }
  }

  DaemonStats load() const {
    DaemonStats stats;
    TickStats window;
    std::array<TickStats, kTickPhaseCount> phases;
    {
      std::lock_guard lock(mutex_);
      stats = stats_;
      window = ticks_;   // 8 KiB copy: the tick thread never waits for the sort below
      phases = phases_;  // 64 KiB, once per GetStats or status line
    }
    if (window.windowSize() > 0) {
      stats.tick_p50_ms = window.percentileMs(50);
      stats.tick_p99_ms = window.percentileMs(99);
    }
    for (size_t i = 0; i < kTickPhaseCount; ++i) {
      stats.phases[i] = {phases[i].percentileMs(50), phases[i].percentileMs(99)};
    }
    return stats;
  }

 private:
  mutable std::mutex mutex_;
  DaemonStats stats_;  // guarded by mutex_
  TickStats ticks_;    // guarded by mutex_; empty unless recordTick() is used
  std::array<TickStats, kTickPhaseCount> phases_;  // guarded by mutex_; by TickPhase
};

}  // namespace npc
