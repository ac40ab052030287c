// Navigation benchmarks (core/nav): path-length query latency (p50/p99 over random pairs,
// as counters) on the demo village and on a generated town of 2.56 km², navmesh build time
// and memory, and what the planner pays for reachability. Figures in core/nav/README.md.
// Printed, never gated on.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include <benchmark/benchmark.h>

#include "base/rng.h"
#include "goap/domain.h"
#include "goap/planner.h"
#include "goap/smart_objects.h"
#include "nav/level_geometry.h"
#include "nav/nav_config.h"
#include "nav/nav_mesh.h"
#include "nav/nav_mesh_builder.h"
#include "nav/nav_query.h"
#include "nav/nav_tile_cache.h"
#include "nav/nav_tile_cache_builder.h"
#include "nav/path_cost_cache.h"
#include "nav/sliced_path_queue.h"
#include "sim/nav_reachability.h"
#include "sim/world_file.h"
#include "world/world.h"

using namespace npc;
using namespace npc::nav;

namespace {

// A flat ground of side_m square (Y up: world y is OBJ -z), two triangles.
LevelGeometry ground(float x0, float y0, float x1, float y1) {
  LevelGeometry g;
  const int a = g.addVertex(x0, 0, -y0), b = g.addVertex(x1, 0, -y0), c = g.addVertex(x1, 0, -y1),
            d = g.addVertex(x0, 0, -y1);
  g.addTriangle(a, b, c);
  g.addTriangle(a, c, d);
  return g;
}

struct Scene {
  NavMesh mesh;
  NavBuildStats stats;
  double build_s = 0;
  Aabb area;  // where query endpoints are drawn
};

// The demo village exactly as npcd builds it from config/demo.json: a tile cache, the
// obstacle boxes as its obstacles.
Scene& demoScene() {
  static const std::unique_ptr<Scene> scene = [] {
    auto s = std::make_unique<Scene>();
    WorldFile world;
    std::vector<std::string> errors;
    if (!loadWorldFile(NPCD_SOURCE_DIR "/config/demo.json", world, errors)) std::abort();
    const auto t0 = std::chrono::steady_clock::now();
    if (!makeNavMesh(world.navmesh, world.obstacles, s->mesh).empty()) std::abort();
    s->build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    s->stats.tiles_built = s->mesh.tileCount();
    s->stats.polygons = s->mesh.polygonCount();
    s->area = {{-90, -40, 0}, {80, 60, 0}};
    return s;
  }();
  return *scene;
}

// A town of 1.6 km x 1.6 km: 32 x 32 blocks of 40 m houses on 10 m streets. The houses are
// blockers baked into a mesh that never changes or, with a tile cache, its obstacles (any
// could move or go), as a world file with obstacles_block builds them: 1,024 boxes cut
// into 4-9 pieces each.
std::unique_ptr<Scene> makeTown(bool tile_cache) {
  auto s = std::make_unique<Scene>();
  const float side = 1600.f, pitch = 50.f, house = 40.f;
  const LevelGeometry g = ground(0, 0, side, side);
  std::vector<Obstacle> houses;
  for (float x = 10.f; x + house < side; x += pitch)
    for (float y = 10.f; y + house < side; y += pitch)
      houses.push_back({ObstacleId{houses.size() + 1}, {{x, y, 0}, {x + house, y + house, 8}}});
  std::vector<Aabb> boxes;
  for (const Obstacle& o : houses) boxes.push_back(o.box);
  NavBuildConfig c;
  c.cell_size_m = 0.5f;
  c.tile_size_cells = 64;
  c.max_obstacles = 16384;
  const auto t0 = std::chrono::steady_clock::now();
  const std::string e = tile_cache ? NavTileCacheBuilder(c).build(g, houses, s->mesh, &s->stats)
                                   : NavMeshBuilder(c).build(g, boxes, s->mesh, &s->stats);
  if (!e.empty()) std::abort();
  s->build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  s->area = {{0, 0, 0}, {side, side, 0}};
  return s;
}

const Scene& townScene() {
  static const std::unique_ptr<Scene> scene = makeTown(false);
  return *scene;
}

Scene& townCachedScene() {
  static const std::unique_ptr<Scene> scene = makeTown(true);
  return *scene;
}

// Random endpoint pairs snapped onto the mesh (deterministic).
std::vector<std::pair<Vec3, Vec3>> pairsOn(const Scene& s, NavQuery& q, int n, float max_m) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> ux(s.area.min.x, s.area.max.x), uy(s.area.min.y, s.area.max.y);
  std::uniform_real_distribution<float> off(-max_m, max_m);
  std::vector<std::pair<Vec3, Vec3>> out;
  while (static_cast<int>(out.size()) < n) {
    NavPoint a, b;
    const Vec3 pa{ux(rng), uy(rng), 0};
    if (q.nearestPoint(pa, a) != NavResult::kOk) continue;
    if (q.nearestPoint({pa.x + off(rng), pa.y + off(rng), 0}, b) != NavResult::kOk) continue;
    out.push_back({a.position, b.position});
  }
  return out;
}

