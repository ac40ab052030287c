// PathCostCache (core/nav/path_cost_cache.h): a repeated walk is answered from the cache with
// exactly the query's result; a new mesh or a tile invalidation forgets it.
#include <catch2/catch.hpp>

#include "nav/nav_query.h"
#include "nav/path_cost_cache.h"
#include "nav_test_support.h"

using namespace npc;
using namespace npc::nav;
using namespace npc::nav::test;

TEST_CASE("PathCostCache answers a repeated walk without asking Detour again") {
  NavMesh mesh = buildMesh(kLevelObj);
  NavQuery query(mesh);
  PathCostCache cache;
  const NavPath first = cache.path(query, {10, 5, 0}, {30, 5, 0});
  const NavPath again = cache.path(query, {10, 5, 0}, {30, 5, 0});
  CHECK(cache.misses() == 1);
  CHECK(cache.hits() == 1);
  CHECK(again.result == first.result);
  CHECK(again.length_m == first.length_m);
  CHECK(again.length_m == query.path({10, 5, 0}, {30, 5, 0}).length_m);
  // A different endpoint, however close, is another walk.
  cache.path(query, {10, 5.001f, 0}, {30, 5, 0});
  CHECK(cache.misses() == 2);
  // Failures are remembered too.
  CHECK(cache.path(query, {10, 5, 0}, {55, 5, 0}).result == NavResult::kUnreachable);
  CHECK(cache.path(query, {10, 5, 0}, {55, 5, 0}).result == NavResult::kUnreachable);
  CHECK(cache.hits() == 2);
}

TEST_CASE("PathCostCache forgets what a changed mesh or tile may have changed") {
  NavMesh mesh = buildMesh(kLevelObj);
  PathCostCache cache;
  {
    NavQuery query(mesh);
    const NavPath p = cache.path(query, {10, 5, 0}, {30, 5, 0});
    SECTION("Should forget entries that start or end in an invalidated tile") {
      cache.invalidateTileOf(mesh, p.end.poly);
      cache.path(query, {10, 5, 0}, {30, 5, 0});
      CHECK(cache.misses() == 2);
    }
    SECTION("Should keep entries of other tiles") {
      NavPoint far;  // floor B: another tile than both ends
      REQUIRE(query.nearestPoint({55, 5, 0}, far) == NavResult::kOk);
      cache.invalidateTileOf(mesh, far.poly);
      cache.path(query, {10, 5, 0}, {30, 5, 0});
      CHECK(cache.misses() == 1);
    }
  }
  SECTION("Should start afresh on another mesh") {
    NavMesh other = buildMesh(kFloorsObj);  // no wall: a straight walk
    NavQuery query(other);
    const NavPath p = cache.path(query, {10, 5, 0}, {30, 5, 0});
    CHECK(cache.misses() == 2);
    CHECK(p.length_m == Approx(20.f).margin(0.3f));
  }
}
