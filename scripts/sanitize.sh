#!/usr/bin/env bash
# Sanitizer runs of the test suite (clang-14):
#   asan  ASan + UBSan (asserts on) over the whole ctest suite, in build-sanitize/
#         (scripts/sanitize-build.sh; the fuzz targets share that build)
#   tsan  TSan over the threaded tests: server_tests (gRPC streams, admin calls, the tick
#         driver, reload under load, the daemon), in build-tsan/
#   all   both (the default)
#   ci    what CI runs (.ci/run), a smoke of the two above: one make step builds the fuzz
#         targets and server_tests together, then every fuzz target runs
#         NPCD_CI_FUZZ_SECONDS s (default 20; CI: 10) through scripts/fuzz.sh (its own build
#         step then has nothing to do), then asan over server_tests (the gRPC server end to
#         end on the demo world, with its simulation). core_tests under asan is left to
#         `asan`: compiling it with clang costs CI several minutes (CI's budget is 45 min on
#         2 cores beside the Release build, its suite and the image test), and the fuzz
#         targets already run the loaders and the simulation instrumented. Measured on the
#         shared 2-core machine (load 8-12): server_tests runs in 32 s under asan (26 s in the
#         Release build); .ci/run prints each step's minutes. The whole asan suite and tsan
#         do not fit CI: each is another full
#         build (tsan) or about three times the Release suite's run (asan); run
#         `scripts/sanitize.sh all` before a release and after changes to threads.
# Any sanitizer report fails the test that triggered it (halt_on_error, no recovery).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode="${1:-all}"
jobs="${NPCD_JOBS:-$(nproc)}"  # ctest's parallel tests
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}"

asan() {
  local build="${NPCD_SANITIZE_BUILD_DIR:-$root/build-sanitize}"
  "$root/scripts/sanitize-build.sh" "$@"
  (cd "$build" && ctest -j "$jobs" --timeout 900 --output-on-failure \
    ${ASAN_CTEST_REGEX:+-R "$ASAN_CTEST_REGEX"})
}

tsan() {
  local build="${NPCD_TSAN_BUILD_DIR:-$root/build-tsan}"
  NPCD_BUILD_DIR="$build" NPCD_BUILD_TYPE=Debug CC=clang-14 CXX=clang++-14 \
    NPCD_CMAKE_ARGS="-DCMAKE_CXX_FLAGS=-O1 -g -fno-omit-frame-pointer -fsanitize=thread
-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread
-DNPCD_BUILD_BENCH=OFF" "$root/scripts/build.sh" server_tests
  "$build/tests/server_tests"
}

case "$mode" in
  asan) asan ;;
  tsan) tsan ;;
  all) asan && tsan ;;
  ci)
    # One clang build in one step: fuzz.sh builds its targets and server_tests together,
    # then runs the fuzz smoke; the tests then run without a rebuild.
    build="${NPCD_SANITIZE_BUILD_DIR:-$root/build-sanitize}"
    start=$SECONDS
    NPCD_FUZZ_ALSO_BUILD="server_tests" \
      "$root/scripts/fuzz.sh" "${NPCD_CI_FUZZ_SECONDS:-20}"
    # Its ctest names are its TEST_CASE names: run the binary whole.
    "$build/tests/server_tests"
    echo "sanitize ci: fuzz smoke and asan tests took $(( (SECONDS - start) / 60 )) min"
    ;;
  *) echo "usage: $0 [asan|tsan|all|ci]" >&2; exit 2 ;;
esac
