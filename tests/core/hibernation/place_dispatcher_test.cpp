#include <catch2/catch.hpp>

#include "hibernation/place_dispatcher.h"

using namespace npc;

TEST_CASE("PlaceDispatcher moves quiet places towards sleep", "[hibernation][dispatcher]") {
  HibernationConfig config;
  config.quiet_s = 10;
  PlaceDispatcher d(config);
  d.resize(2, 0.0);
  const auto a = PlaceIndex{0}, b = PlaceIndex{1};

  SECTION("Should drain a place only after the quiet period") {
    d.noteActivity(a, 5.0);
    REQUIRE(d.beginDraining(9.9) == 0);
    REQUIRE(d.beginDraining(10.0) == 1);  // b: quiet since 0
    REQUIRE(d.state(b) == PlaceState::kDraining);
    REQUIRE(d.state(a) == PlaceState::kAwake);
    REQUIRE(d.beginDraining(15.0) == 1);
    REQUIRE(d.state(a) == PlaceState::kDraining);
  }
  SECTION("Should return a draining place to awake on activity, and say which") {
    d.beginDraining(20.0);
    d.noteActivity(a, 20.5);
    std::vector<PlaceIndex> resumed;
    d.takeResumed(20.6, resumed);
    REQUIRE(resumed == std::vector<PlaceIndex>{a});
    REQUIRE(d.state(a) == PlaceState::kAwake);
    REQUIRE(d.state(b) == PlaceState::kDraining);  // still quiet
    resumed.clear();
    d.takeResumed(20.7, resumed);
    REQUIRE(resumed.empty());  // told once
  }
  SECTION("Should keep sleeping places asleep on activity, until woken") {
    d.setAsleep(a, 30.0);
    d.noteActivity(a, 31.0);
    REQUIRE(d.asleep(a));
    REQUIRE(d.count(PlaceState::kAsleep) == 1);
    d.setAwake(a, 32.0);
    REQUIRE(d.state(a) == PlaceState::kAwake);
    REQUIRE(d.lastActivity(a) == 32.0);
  }
  SECTION("Should hand out scheduled wakes when due, earliest first") {
    d.scheduleWake(a, 50.0);
    d.scheduleWake(a, 40.0);
    std::vector<PlaceIndex> due;
    d.takeDueWakes(39.0, due);
    REQUIRE(due.empty());
    d.takeDueWakes(40.0, due);
    REQUIRE(due == std::vector<PlaceIndex>{a});
    due.clear();
    d.takeDueWakes(60.0, due);
    REQUIRE(due.empty());
  }
  SECTION("Should never drain when disabled") {
    HibernationConfig off;
    off.enabled = false;
    PlaceDispatcher never(off);
    never.resize(1, 0.0);
    REQUIRE(never.beginDraining(1e9) == 0);
  }
}
