#!/usr/bin/env bash
# Configures and builds the clang sanitizer build (ASan + UBSan, asserts on, -O1) shared by
# scripts/sanitize.sh (the test suite) and scripts/fuzz.sh (the libFuzzer targets, so the
# project is instrumented for fuzzing too: -fsanitize=fuzzer-no-link). Build dir:
# $NPCD_SANITIZE_BUILD_DIR or build-sanitize/. Arguments: targets to build (default all).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
flags="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined"
export NPCD_BUILD_DIR="${NPCD_SANITIZE_BUILD_DIR:-$root/build-sanitize}"
export NPCD_BUILD_TYPE=Debug CC=clang-14 CXX=clang++-14
export NPCD_CMAKE_ARGS="-DCMAKE_CXX_FLAGS=$flags -fsanitize=fuzzer-no-link
-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined
-DNPCD_BUILD_FUZZ=ON
-DNPCD_BUILD_BENCH=OFF"
exec "$root/scripts/build.sh" "$@"
