// A hash of what ticks emitted (actions with their parameters, events with their texts), for
// tests that compare runs: same seed and inputs must give the same hash, tick by tick.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/simulation.h"

namespace npc::test {

// A running hash of ticks' outputs, chained tick after tick.
struct Fnv {
  uint64_t h = kOutputHashSeed;
};

// Adds the last tick's output of `sim` to `fnv` (core/sim/tick_output.h).
inline void hashTickOutput(const Simulation& sim, Fnv& fnv) {
  fnv.h = npc::hashTickOutput(sim.output(), sim.names(), fnv.h);
}

}  // namespace npc::test
