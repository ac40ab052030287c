// The perfect heuristic h* of a small planning problem: the cheapest cost from every state
// of a (projected) state space to a goal state, found by one backward Dijkstra over all of
// its transitions. The planner builds one for searches whose relevant facts fit in
// kMaxBits (planner_table.cpp); a node's h is then one lookup, with no per-search set-up.
// See core/goap/README.md ("Heuristic by problem size").
//
// States are indices [0, states). Edge costs must be ≥ 0. h() of a state that cannot reach
// a goal is kInfiniteCost.
//
// Memory: an ExactHeuristic is its two arrays (≤ 8 KB at kMaxBits); the builder's edges
// and heap are scratch that one builder reuses for every table it builds (after warm-up
// no allocation). Not thread-safe; one builder per planner.
#pragma once

#include <cstdint>
#include <vector>

#include "goap/goap_types.h"

namespace npc::goap {

class ExactHeuristic {
 public:
  static constexpr int kMaxBits = 10;  // [Limit: ≤ 1024 states]

  float h(uint32_t state) const { return h_[state]; }
  // Transitions on the cheapest path to a goal (the fewest among equally cheap ones): a
  // walk that always moves to a child one step nearer ends, even across zero-cost edges.
  uint32_t steps(uint32_t state) const { return steps_[state]; }

 private:
  friend class ExactHeuristicBuilder;
  std::vector<float> h_;
  std::vector<uint32_t> steps_;
};

class ExactHeuristicBuilder {
 public:
  // Starts a problem of `states` states, none a goal, no transitions.
  void clear(uint32_t states);
  void addGoal(uint32_t state) { goals_.push_back(state); }
  // A transition `from` → `to` costing `cost` (≥ 0); duplicates are harmless.
  void addEdge(uint32_t from, uint32_t to, float cost) { edges_.push_back({from, to, cost}); }
  // Computes h* for every state into `out` (after the goals and edges are in).
  void solve(ExactHeuristic& out);

 private:
  struct Edge {
    uint32_t from, to;
    float cost;
  };
  struct HeapItem {
    float cost;
    uint32_t steps, state;
  };
  uint32_t states_ = 0;
  std::vector<uint32_t> goals_;
  std::vector<Edge> edges_;
  std::vector<uint32_t> into_begin_;  // CSR of edges by `to`
  std::vector<Edge> into_;
  std::vector<HeapItem> heap_;
};

}  // namespace npc::goap
