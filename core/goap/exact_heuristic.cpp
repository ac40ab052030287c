#include "goap/exact_heuristic.h"

#include <algorithm>

namespace npc::goap {

void ExactHeuristicBuilder::clear(uint32_t states) {
  states_ = states;
  goals_.clear();
  edges_.clear();
}

void ExactHeuristicBuilder::solve(ExactHeuristic& out) {
  std::vector<float>& h = out.h_;
  std::vector<uint32_t>& steps = out.steps_;
  h.assign(states_, kInfiniteCost);
  steps.assign(states_, 0xffffffffu);
  // Edges grouped by their end, so the backward search walks them from the goal outwards.
  into_begin_.assign(states_ + 1, 0);
  for (const Edge& e : edges_) ++into_begin_[e.to + 1];
  for (size_t s = 1; s <= states_; ++s) into_begin_[s] += into_begin_[s - 1];
  into_.resize(edges_.size());
  for (const Edge& e : edges_) into_[into_begin_[e.to]++] = e;
  for (size_t s = states_; s > 0; --s) into_begin_[s] = into_begin_[s - 1];
  into_begin_[0] = 0;

  // Least (cost, steps) first.
  auto greater = [](const HeapItem& a, const HeapItem& b) {
    return a.cost > b.cost || (a.cost == b.cost && a.steps > b.steps);
  };
  heap_.clear();
  for (uint32_t g : goals_) {
    h[g] = 0.f;
    steps[g] = 0;
    heap_.push_back({0.f, 0, g});
  }
  std::make_heap(heap_.begin(), heap_.end(), greater);
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), greater);
    const HeapItem item = heap_.back();
    heap_.pop_back();
    if (item.cost != h[item.state] || item.steps != steps[item.state]) continue;  // stale
    for (uint32_t k = into_begin_[item.state]; k < into_begin_[item.state + 1]; ++k) {
      const Edge& e = into_[k];
      const float c = item.cost + e.cost;
      const uint32_t st = item.steps + 1;
      if (c < h[e.from] || (c == h[e.from] && st < steps[e.from])) {
        h[e.from] = c;
        steps[e.from] = st;
        heap_.push_back({c, st, e.from});
        std::push_heap(heap_.begin(), heap_.end(), greater);
      }
    }
  }
}

}  // namespace npc::goap
