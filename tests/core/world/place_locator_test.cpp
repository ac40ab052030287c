// PlaceLocator: the same answer as trying every place in order (the first place whose
// bounds contain the point), on random overlapping places, while places are added.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "world/place_locator.h"
#include "world/world.h"

using namespace npc;

namespace {

PlaceIndex scan(const std::vector<Place>& places, Vec3 p) {
  for (size_t i = 0; i < places.size(); ++i) {
    if (places[i].bounds.contains(p)) return static_cast<PlaceIndex>(i);
  }
  return PlaceIndex::kNone;
}

}  // namespace

TEST_CASE("PlaceLocator: the first containing place, as a scan finds it", "[world][places]") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> coord(-500.f, 500.f), size(1.f, 120.f), height(-5.f, 30.f);
  std::vector<Place> places;
  PlaceLocator locator;
  size_t checked = 0, inside = 0;
  // Adding one at a time: below the grid's threshold, at each rebuild and in the tails.
  for (int n = 0; n < 300; ++n) {
    const Vec3 c{coord(rng), coord(rng), 0.f};
    const float w = size(rng), d = size(rng);
    // Every tenth place is a big one that overlaps many; z ranges differ (floors).
    const float k = n % 10 == 0 ? 6.f : 1.f;
    const float z0 = height(rng);
    places.push_back({"p" + std::to_string(n),
                      Aabb{{c.x - k * w, c.y - k * d, z0}, {c.x + k * w, c.y + k * d, z0 + 10.f}}});
    locator.update(places);
    for (int q = 0; q < 200; ++q) {
      const Vec3 p{coord(rng) * 1.2f, coord(rng) * 1.2f, height(rng)};
      const PlaceIndex expected = scan(places, p);
      REQUIRE(locator.find(places, p) == expected);
      ++checked;
      inside += expected != PlaceIndex::kNone;
    }
  }
  REQUIRE(locator.gridded() >= 128);  // the grid was used, not only the scan
  REQUIRE(locator.gridded() < places.size() + 1);
  REQUIRE(inside > checked / 10);     // the points did land in places
  SECTION("Should find no place for a NaN or a point outside every place") {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    CHECK(locator.find(places, {nan, 0.f, 0.f}) == PlaceIndex::kNone);
    CHECK(locator.find(places, {0.f, nan, 0.f}) == PlaceIndex::kNone);
    CHECK(locator.find(places, {1e5f, 1e5f, 0.f}) == PlaceIndex::kNone);
  }
  SECTION("Should find points on a place's edges and corners") {
    for (size_t i = 0; i < places.size(); i += 7) {
      const Aabb& b = places[i].bounds;
      for (const Vec3 p : {b.min, b.max, Vec3{b.min.x, b.max.y, b.min.z}}) {
        REQUIRE(locator.find(places, p) == scan(places, p));
        REQUIRE(locator.find(places, p) != PlaceIndex::kNone);
      }
    }
  }
}

TEST_CASE("World::placeAt keeps definition order among overlapping places", "[world][places]") {
  World world;
  // Twenty nested squares, the widest first: the widest always wins where they overlap.
  for (int i = 0; i < 20; ++i) {
    const float h = 100.f - static_cast<float>(i) * 4.f;
    REQUIRE(world.addPlace("ring" + std::to_string(i), Aabb{{-h, -h, -10.f}, {h, h, 10.f}}));
  }
  CHECK(world.placeAt({0.f, 0.f, 0.f}) == PlaceIndex{0});
  CHECK(world.placeAt({99.f, -99.f, 0.f}) == PlaceIndex{0});
  CHECK(world.placeAt({101.f, 0.f, 0.f}) == PlaceIndex::kNone);
  CHECK(world.placeAt({0.f, 0.f, 11.f}) == PlaceIndex::kNone);  // above every floor
}
