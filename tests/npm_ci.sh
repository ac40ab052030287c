#!/usr/bin/env bash
# Installs a test's npm packages, exactly as its committed lock file pins them, into a
# directory of the build (npm ci; offline when npm's cache has them), and again only when
# the lock file changed or MARKER (a path inside node_modules) is missing. The source tree
# stays clean. Fails when npm is missing.
# Usage: npm_ci.sh PACKAGE_DIR WORK_DIR MARKER [NPM_CI_ARGS...]
set -euo pipefail
pkg=$1
work=$2
marker=$3
shift 3
mkdir -p "$work"
command -v npm > /dev/null || { echo "FAIL: npm is missing (scripts/setup.sh installs it)"; exit 1; }
if ! cmp -s "$pkg/package-lock.json" "$work/package-lock.json" ||
   [ ! -e "$work/node_modules/$marker" ]; then
  cp "$pkg/package.json" "$pkg/package-lock.json" "$work/"
  (cd "$work" && npm ci --prefer-offline --no-audit --no-fund --loglevel=error "$@")
fi
