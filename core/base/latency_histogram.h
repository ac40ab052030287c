// LatencyHistogram: how long something took, counted into fixed buckets without allocating
// (the tick records into it; a reader copies it and turns the growth into a Prometheus
// histogram). Bounds span 5 µs to 100 ms: a planner search, a query, a phase.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace npc {

struct LatencyHistogram {
  // Upper bounds (inclusive) of the buckets in nanoseconds; one more bucket counts the rest.
  static constexpr std::array<uint64_t, 13> kBoundsNs = {
      5'000,     10'000,     25'000,     50'000,     100'000,    250'000,   500'000,
      1'000'000, 2'500'000,  5'000'000,  10'000'000, 25'000'000, 100'000'000};
  static constexpr size_t kBuckets = kBoundsNs.size() + 1;

  std::array<uint64_t, kBuckets> counts{};  // per bucket, not cumulative
  uint64_t total = 0;
  uint64_t sum_ns = 0;

  void record(uint64_t ns) {
    size_t i = 0;
    while (i < kBoundsNs.size() && ns > kBoundsNs[i]) ++i;
    ++counts[i];
    ++total;
    sum_ns += ns;
  }
};

}  // namespace npc