// Path queries over random pairs at most max_m apart on each axis; p50/p99 in microseconds.
void pathLatency(benchmark::State& state, const Scene& scene, float max_m) {
  NavQuery query(scene.mesh);
  const auto pairs = pairsOn(scene, query, 2000, max_m);
  std::vector<double> us;
  us.reserve(pairs.size() * 8);
  size_t i = 0, ok = 0;
  for (auto _ : state) {
    const auto& [a, b] = pairs[i++ % pairs.size()];
    const auto t0 = std::chrono::steady_clock::now();
    const NavPath p = query.path(a, b);
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    ok += p.result == NavResult::kOk;
    benchmark::DoNotOptimize(p.length_m);
  }
  std::sort(us.begin(), us.end());
  state.counters["p50_us"] = us[us.size() / 2];
  state.counters["p99_us"] = us[us.size() * 99 / 100];
  state.counters["found_pct"] = 100.0 * static_cast<double>(ok) / static_cast<double>(us.size());
}

void BM_PathDemo(benchmark::State& state) { pathLatency(state, demoScene(), 60.f); }
BENCHMARK(BM_PathDemo)->Iterations(20000);

void BM_PathTownNear(benchmark::State& state) { pathLatency(state, townScene(), 60.f); }
BENCHMARK(BM_PathTownNear)->Iterations(20000);

void BM_PathTownFar(benchmark::State& state) { pathLatency(state, townScene(), 400.f); }
BENCHMARK(BM_PathTownFar)->Iterations(5000);

// Long MoveTo checks: walks across the town that the tick's query gives up on (search_limit
// at its 2,048 polygons), searched on by a SlicedPathQueue at its default budget (4,096
// polygons a tick), the queue kept full. p50/p99 of one tick's update in microseconds, walks
// answered and polygons opened per tick, and the share of random walks that are long ones.
void BM_LongSearchTownTick(benchmark::State& state) {
  const Scene& town = townScene();
  NavQuery query(town.mesh);
  const auto pairs = pairsOn(town, query, 2000, 800.f);
  std::vector<std::pair<Vec3, Vec3>> walks;
  for (const auto& [a, b] : pairs)
    if (query.path(a, b).result == NavResult::kSearchLimit) walks.push_back({a, b});
  if (walks.empty()) {
    state.SkipWithError("no walk past the query's limit");
    return;
  }
  SlicedPathQueue queue(town.mesh, NavQueryLimits{}, SlicedPathConfig{});
  std::vector<SlicedPathAnswer> done;
  done.reserve(1024);
  std::vector<double> us;
  uint64_t next = 0;
  size_t answered = 0, found = 0;
  int64_t opened = 0;
  for (auto _ : state) {
    for (;; ++next) {
      const auto& [a, b] = walks[next % walks.size()];
      if (!queue.request({next, 0, a, b})) break;
    }
    done.clear();
    const auto t0 = std::chrono::steady_clock::now();
    opened += queue.update(done);
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    answered += done.size();
    for (const SlicedPathAnswer& a : done) found += a.path.result == NavResult::kOk;
  }
  std::sort(us.begin(), us.end());
  const double ticks = static_cast<double>(us.size());
  state.counters["p50_us"] = us[us.size() / 2];
  state.counters["p99_us"] = us[us.size() * 99 / 100];
  state.counters["walks_per_tick"] = static_cast<double>(answered) / ticks;
  state.counters["polys_per_tick"] = static_cast<double>(opened) / ticks;
  state.counters["found_pct"] = answered ? 100.0 * static_cast<double>(found) / static_cast<double>(answered) : 0.0;
  state.counters["long_walks_pct"] = 100.0 * static_cast<double>(walks.size()) / static_cast<double>(pairs.size());
}
BENCHMARK(BM_LongSearchTownTick)->Iterations(500);

