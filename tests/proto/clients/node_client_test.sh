#!/usr/bin/env bash
# Builds the Node.js client (proto-loader-gen-types + tsc) and runs its tests with node's
# test runner; they start NPCD_BINARY on free loopback ports themselves.
# Usage: node_client_test.sh NPCD_BINARY SOURCE_DIR
set -euo pipefail
export NPCD_BINARY=$1
export NPCD_SOURCE_DIR=$2
package="$NPCD_SOURCE_DIR/proto/clients/node"
command -v node > /dev/null || { echo "FAIL: node is not installed (scripts/setup.sh installs it)"; exit 1; }
if [ ! -d "$package/node_modules/@grpc/grpc-js" ]; then
  # The lock file pins every package; scripts/setup.sh normally ran this already.
  (cd "$package" && npm ci --no-audit --no-fund --ignore-scripts)
fi
cd "$package"
npm run --silent build
node --test dist/test/*.test.js
