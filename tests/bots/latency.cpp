#include "latency.h"

#include <algorithm>

namespace npc::bots {

void LatencyBook::add(const LatencySample& sample, double measure_from_s, double measure_to_s) {
  base_ = std::min(base_, sample.offset_s);
  if (sample.actions == 0) return;
  window_.push_back(sample);
  if (sample.recv_s >= measure_from_s && sample.recv_s < measure_to_s) kept_.push_back(sample);
}

LatencySummary LatencyBook::takeWindow() {
  LatencySummary s = summarize(std::move(window_));
  window_.clear();
  return s;
}

LatencySummary LatencyBook::summarize(std::vector<LatencySample> samples) const {
  LatencySummary s;
  if (samples.empty() || !anchored()) return s;
  std::sort(samples.begin(), samples.end(),
            [](const LatencySample& a, const LatencySample& b) { return a.offset_s < b.offset_s; });
  for (const LatencySample& x : samples) s.actions += x.actions;
  // The smallest offset whose cumulative action count reaches q of the total.
  auto at = [&](double q) {
    const double want = q * static_cast<double>(s.actions);
    uint64_t seen = 0;
    for (const LatencySample& x : samples) {
      seen += x.actions;
      if (static_cast<double>(seen) >= want) return x.offset_s - base_;
    }
    return samples.back().offset_s - base_;
  };
  s.p50_s = at(0.50);
  s.p99_s = at(0.99);
  s.max_s = samples.back().offset_s - base_;
  return s;
}

}  // namespace npc::bots
