// world/limits: the world's bounds and the texts of bound errors clients and designers read.
#include <limits>

#include <catch2/catch.hpp>

#include "world/limits.h"

using namespace npc;

TEST_CASE("WorldBounds names the coordinate outside and the bounds", "[world][bounds]") {
  const WorldBounds bounds;  // +-100 km, z -10..10 km

  SECTION("Should contain the origin and points on the edge") {
    REQUIRE(bounds.contains({0, 0, 0}));
    REQUIRE(bounds.contains({100000.f, -100000.f, 10000.f}));
    REQUIRE(bounds.outside({-100000.f, 100000.f, -10000.f}).empty());
  }
  SECTION("Should name the first coordinate outside, with the half extent") {
    REQUIRE(bounds.outside({3.4e38f, 3.4e38f, 0}) ==
            "x 3.4e+38 is outside the world bounds (+-100000 m)");
    REQUIRE(bounds.outside({0, -100001.f, 0}) ==
            "y -100001 is outside the world bounds (+-100000 m)");
    REQUIRE(bounds.outside({0, 0, -20000.f}) ==
            "z -20000 is outside the world bounds (-10000..10000 m)");
  }
  SECTION("Should treat NaN and infinities as outside") {
    REQUIRE_FALSE(bounds.contains({std::numeric_limits<float>::quiet_NaN(), 0, 0}));
    REQUIRE_FALSE(bounds.contains({0, 0, std::numeric_limits<float>::infinity()}));
  }
  SECTION("Should follow configured bounds") {
    const WorldBounds small{500.0, 0.0, 50.0};
    REQUIRE(small.outside({501.f, 0, 0}) == "x 501 is outside the world bounds (+-500 m)");
    REQUIRE(small.outside({0, 0, -1.f}) == "z -1 is outside the world bounds (0..50 m)");
  }
}

TEST_CASE("aboveMaximum states the bound, its unit and the value", "[world][bounds]") {
  REQUIRE(aboveMaximum(2000.0, kMaxSoundRadiusM, "m").empty());
  REQUIRE(aboveMaximum(1e30, kMaxSoundRadiusM, "m") == "must be at most 2000 m (got 1e+30)");
  REQUIRE(aboveMaximum(12.5, kMaxHearingScale, "") == "must be at most 10 (got 12.5)");
  REQUIRE(aboveMaximum(std::numeric_limits<double>::infinity(), 1.0, "s") ==
          "must be at most 1 s (got inf)");
  REQUIRE(aboveMaximum(std::numeric_limits<double>::quiet_NaN(), 1.0, "s").empty());
}
