#include <catch2/catch.hpp>

#include "hibernation/sleeper_list.h"

using namespace npc;

namespace {

DormantAgent sleeper(uint64_t id) {
  DormantAgent d;
  d.body.id = static_cast<EntityId>(id);
  return d;
}

}  // namespace

TEST_CASE("SleeperList shares its rows with a capture and copies before it changes them",
          "[hibernation][sleepers]") {
  SleeperList list;
  REQUIRE(list.empty());
  REQUIRE(list.share() == nullptr);  // nothing to share
  list.edit().push_back(sleeper(1));
  list.edit().push_back(sleeper(2));

  SECTION("Should hand out its own rows, not a copy") {
    const SleeperList::Shared captured = list.share();
    REQUIRE(captured->data() == list.rows().data());
  }

  SECTION("Should leave a capture's rows as they were when the list changes") {
    const SleeperList::Shared captured = list.share();
    list.edit()[0].body.owner = ClientId::kUnowned;
    list.edit().push_back(sleeper(3));
    REQUIRE(captured->size() == 2);
    REQUIRE(captured->front().body.owner != ClientId::kUnowned);
    REQUIRE(list.size() == 3);
    REQUIRE(list.rows().data() != captured->data());
    REQUIRE(list[0].body.owner == ClientId::kUnowned);
  }

  SECTION("Should copy once per capture, then change its own rows in place") {
    const SleeperList::Shared captured = list.share();
    const DormantAgent* copied = list.edit().data();
    REQUIRE(copied != captured->data());
    REQUIRE(list.edit().data() == copied);
  }

  SECTION("Should copy even when the capture is gone: a frozen row is never written") {
    const DormantAgent* before = list.rows().data();
    list.share().reset();
    REQUIRE(list.edit().data() != before);
  }

  SECTION("Should give its rows away when the place wakes, a capture keeping its own") {
    const SleeperList::Shared captured = list.share();
    const std::vector<DormantAgent> woken = list.take();
    REQUIRE(woken.size() == 2);
    REQUIRE(list.empty());
    REQUIRE(captured->size() == 2);
    list.edit().push_back(sleeper(4));
    REQUIRE(captured->size() == 2);
  }

  SECTION("Should move its rows out when no capture holds them") {
    const DormantAgent* before = list.rows().data();
    const std::vector<DormantAgent> woken = list.take();
    REQUIRE(woken.data() == before);
    REQUIRE(list.capacityBytes() == 0);
  }
}
