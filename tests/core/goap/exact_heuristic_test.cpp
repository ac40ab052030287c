// ExactHeuristic (core/goap/exact_heuristic.h): h* by a backward Dijkstra over every
// transition of a small state space.
#include <catch2/catch.hpp>

#include "goap/exact_heuristic.h"

using namespace npc::goap;

TEST_CASE("The exact heuristic is the cheapest cost to a goal", "[goap][table]") {
  ExactHeuristicBuilder b;
  ExactHeuristic h;
  // 0 → 1 → 2 (goal) costs 1 + 1; 0 → 2 directly costs 5; 3 only reaches itself; 4 is a
  // second goal that 1 reaches for 0.5.
  b.clear(5);
  b.addGoal(2);
  b.addGoal(4);
  b.addEdge(0, 1, 1.f);
  b.addEdge(1, 2, 1.f);
  b.addEdge(0, 2, 5.f);
  b.addEdge(3, 3, 0.f);
  b.addEdge(1, 4, 0.5f);
  b.addEdge(1, 4, 0.5f);  // a duplicate changes nothing
  b.solve(h);
  SECTION("Should take the cheapest path to the nearest goal") {
    CHECK(h.h(0) == 1.5f);
    CHECK(h.steps(0) == 2);
    CHECK(h.h(1) == 0.5f);
    CHECK(h.h(2) == 0.f);
    CHECK(h.h(4) == 0.f);
  }
  SECTION("Should say infinity where no goal is reachable") {
    CHECK(h.h(3) == kInfiniteCost);
  }
  SECTION("Should start afresh on clear") {
    b.clear(3);
    b.addGoal(0);
    b.addEdge(2, 1, 0.f);
    b.addEdge(1, 0, 2.f);
    b.solve(h);
    CHECK(h.h(2) == 2.f);
    CHECK(h.steps(2) == 2);  // through the zero-cost edge
    CHECK(h.h(1) == 2.f);
    CHECK(h.h(0) == 0.f);
  }
}
