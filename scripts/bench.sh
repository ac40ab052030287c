#!/usr/bin/env bash
# Builds and runs every micro-benchmark, printing their figures. Extra args go to each
# benchmark binary (e.g. --benchmark_filter=SimTick).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="${NPCD_BUILD_DIR:-$root/build}"
"$root/scripts/setup.sh"
"$root/scripts/build.sh" npcd_bench perception_bench bst_bench mbt_bench goap_bench intent_bench \
    hibernation_bench nav_bench stream_bench
for bench in tests/bench/npcd_bench tests/core/perception/perception_bench \
    tests/core/bst/bst_bench tests/core/mbt/mbt_bench tests/core/goap/goap_bench \
    tests/core/intent/intent_bench tests/core/hibernation/hibernation_bench \
    tests/core/nav/nav_bench; do
  echo "== $bench"
  "$build/$bench" "$@"
done
# Not Google Benchmark (its own flags): npcd's stream path against a bare gRPC echo.
echo "== tests/bench/stream_bench"
"$build/tests/bench/stream_bench"
