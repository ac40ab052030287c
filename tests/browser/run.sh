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
mkdir -p "$work"
command -v node > /dev/null || { echo "FAIL: node is missing (scripts/setup.sh installs it)"; exit 1; }
if ! cmp -s "$src/tests/browser/package-lock.json" "$work/package-lock.json" ||
   [ ! -d "$work/node_modules/playwright-core" ]; then
  cp "$src/tests/browser/package.json" "$src/tests/browser/package-lock.json" "$work/"
  (cd "$work" && npm ci --prefer-offline --no-audit --no-fund --loglevel=error)
fi
NODE_PATH="$work/node_modules" exec node "$src/tests/browser/debug_page_test.js" "$npcd" "$src" "$work/artefacts"
