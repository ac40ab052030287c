#!/usr/bin/env bash
# Installs every Debian bookworm package npcd needs to build, test and benchmark.
# Idempotent: skips apt entirely when everything is already present.
set -euo pipefail

PACKAGES=(
  build-essential cmake pkg-config git
  libboost-dev
  libgrpc++-dev libgrpc-dev protobuf-compiler-grpc grpc-proto
  libprotobuf-dev protobuf-compiler
  libspdlog-dev libfmt-dev
  nlohmann-json3-dev
  catch2
  libpugixml-dev
  liblua5.4-dev
  libbenchmark-dev
  prometheus-cpp-dev
  openssl
  python3-grpcio python3-protobuf
  clang-14 libclang-rt-14-dev
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