// A planner re-pricing the same walks: every query after the first is a cache hit.
void BM_PathDemoCached(benchmark::State& state) {
  NavQuery query(demoScene().mesh);
  PathCostCache cache;
  const auto pairs = pairsOn(demoScene(), query, 64, 60.f);
  size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(cache.path(query, pairs[i % 64].first, pairs[i % 64].second)), ++i;
}
BENCHMARK(BM_PathDemoCached);

// A cart (2.5 x 1.5 m, 2 m high) moved to a random spot and applied, as a tick applies an
// UpsertObstacle: the tiles of its old place and of its new one rebuilt. p50/p99 in
// microseconds per move, tile layers rebuilt per move, the tile cache's memory.
void obstacleMove(benchmark::State& state, Scene& scene) {
  NavTileCache& cache = *scene.mesh.tileCache();
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> ux(scene.area.min.x, scene.area.max.x),
      uy(scene.area.min.y, scene.area.max.y);
  const ObstacleId cart{1u << 30};
  std::vector<double> us;
  us.reserve(4096);
  int64_t rebuilt = 0;
  for (auto _ : state) {
    const float x = ux(rng), y = uy(rng);
    const auto t0 = std::chrono::steady_clock::now();
    if (!cache.upsert(cart, {{x - 1.25f, y - 0.75f, 0.f}, {x + 1.25f, y + 0.75f, 2.f}}).empty()) std::abort();
    rebuilt += scene.mesh.updateTiles(std::numeric_limits<int>::max());
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  cache.remove(cart);
  scene.mesh.updateAllTiles();
  std::sort(us.begin(), us.end());
  state.counters["p50_us"] = us[us.size() / 2];
  state.counters["p99_us"] = us[us.size() * 99 / 100];
  state.counters["rebuilds"] = static_cast<double>(rebuilt) / static_cast<double>(us.size());
  state.counters["cache_MB"] = static_cast<double>(cache.memoryBytes()) / (1 << 20);
}

void BM_ObstacleMoveDemo(benchmark::State& state) { obstacleMove(state, demoScene()); }
BENCHMARK(BM_ObstacleMoveDemo)->Iterations(2000);
void BM_ObstacleMoveTown(benchmark::State& state) { obstacleMove(state, townCachedScene()); }
BENCHMARK(BM_ObstacleMoveTown)->Iterations(2000);

void reportBuild(benchmark::State& state, const Scene& s) {
  for (auto _ : state) benchmark::DoNotOptimize(s.mesh.tileCount());
  state.counters["build_s"] = s.build_s;
  state.counters["tiles"] = s.stats.tiles_built;
  state.counters["polys"] = s.stats.polygons;
  state.counters["mesh_MB"] = static_cast<double>(s.mesh.memoryBytes()) / (1 << 20);
  if (const NavTileCache* cache = s.mesh.tileCache())
    state.counters["cache_MB"] = static_cast<double>(cache->memoryBytes()) / (1 << 20);
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  state.counters["peak_rss_MB"] = static_cast<double>(ru.ru_maxrss) / 1024;
}

// 10,000 awake planners in the town, each pricing its walks to the 4 objects nearest it
// (within 30 m) through the daemon's shared PathCostCache, as a planning pass does; one
// iteration = every planner once (40,000 walks). Reports the mean cost of a walk, the
// cache's hit rate, and how many walks fit a 5 ms budget.
void BM_NavQueriesTenThousandPlanners(benchmark::State& state) {
  const Scene& town = townScene();
  NavQuery query(town.mesh);
  PathCostCache cache;
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(0.f, 1600.f), near(-30.f, 30.f);
  struct Walk {
    Vec3 from, to;
  };
  std::vector<Walk> walks;
  while (walks.size() < 40000) {
    NavPoint self;
    if (query.nearestPoint({u(rng), u(rng), 0}, self) != NavResult::kOk) continue;
    for (int k = 0; k < 4;) {
      NavPoint object;
      const Vec3 p{self.position.x + near(rng), self.position.y + near(rng), 0};
      if (query.nearestPoint(p, object) != NavResult::kOk) continue;
      walks.push_back({self.position, object.position});
      ++k;
    }
  }
  double seconds = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    for (const Walk& w : walks) benchmark::DoNotOptimize(cache.path(query, w.from, w.to).length_m);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  const double us = seconds * 1e6 / static_cast<double>(walks.size());  // the last pass's
  state.counters["us_per_walk"] = us;
  state.counters["walks_in_5ms"] = 5000.0 / us;
  const double lookups = static_cast<double>(cache.hits() + cache.misses());
  state.counters["cache_hit_pct"] = 100.0 * static_cast<double>(cache.hits()) / lookups;
}
BENCHMARK(BM_NavQueriesTenThousandPlanners)->Iterations(3)->Unit(benchmark::kMillisecond);

// The guard domain's StartFire, planned by 100 of 2,000 guards per iteration in the town:
// 2,000 torches, braziers, haystacks, carts and oil lamps on the streets, each guard
// gathering those within the domain's object radius, as the daemon does. range(0): 0 =
// no navmesh (every object within distance is reachable, travel is a straight line);
// 1 = the daemon's NavReachability (pruning by path, travel by path length) through its
// PathCostCache, which stays warm between plans as it does between ticks.
void BM_PlanTownGuards(benchmark::State& state) {
  static goap::GoapLibrary* lib = [] {
    auto* l = new goap::GoapLibrary;
    if (!l->loadDirectory(NPCD_SOURCE_DIR "/config/goap").ok()) std::abort();
    return l;
  }();
  const goap::GoapDomain& d = *lib->find("guard");
  const Scene& town = townScene();
  NavQuery query(town.mesh);
  PathCostCache cache;
  const NavReachability nav(query, cache);
  World world;
  std::vector<Vec3> guards;
  Rng rng(11);
  const char* kinds[] = {"torch", "brazier", "haystack", "cart", "oil_lamp"};
  auto onMesh = [&] {
    for (;;) {
      NavPoint p;
      if (query.nearestPoint({rng.range(0, 1600), rng.range(0, 1600), 0}, p) == NavResult::kOk) return p.position;
    }
  };
  for (uint64_t i = 0; i < 2000; ++i) {
    Entity* e = world.entities().get(world.entities().insert(EntityId{100000 + i}));
    e->kind = EntityKind::kObject;
    e->species = world.species().intern(kinds[i % 5]);
    e->position = onMesh();
    guards.push_back(onMesh());
  }
  world.markMoved();
  world.refreshSpatialIndex();
  goap::SmartObjectSpecies species(d);
  species.sync(world.species());
  goap::GoapPlanner planner;
  std::array<goap::SmartObjectCandidate, 64> objects;
  std::array<goap::TargetPosition, 1> post{};
  goap::PlanRequest r;
  r.domain = &d;
  r.bucket = d.findBucket("GuardIdle");
  r.addGoal(d.findGoal("StartFire"));
  r.targets = post;
  r.start = d.initialState();
  r.reachability = state.range(0) == 0 ? nullptr : &nav;
  size_t next = 0;
  uint64_t plans = 0, found = 0, expansions = 0, seen = 0;
  for (auto _ : state) {
    for (int k = 0; k < 100; ++k, next = (next + 1) % guards.size()) {
      const Vec3 p = guards[next];
      const uint32_t n = goap::gatherSmartObjects(world, species, p, d.search().object_radius_m, objects);
      post[0] = {true, p, EntityId::kNone};
      r.self_position = p;
      r.objects = {objects.data(), n};
      const goap::PlanResult& res = planner.plan(r);
      ++plans;
      found += res.status == goap::PlanStatus::kFound;
      expansions += res.expansions;
      seen += n;
    }
  }
  state.counters["us_per_plan"] = benchmark::Counter(
      static_cast<double>(plans), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["found_pct"] = 100.0 * static_cast<double>(found) / static_cast<double>(plans);
  state.counters["expansions"] = static_cast<double>(expansions) / static_cast<double>(plans);
  state.counters["objects"] = static_cast<double>(seen) / static_cast<double>(plans);
  const double lookups = static_cast<double>(cache.hits() + cache.misses());
  state.counters["cache_hit_pct"] = lookups > 0 ? 100.0 * static_cast<double>(cache.hits()) / lookups : 0;
}
BENCHMARK(BM_PlanTownGuards)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

void BM_BuildDemo(benchmark::State& state) { reportBuild(state, demoScene()); }
BENCHMARK(BM_BuildDemo)->Iterations(1);
void BM_BuildTown(benchmark::State& state) { reportBuild(state, townScene()); }
BENCHMARK(BM_BuildTown)->Iterations(1);
void BM_BuildTownCached(benchmark::State& state) { reportBuild(state, townCachedScene()); }
BENCHMARK(BM_BuildTownCached)->Iterations(1);

}  // namespace
