#!/usr/bin/env bash
# Installs every Debian bookworm package npcd needs to build, test and benchmark.
# Idempotent: skips apt entirely when everything is already present.
set -euo pipefail

PACKAGES=(
  build-essential cmake pkg-config git ccache
  libboost-dev
  libgrpc++-dev libgrpc-dev protobuf-compiler-grpc grpc-proto
  libprotobuf-dev protobuf-compiler
  libspdlog-dev libfmt-dev
  nlohmann-json3-dev libvalijson-dev
  catch2
  libpugixml-dev
  libcli11-dev
  liblua5.4-dev
  libbenchmark-dev
  librecast-dev zlib1g-dev
  prometheus-cpp-dev
  libhiredis-dev
  openssl
  python3-grpcio python3-protobuf
)
# Tools only the tests use: `file` (the .deb test), chromium (the debug page's browser
# test), redis-server (the place lease tests start their own), clang-14 with its sanitizer
# and libFuzzer runtime (scripts/fuzz.sh, sanitize.sh).
# The image's build stage copies only this script, so it skips them.
root_dir="$(cd "$(dirname "$0")/.." && pwd)"
if [ -d "$root_dir/tests" ]; then
  PACKAGES+=(file chromium redis-server clang-14 libclang-rt-14-dev)
fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

# Node.js and npm for the Node client (proto/clients/node), when it is there (the image's
# build stage copies only this script): Debian's, unless a node with npm is installed
# already (a newer nodejs package bundles npm and conflicts with Debian's).
node_client="$root_dir/proto/clients/node"
if [ -d "$node_client" ] && ! command -v npm > /dev/null; then
  PACKAGES+=(nodejs npm)
  missing+=(nodejs npm)
fi

# The Node client's npm packages, exactly as its package-lock.json pins them.
npm_packages() {
  if [ -f "$node_client/package-lock.json" ] && [ ! -d "$node_client/node_modules/@grpc/grpc-js" ]; then
    echo "setup: npm ci in proto/clients/node"
    (cd "$node_client" && npm ci --no-audit --no-fund --ignore-scripts) ||
      echo "setup: npm ci failed (no registry?); the node_client test will fail"
  fi
}

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages present"
  npm_packages
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
npm_packages
