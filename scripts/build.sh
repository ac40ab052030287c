#!/usr/bin/env bash
# Configures and builds npcd (Release, with tests) into build/. Extra args go to the build
# tool, e.g. `scripts/build.sh npcd` builds only the daemon.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="${NPCD_BUILD_DIR:-$root/build}"
jobs="${NPCD_JOBS:-$(nproc)}"
mkdir -p "$build"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release > "$build/configure.log" 2>&1 || {
  cat "$build/configure.log"
  exit 1
}
if [ $# -gt 0 ]; then
  cmake --build "$build" -j "$jobs" --target "$@"
else
  cmake --build "$build" -j "$jobs"
fi
