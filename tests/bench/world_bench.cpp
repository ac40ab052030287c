// Spatial index: rebuild and radius-query costs at village-to-city scale.
#include <vector>

#include <benchmark/benchmark.h>

#include "base/rng.h"
#include "world/spatial_grid.h"

using namespace npc;

namespace {

std::vector<Vec3> scatter(size_t n, float half_extent) {
  Rng rng(3);
  std::vector<Vec3> out(n);
  for (Vec3& p : out) p = {rng.range(-half_extent, half_extent), rng.range(-half_extent, half_extent), 0};
  return out;
}

void BM_GridRebuild(benchmark::State& state) {
  const auto points = scatter(static_cast<size_t>(state.range(0)), 500.f);
  SpatialGrid grid(8.f, 16384);
  for (auto _ : state) {
    grid.rebuild(points);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_GridRebuild)->Arg(1000)->Arg(10000)->Arg(100000);

void BM_GridQuery(benchmark::State& state) {
  const auto points = scatter(static_cast<size_t>(state.range(0)), 500.f);
  SpatialGrid grid(8.f, 16384);
  grid.rebuild(points);
  const float radius = static_cast<float>(state.range(1));
  Rng rng(5);
  uint32_t out[1024];
  size_t found = 0;
  for (auto _ : state) {
    const Vec3 c{rng.range(-500.f, 500.f), rng.range(-500.f, 500.f), 0};
    found += grid.queryRadius(c, radius, out);
  }
  state.counters["found_per_query"] =
      benchmark::Counter(static_cast<double>(found) / static_cast<double>(state.iterations()));
}
BENCHMARK(BM_GridQuery)->Args({10000, 10})->Args({10000, 30})->Args({100000, 10});

// The same query as a scan of every entity, to show what the index saves.
void BM_ScanQuery(benchmark::State& state) {
  const auto points = scatter(static_cast<size_t>(state.range(0)), 500.f);
  const float r2 = static_cast<float>(state.range(1) * state.range(1));
  Rng rng(5);
  size_t found = 0;
  for (auto _ : state) {
    const Vec3 c{rng.range(-500.f, 500.f), rng.range(-500.f, 500.f), 0};
    for (const Vec3& p : points) found += distanceSq(p, c) <= r2;
  }
  benchmark::DoNotOptimize(found);
}
BENCHMARK(BM_ScanQuery)->Args({10000, 10})->Args({100000, 10});

}  // namespace
