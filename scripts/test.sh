#!/usr/bin/env bash
# The test command: installs what is missing, builds everything (Release) and runs every
# test through ctest. Exit code is ctest's.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
cd "${NPCD_BUILD_DIR:-$root/build}"
# In parallel, one test per core: the suite is run that way by developers too.
ctest --output-on-failure --timeout 300 -j "${NPCD_TEST_JOBS:-$(nproc)}" "$@"
