// Deterministic pseudo-random numbers. Every agent owns one stream seeded from
// (world seed, agent id), so results never depend on the order agents are updated in.
#pragma once

#include <cstdint>

namespace npc {

// SplitMix64: tiny state, passes BigCrush, and good for deriving seeds.
class Rng {
 public:
  explicit Rng(uint64_t seed = 0) : state_(seed) {}
  static Rng forStream(uint64_t world_seed, uint64_t stream_id) {
    Rng mix(world_seed ^ (stream_id * 0x9E3779B97F4A7C15ull));
    return Rng(mix.next());
  }

  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  // Uniform in [lo, hi).
  float range(float lo, float hi) { return lo + static_cast<float>(uniform()) * (hi - lo); }
  uint64_t state() const { return state_; }

 private:
  uint64_t state_;
};

}  // namespace npc
