#include <algorithm>

#include <catch2/catch.hpp>

#include "world/world.h"

using namespace npc;

TEST_CASE("World places", "[world][places]") {
  World world;
  REQUIRE(world.addPlace("square", {{0, 0, -5}, {20, 20, 20}}));
  REQUIRE(world.addPlace("bakery", {{15, 15, -5}, {25, 25, 20}}));

  SECTION("Should refuse a duplicate place name") {
    REQUIRE_FALSE(world.addPlace("square", {{0, 0, 0}, {1, 1, 1}}));
  }
  SECTION("Should give the first place in definition order whose bounds contain a point") {
    REQUIRE(world.placeAt({1, 1, 0}) == world.findPlace("square"));
    REQUIRE(world.placeAt({16, 16, 0}) == world.findPlace("square"));  // overlap: first wins
    REQUIRE(world.placeAt({24, 24, 0}) == world.findPlace("bakery"));
    REQUIRE(world.placeAt({100, 0, 0}) == PlaceIndex::kNone);
    REQUIRE(world.place(PlaceIndex::kNone) == nullptr);
  }
}

TEST_CASE("World obstacles block rays by cover", "[world][obstacles]") {
  World world;
  world.upsertObstacle({ObstacleId{1}, {{4, -1, 0}, {5, 1, 3}}, Cover::kHard});
  world.upsertObstacle({ObstacleId{2}, {{2, -1, 0}, {3, 1, 3}}, Cover::kSoft});

  SECTION("Should report the nearest obstacle crossed and its cover") {
    auto hit = world.raycast({0, 0, 1}, {10, 0, 1});
    REQUIRE(hit);
    REQUIRE(hit->obstacle == ObstacleId{2});
    REQUIRE(hit->cover == Cover::kSoft);
    REQUIRE(hit->fraction == Approx(0.2f));
  }
  SECTION("Should report a clear line over the obstacles") {
    REQUIRE_FALSE(world.raycast({0, 0, 4}, {10, 0, 4}));
  }
  SECTION("Should not hit an obstacle beyond the segment's end") {
    REQUIRE_FALSE(world.raycast({0, 0, 1}, {1.5f, 0, 1}));
  }
  SECTION("Should replace an obstacle upserted again and forget a removed one") {
    world.upsertObstacle({ObstacleId{2}, {{2, -1, 0}, {3, 1, 3}}, Cover::kHard});
    REQUIRE(world.obstacles().size() == 2);
    REQUIRE(world.raycast({0, 0, 1}, {10, 0, 1})->cover == Cover::kHard);
    REQUIRE(world.removeObstacle(ObstacleId{2}));
    REQUIRE_FALSE(world.removeObstacle(ObstacleId{2}));
    REQUIRE(world.raycast({0, 0, 1}, {10, 0, 1})->obstacle == ObstacleId{1});
  }
}

TEST_CASE("World neighbour queries follow the entity table", "[world][spatial]") {
  World world;
  auto add = [&](uint64_t id, Vec3 p) {
    world.entities().get(world.entities().insert(EntityId{id}))->position = p;
    world.markMoved();
  };
  add(1, {0, 0, 0});
  add(2, {3, 0, 0});
  add(3, {50, 0, 0});
  world.refreshSpatialIndex();
  auto ids = [&](Vec3 c, float r) {
    uint32_t rows[16];
    const uint32_t n = world.queryRadius(c, r, rows);
    std::vector<uint64_t> out;
    for (uint32_t i = 0; i < n; ++i) out.push_back(raw(world.entities().rows()[rows[i]].id));
    std::sort(out.begin(), out.end());
    return out;
  };
  SECTION("Should find entities within the radius only") {
    REQUIRE(ids({0, 0, 0}, 5.f) == std::vector<uint64_t>{1, 2});
  }
  SECTION("Should see moves and removals after a refresh") {
    world.entities().get(EntityId{3})->position = {1, 1, 0};
    world.markMoved();
    world.entities().remove(EntityId{1});
    world.refreshSpatialIndex();
    REQUIRE(ids({0, 0, 0}, 5.f) == std::vector<uint64_t>{2, 3});
  }
}
