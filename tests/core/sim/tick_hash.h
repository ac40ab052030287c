// A hash of what ticks emitted (actions with their parameters, events with their texts), for
// tests that compare runs: same seed and inputs must give the same hash, tick by tick.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/simulation.h"

namespace npc::test {

// FNV-1a over the bytes given.
struct Fnv {
  uint64_t h = 1469598103934665603ull;
  void bytes(const void* p, size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  }
  template <class T>
  void add(const T& v) {
    bytes(&v, sizeof v);
  }
  void add(const std::string& s) { bytes(s.data(), s.size()); }
};

// Adds the last tick's output of `sim` to `fnv`.
inline void hashTickOutput(const Simulation& sim, Fnv& fnv) {
  for (const ActionOut& a : sim.output().actions) {
    fnv.add(raw(a.agent));
    fnv.add(raw(a.intention));
    fnv.add(sim.names().name(a.name));
    for (uint8_t i = 0; i < a.param_count; ++i) {
      fnv.add(a.params[i].number);
      fnv.add(a.params[i].position.x);
      fnv.add(a.params[i].position.y);
      fnv.add(raw(a.params[i].entity));
    }
  }
  for (const EventOut& e : sim.output().events) {
    fnv.add(static_cast<int>(e.kind));
    fnv.add(raw(e.agent));
    fnv.add(e.text);
  }
}

}  // namespace npc::test
