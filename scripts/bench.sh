#!/usr/bin/env bash
# Builds and runs the micro-benchmarks, printing their figures.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh" npcd_bench
exec "${NPCD_BUILD_DIR:-$root/build}/tests/bench/npcd_bench" "$@"
