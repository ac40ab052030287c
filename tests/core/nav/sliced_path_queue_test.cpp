// SlicedPathQueue (core/nav/sliced_path_queue.h): walks too long for one query, searched a
// budget of iterations per tick, answered as one query with room enough would answer them,
// and the same search again after a restore or a mesh change.
#include "nav/sliced_path_queue.h"

#include <catch2/catch.hpp>

#include <vector>

#include "nav/level_geometry.h"
#include "nav/nav_mesh.h"
#include "nav/nav_query.h"
#include "nav/nav_tile_cache.h"
#include "nav/nav_tile_cache_builder.h"
#include "nav_test_support.h"

namespace npc::nav {
namespace {

// 3.2 m tiles: the walk round the wall's end opens hundreds of polygons.
NavBuildConfig smallTiles() {
  NavBuildConfig c;
  c.cell_size_m = 0.2f;
  c.tile_size_cells = 16;
  return c;
}

NavMesh buildSmallTiles(std::span<const Obstacle> obstacles = {}) {
  LevelGeometry geometry;
  REQUIRE(geometry.parseObj("level.obj", test::kLevelObj) == "");
  NavMesh mesh;
  REQUIRE(NavTileCacheBuilder(smallTiles()).build(geometry, obstacles, mesh) == "");
  return mesh;
}

void settle(NavMesh& mesh) {
  for (int i = 0; i < 1000 && !mesh.tileCache()->upToDate(); ++i) mesh.updateTiles(64);
  REQUIRE(mesh.tileCache()->upToDate());
}

// West of the wall to east of it: round its end at y 30.
const Vec3 kWest{10.f, 5.f, 0.f}, kEast{30.f, 5.f, 0.f};
// Across the only gap in the wall (x 19.5..20.5, open at y 30..40).
const Obstacle kDoor{ObstacleId{7}, {{18.f, 28.f, 0.f}, {22.f, 42.f, 3.f}}};

SlicedPathConfig slices(int iterations_per_tick) {
  SlicedPathConfig c;
  c.iterations_per_tick = iterations_per_tick;
  return c;
}

// Updates until `count` answers came (at most 10,000 ticks); returns the ticks it took.
int runUntil(SlicedPathQueue& queue, std::vector<SlicedPathAnswer>& done, size_t count) {
  int ticks = 0;
  while (done.size() < count && ticks < 10000) {
    queue.update(done);
    ++ticks;
  }
  REQUIRE(done.size() == count);
  return ticks;
}

}  // namespace

TEST_CASE("A long search answers over ticks what it answers in one slice") {
  NavMesh mesh = buildSmallTiles();
  NavQueryLimits tight;
  tight.max_nodes = 16;
  REQUIRE(NavQuery(mesh, tight).path(kWest, kEast).result == NavResult::kSearchLimit);
  SlicedPathQueue at_once(mesh, tight, slices(1 << 20));
  REQUIRE(at_once.request({3, 9, kWest, kEast}));
  std::vector<SlicedPathAnswer> whole;
  REQUIRE(runUntil(at_once, whole, 1) == 1);
  REQUIRE(whole[0].path.result == NavResult::kOk);

  SlicedPathQueue queue(mesh, tight, slices(16));
  REQUIRE(queue.request({3, 9, kWest, kEast}));
  std::vector<SlicedPathAnswer> done;
  const int ticks = runUntil(queue, done, 1);
  const SlicedPathAnswer& a = done[0];
  CHECK(ticks > 2);  // spread over ticks, 16 polygons each
  CHECK(a.iterations > 16 * (ticks - 1));
  CHECK(a.iterations <= 16 * ticks);
  CHECK(a.iterations == whole[0].iterations);
  CHECK(a.request.key == 3);
  CHECK(a.request.tag == 9);
  CHECK(a.path.result == NavResult::kOk);
  CHECK(a.path.length_m == whole[0].path.length_m);
  CHECK(a.path.corridor_polys == whole[0].path.corridor_polys);
  REQUIRE(a.corner_count >= 3);
  CHECK(a.corners[0].x == Approx(kWest.x).margin(0.1f));
  CHECK(queue.size() == 0);
  CHECK(queue.openIterations() == 0);

  // Round the wall's end like one query with room enough: Detour's sliced search and its
  // findPath are both A* over the polygons but not the same code, so the corridors (and
  // their string-pulled lengths) may differ a little.
  NavQueryLimits roomy;
  roomy.max_nodes = 65535;
  roomy.max_path_polys = 4096;
  const NavPath one_query = NavQuery(mesh, roomy).path(kWest, kEast);
  REQUIRE(one_query.result == NavResult::kOk);
  CHECK(a.path.length_m == Approx(one_query.length_m).epsilon(0.03));
  CHECK(a.path.length_m > 53.f);
}

TEST_CASE("Long searches answer in the order asked, within the budget of each tick") {
  NavMesh mesh = buildSmallTiles();
  SlicedPathQueue queue(mesh, NavQueryLimits{}, slices(20000));
  REQUIRE(queue.request({1, 1, kWest, kEast}));
  REQUIRE(queue.request({2, 1, kWest, {55.f, 5.f, 0.f}}));  // the island
  REQUIRE(queue.request({3, 1, kWest, {200.f, 200.f, 0.f}}));  // nowhere near the mesh
  std::vector<SlicedPathAnswer> done;
  const int spent = queue.update(done);
  REQUIRE(done.size() == 3);
  CHECK(done[0].request.key == 1);
  CHECK(done[0].path.result == NavResult::kOk);
  CHECK(done[1].request.key == 2);
  CHECK(done[1].path.result == NavResult::kUnreachable);
  CHECK(done[1].iterations > 0);  // it searched floor A through
  CHECK(done[2].request.key == 3);
  CHECK(done[2].path.result == NavResult::kOffMesh);
  CHECK(done[2].iterations == 0);
  CHECK(spent == done[0].iterations + done[1].iterations);
  CHECK(spent <= 20000);
}

TEST_CASE("A full queue refuses a request") {
  NavMesh mesh = buildSmallTiles();
  SlicedPathConfig two = slices(16);
  two.capacity = 2;
  SlicedPathQueue queue(mesh, NavQueryLimits{}, two);
  CHECK(queue.request({1, 1, kWest, kEast}));
  CHECK(queue.request({2, 1, kWest, kEast}));
  CHECK_FALSE(queue.request({3, 1, kWest, kEast}));
  CHECK(queue.size() == 2);
}

TEST_CASE("A later request of the same key takes the waiting one's place") {
  NavMesh mesh = buildSmallTiles();
  SlicedPathQueue queue(mesh, NavQueryLimits{}, slices(8));
  REQUIRE(queue.request({1, 1, kWest, kEast}));
  REQUIRE(queue.request({2, 1, kEast, kWest}));
  std::vector<SlicedPathAnswer> done;
  queue.update(done);
  REQUIRE(queue.openIterations() == 8);  // key 1's search is open
  REQUIRE(queue.request({2, 2, kEast, {12.f, 38.f, 0.f}}));  // key 2 again: in its place
  REQUIRE(queue.request({1, 2, kWest, {30.f, 35.f, 0.f}}));  // key 1 again: starts over
  CHECK(queue.size() == 2);
  CHECK(queue.waiting()[0].key == 1);
  CHECK(queue.waiting()[0].tag == 2);
  CHECK(queue.waiting()[1].tag == 2);
  queue.update(done);
  CHECK(queue.openIterations() == 8);  // the newer walk, one slice in
  runUntil(queue, done, 2);
  CHECK(done[0].request.tag == 2);
  CHECK(done[1].request.tag == 2);
  CHECK(done[0].path.result == NavResult::kOk);
}

TEST_CASE("A queue restored from its requests and open iterations answers as the live one") {
  NavMesh mesh = buildSmallTiles();
  SlicedPathQueue live(mesh, NavQueryLimits{}, slices(16));
  REQUIRE(live.request({1, 1, kWest, kEast}));
  REQUIRE(live.request({2, 2, kEast, {12.f, 38.f, 0.f}}));
  std::vector<SlicedPathAnswer> live_done;
  for (int i = 0; i < 3; ++i) live.update(live_done);
  REQUIRE(live_done.empty());
  REQUIRE(live.openIterations() == 48);

  SlicedPathQueue restored(mesh, NavQueryLimits{}, slices(16));
  restored.restore({live.waiting().begin(), live.waiting().end()}, live.openIterations());
  CHECK(restored.size() == 2);
  CHECK(restored.openIterations() == 48);
  std::vector<SlicedPathAnswer> restored_done;
  const int live_ticks = runUntil(live, live_done, 2);
  const int restored_ticks = runUntil(restored, restored_done, 2);
  CHECK(live_ticks == restored_ticks);
  for (size_t i = 0; i < 2; ++i) {
    INFO("answer " << i);
    CHECK(restored_done[i].request.key == live_done[i].request.key);
    CHECK(restored_done[i].path.result == live_done[i].path.result);
    CHECK(restored_done[i].path.length_m == live_done[i].path.length_m);
    CHECK(restored_done[i].iterations == live_done[i].iterations);
  }
}

TEST_CASE("A mesh change restarts the open search on the new mesh") {
  const Obstacle door[] = {kDoor};
  NavMesh mesh = buildSmallTiles(door);
  SlicedPathQueue queue(mesh, NavQueryLimits{}, slices(8));
  REQUIRE(queue.request({1, 1, kWest, kEast}));
  std::vector<SlicedPathAnswer> done;
  queue.update(done);
  REQUIRE(done.empty());
  REQUIRE(queue.openIterations() == 8);
  // The door goes while the search is open: the polygons it opened may be gone with the
  // rebuilt tiles, and the walk round the wall's end is open now.
  REQUIRE(mesh.tileCache()->remove(kDoor.id));
  settle(mesh);
  queue.update(done);
  CHECK(queue.openIterations() == 8);  // started again, one slice in
  runUntil(queue, done, 1);
  CHECK(done[0].path.result == NavResult::kOk);
  CHECK(done[0].path.length_m > 53.f);
}

}  // namespace npc::nav
