#!/usr/bin/env bash
# Configures and builds npcd (Release, with tests) into build/. Extra args go to the build
# tool, e.g. `scripts/build.sh npcd` builds only the daemon. NPCD_BUILD_DIR, NPCD_BUILD_TYPE
# and NPCD_CMAKE_ARGS (extra configure arguments, one per line) make other builds
# (scripts/sanitize-build.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="${NPCD_BUILD_DIR:-$root/build}"
jobs="${NPCD_JOBS:-$(nproc)}"
extra=()
if [ -n "${NPCD_CMAKE_ARGS:-}" ]; then mapfile -t extra <<< "$NPCD_CMAKE_ARGS"; fi
mkdir -p "$build"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE="${NPCD_BUILD_TYPE:-Release}" "${extra[@]}" \
  > "$build/configure.log" 2>&1 || {
  cat "$build/configure.log"
  exit 1
}
if [ $# -gt 0 ]; then
  cmake --build "$build" -j "$jobs" --target "$@"
else
  cmake --build "$build" -j "$jobs"
fi
