// A hash of what ticks emitted (actions with their parameters, events with their texts), for
// tests that compare runs: same seed and inputs must give the same hash, tick by tick.
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

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

// The command-line parts of the tick-hash tools (npcd_tick_hash, npcd_bots_tick_hash).
// A whole number, all of `text`.
inline bool parseCount(std::string_view text, uint32_t& out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc{} && end == text.data() + text.size();
}
// Prints why and how to call `tool`; returns the exit code for bad arguments.
inline int usageError(const char* tool, const char* arguments, const char* why) {
  std::fprintf(stderr, "%s: %s\nusage: %s %s <ticks> <threads>\n", tool, why, tool, arguments);
  return 2;
}

}  // namespace npc::test
