#!/usr/bin/env bash
# The debug page's browser test (ctest "debug_page_browser"): installs playwright-core from
# the committed lock file into the build directory (npm ci; offline when npm's cache has it),
# then drives Debian's chromium against a demo npcd. Screenshots and npcd's log are kept in
# BUILD_DIR/browser/artefacts. A missing browser or npm fails the test.
# Usage: run.sh NPCD_BINARY SOURCE_DIR BUILD_DIR
set -euo pipefail
npcd=$1
src=$2
work=$3/browser
command -v node > /dev/null || { echo "FAIL: node is missing (scripts/setup.sh installs it)"; exit 1; }
bash "$src/tests/npm_ci.sh" "$src/tests/browser" "$work" playwright-core
NODE_PATH="$work/node_modules" exec node "$src/tests/browser/debug_page_test.js" "$npcd" "$src" "$work/artefacts"
