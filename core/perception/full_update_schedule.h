// When an agent's full perception updates fall due: every `period` ticks, at a phase drawn
// from its id, so that neighbours with consecutive ids do not all update on the same tick.
// Pure functions of (id, tick, period): whichever thread schedules an agent, and in whatever
// order, it gets the same ticks.
#pragma once

#include <cstdint>

#include "world/ids.h"

namespace npc {

// The agent's phase in [0, period): a well-mixed hash of its id (splitmix64's finalizer).
inline uint64_t fullUpdatePhase(EntityId id, uint64_t period) {
  uint64_t z = raw(id) + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return (z ^ (z >> 31)) % period;
}

// The first tick >= t whose remainder modulo period is phase.
inline uint64_t firstTickAtOrAfter(uint64_t t, uint64_t phase, uint64_t period) {
  return t + (phase + period - t % period) % period;
}

}  // namespace npc
