#include <catch2/catch.hpp>

#include "base/latency_histogram.h"

using npc::LatencyHistogram;

TEST_CASE("LatencyHistogram counts each duration in the first bucket that holds it", "[base]") {
  LatencyHistogram h;
  h.record(0);                 // the first bucket (<= 5 µs)
  h.record(5'000);             // bounds are inclusive
  h.record(5'001);             // the second (<= 10 µs)
  h.record(100'000'000);       // the last bounded one
  h.record(3'000'000'000ull);  // beyond every bound: the overflow bucket
  CHECK(h.counts[0] == 2);
  CHECK(h.counts[1] == 1);
  CHECK(h.counts[LatencyHistogram::kBuckets - 2] == 1);
  CHECK(h.counts[LatencyHistogram::kBuckets - 1] == 1);
  CHECK(h.total == 5);
  CHECK(h.sum_ns == 5'000 + 5'001 + 100'000'000 + 3'000'000'000ull);
  uint64_t counted = 0;
  for (uint64_t c : h.counts) counted += c;
  CHECK(counted == h.total);
}
