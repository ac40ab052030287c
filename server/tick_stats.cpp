#include "tick_stats.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace npc {

void TickStats::record(double duration_ms) {
  ring_[count_ % kWindow] = duration_ms;
  ++count_;
  ++ticks_;
}

double TickStats::percentileMs(double p) const {
  const size_t n = windowSize();
  if (n == 0) return 0.0;
  // Called by the status line and GetStats, not per tick: a copy and nth_element are fine.
  std::vector<double> values(ring_.begin(), ring_.begin() + static_cast<ptrdiff_t>(n));
  // Nearest-rank definition: the smallest value with at least p% of the window at or below.
  const double rank = std::ceil(std::clamp(p, 0.0, 100.0) / 100.0 * static_cast<double>(n));
  const size_t k = rank < 1.0 ? 0 : static_cast<size_t>(rank) - 1;
  std::nth_element(values.begin(), values.begin() + static_cast<ptrdiff_t>(k), values.end());
  return values[k];
}

}  // namespace npc
