#!/usr/bin/env bash
# Sanitizer runs of the test suite (clang-14):
#   asan  ASan + UBSan (asserts on) over the whole ctest suite, in build-sanitize/
#         (scripts/sanitize-build.sh; the fuzz targets share that build)
#   tsan  TSan over the threads npcd runs itself, in build-tsan/: the worker pool and
#         perception on it (core_tests [worker_pool], perception_tests [threads];
#         behavior trees on it, Lua scripts and group scopes among them, core_tests
#         [behavior_phase]; planners' searches and attentive agents' places on it, core_tests
#         [planning][threads], [hibernation][threads]; selection's signals, [selection][threads];
#         the command inbox streams fill while the tick drains it, core_tests [command_inbox];
#         npcd_tick_hash on the demo
#         and a scale world with 4 threads), the tick driver, the watchdog's thread, the
#         snapshot writer's thread, the stats board, the cluster's lease keeper and npc
#         courier, and cluster nodes ticked on tick threads of their own beside those
#         (server_tests, the cases without gRPC).
#         The tests that run gRPC are left out: Debian's gRPC is not built with TSan, so
#         every call handed from one gRPC thread to another is reported as a race (its
#         completion queues synchronise where TSan cannot see); they run under asan.
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
# ignore_noninstrumented_modules: Debian's gRPC, Abseil and protobuf are not built with TSan,
# so TSan cannot see their own locks and reports their internals (epoll_wait on a poller's
# descriptor, Abseil's deadlock graph) as races. Their calls into intercepted functions are
# not checked; every access in npcd's own code still is.
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:ignore_noninstrumented_modules=1}"

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
-DNPCD_BUILD_BENCH=OFF" "$root/scripts/build.sh" server_tests core_tests perception_tests \
    npcd_tick_hash
  "$build/tests/core_tests" "[worker_pool],[command_inbox],[behavior_phase],[planning][threads],[hibernation][threads],[selection][threads]"
  "$(find "$build/tests" -name perception_tests -type f | head -n 1)" "[threads]"
  for world in demo scale:2000; do
    echo "npcd_tick_hash $world, 4 threads"
    "$build/tests/npcd_tick_hash" "$world" 60 4 > /dev/null
  done
  local no_grpc="~[grpc]~[daemon]~[config]"
  "$build/tests/server_tests" "[tick]$no_grpc,[watchdog]$no_grpc,[snapshot]$no_grpc,[stats]$no_grpc,[recorder]$no_grpc,[logging]$no_grpc,[cluster]$no_grpc"
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
