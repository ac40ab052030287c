// The obstacle ray grid against a brute-force scan of every box.
#include <catch2/catch.hpp>

#include <vector>

#include "base/rng.h"
#include "perception/obstacle_index.h"

using namespace npc;

namespace {

SightBlock bruteSight(const std::vector<Obstacle>& obstacles, Vec3 a, Vec3 b) {
  SightBlock r = SightBlock::kClear;
  for (const Obstacle& o : obstacles) {
    if (!segmentEntersBox(a, b, o.box)) continue;
    if (o.cover == Cover::kHard) return SightBlock::kHardCover;
    r = SightBlock::kSoftCover;
  }
  return r;
}

std::vector<Obstacle> randomBoxes(size_t n, float extent, uint64_t seed) {
  Rng rng(seed);
  std::vector<Obstacle> out;
  for (size_t i = 0; i < n; ++i) {
    const Vec3 p{rng.range(-extent, extent), rng.range(-extent, extent), 0};
    const Vec3 s{rng.range(0.5f, 6.f), rng.range(0.5f, 6.f), rng.range(0.5f, 4.f)};
    const Cover cover = rng.uniform() < 0.3 ? Cover::kSoft : Cover::kHard;
    out.push_back({ObstacleId{i + 1}, {p, p + s}, cover});
  }
  return out;
}

}  // namespace

TEST_CASE("ObstacleIndex: matches a scan of every obstacle", "[perception][obstacles]") {
  const auto boxes = randomBoxes(800, 100.f, 11);
  ObstacleIndex index(8.f);
  index.rebuild(boxes);
  Rng rng(12);
  SECTION("Should classify hard, soft and clear lines exactly as the scan does") {
    int hard = 0, soft = 0, clear = 0;
    for (int i = 0; i < 5000; ++i) {
      const Vec3 a{rng.range(-120.f, 120.f), rng.range(-120.f, 120.f), rng.range(0.f, 3.f)};
      const Vec3 b = a + Vec3{rng.range(-50.f, 50.f), rng.range(-50.f, 50.f), rng.range(-1.f, 1.f)};
      const SightBlock expect = bruteSight(boxes, a, b);
      REQUIRE(index.lineOfSight(a, b).block == expect);
      hard += expect == SightBlock::kHardCover;
      soft += expect == SightBlock::kSoftCover;
      clear += expect == SightBlock::kClear;
    }
    REQUIRE(hard > 100);
    REQUIRE(soft > 100);
    REQUIRE(clear > 100);
  }
  SECTION("Should find the same nearest hit as World::raycast's scan") {
    for (int i = 0; i < 3000; ++i) {
      const Vec3 a{rng.range(-120.f, 120.f), rng.range(-120.f, 120.f), rng.range(0.f, 3.f)};
      const Vec3 b = a + Vec3{rng.range(-60.f, 60.f), rng.range(-60.f, 60.f), 0.f};
      std::optional<RayHit> expect;
      for (const Obstacle& o : boxes) {
        auto t = segmentEntersBox(a, b, o.box);
        if (t && (!expect || *t < expect->fraction ||
                  (*t == expect->fraction && o.id < expect->obstacle))) {
          expect = RayHit{o.id, o.cover, *t};
        }
      }
      const auto got = index.raycast(a, b);
      REQUIRE(got.has_value() == expect.has_value());
      if (got) {
        REQUIRE(got->obstacle == expect->obstacle);
        REQUIRE(got->fraction == expect->fraction);
      }
    }
  }
}

TEST_CASE("ObstacleIndex: edge cases", "[perception][obstacles]") {
  ObstacleIndex index(8.f);
  SECTION("Should report every line clear without obstacles") {
    index.rebuild({});
    REQUIRE(index.lineOfSight({0, 0, 1}, {10, 0, 1}).block == SightBlock::kClear);
    REQUIRE_FALSE(index.raycast({0, 0, 1}, {10, 0, 1}));
  }
  std::vector<Obstacle> boxes = {{ObstacleId{1}, {{4, -1, 0}, {5, 1, 3}}, Cover::kHard},
                                 {ObstacleId{2}, {{2, -1, 0}, {3, 1, 3}}, Cover::kSoft}};
  index.rebuild(boxes);
  SECTION("Should name the hard obstacle even behind soft cover") {
    const SightLine s = index.lineOfSight({0, 0, 1}, {10, 0, 1});
    REQUIRE(s.block == SightBlock::kHardCover);
    REQUIRE(s.obstacle == ObstacleId{1});
    REQUIRE(index.lineOfSight({0, 0, 1}, {3.5f, 0, 1}).block == SightBlock::kSoftCover);
  }
  SECTION("Should handle rays starting and ending outside the grid, and vertical rays") {
    REQUIRE(index.lineOfSight({-100, 0, 1}, {100, 0, 1}).block == SightBlock::kHardCover);
    REQUIRE(index.lineOfSight({-100, 50, 1}, {100, 50, 1}).block == SightBlock::kClear);
    REQUIRE(index.lineOfSight({4.5f, 0, 10}, {4.5f, 0, -1}).block == SightBlock::kHardCover);
    REQUIRE(index.lineOfSight({4.5f, 0, 10}, {4.5f, 0, 5}).block == SightBlock::kClear);
  }
  SECTION("Should forget a removed obstacle after a rebuild") {
    boxes.erase(boxes.begin());
    index.rebuild(boxes);
    REQUIRE(index.lineOfSight({0, 0, 1}, {10, 0, 1}).block == SightBlock::kSoftCover);
  }
  SECTION("Should grow its cells rather than exceed max_cells for a huge world") {
    ObstacleIndex coarse(1.f, 100);
    std::vector<Obstacle> far = {{ObstacleId{1}, {{0, 0, 0}, {1, 1, 1}}, Cover::kHard},
                                 {ObstacleId{2}, {{999, 999, 0}, {1000, 1000, 1}}, Cover::kHard}};
    coarse.rebuild(far);
    REQUIRE(static_cast<size_t>(coarse.cellsX()) * coarse.cellsY() <= 100);
    REQUIRE(coarse.lineOfSight({-5, 0.5f, 0.5f}, {5, 0.5f, 0.5f}).block == SightBlock::kHardCover);
  }
}
