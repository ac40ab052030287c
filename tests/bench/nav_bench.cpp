// Navigation benchmarks (core/nav): path-length queries and navmesh builds. Figures in
// core/nav/README.md.
#include <benchmark/benchmark.h>

#include "nav/level_geometry.h"
#include "nav/nav_mesh.h"
#include "nav/nav_mesh_builder.h"
#include "nav/nav_query.h"

using namespace npc;
using namespace npc::nav;

namespace {

// A flat square of side_m (Y up), two triangles.
LevelGeometry square(float side_m) {
  LevelGeometry g;
  const int a = g.addVertex(0, 0, 0), b = g.addVertex(side_m, 0, 0),
            c = g.addVertex(side_m, 0, -side_m), d = g.addVertex(0, 0, -side_m);
  g.addTriangle(a, b, c);
  g.addTriangle(a, c, d);
  return g;
}

void BM_BuildSquare100m(benchmark::State& state) {
  const LevelGeometry g = square(100.f);
  for (auto _ : state) {
    NavMesh mesh;
    benchmark::DoNotOptimize(NavMeshBuilder({}).build(g, {}, mesh));
  }
}
BENCHMARK(BM_BuildSquare100m)->Unit(benchmark::kMillisecond);

}  // namespace
