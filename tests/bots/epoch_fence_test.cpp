// EpochFence: actions from a node that lost a place (a lower epoch than one seen) are
// dropped, place by place; equal and higher epochs pass.
#include <catch2/catch.hpp>

#include "epoch_fence.h"

using npc::bots::EpochFence;

TEST_CASE("An action with an epoch below one seen for its place is stale", "[bots][cluster]") {
  EpochFence fence;
  CHECK(fence.accept("square", 1));
  CHECK(fence.accept("square", 1));  // the same holder goes on
  CHECK(fence.accept("square", 3));  // a new holder
  CHECK_FALSE(fence.accept("square", 1));  // the old one, late
  CHECK_FALSE(fence.accept("square", 2));
  CHECK(fence.accept("square", 3));
  SECTION("Places are fenced apart; alone (epoch 0) every action passes") {
    CHECK(fence.accept("bakery", 1));
    CHECK(fence.accept("forest", 0));
    CHECK(fence.accept("forest", 0));
  }
}
