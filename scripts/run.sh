#!/usr/bin/env bash
# Builds npcd (Release) and runs it on the demo world, listening on 127.0.0.1:50051.
# Extra arguments go to npcd (e.g. --log-level debug, --listen 0.0.0.0:50051).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh" npcd
exec "${NPCD_BUILD_DIR:-$root/build}/server/npcd" --config "$root/config/npcd.json" "$@"
