#!/usr/bin/env bash
# The API's lint (ctest "buf_lint"): installs buf from the committed lock file into the build
# directory (npm ci; offline when npm's cache has it) and runs `buf lint` over proto/ with
# proto/buf.yaml (buf's STANDARD rules and a comment on every service, RPC, message and
# enum). A finding, or a missing npm, fails the test.
# Usage: run.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1
work=$2/buf
# --ignore-scripts: buf's launcher finds its platform binary (an optional dependency) itself.
bash "$src/tests/npm_ci.sh" "$src/tests/proto/lint" "$work" .bin/buf --ignore-scripts
cd "$src/proto"
echo "buf $("$work/node_modules/.bin/buf" --version) lint proto/"
"$work/node_modules/.bin/buf" lint
echo "buf lint: no findings"
