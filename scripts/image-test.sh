#!/usr/bin/env bash
# The container image test, without a Docker engine: builds docker/Dockerfile with podman,
# runs the image, waits until its HEALTHCHECK reports healthy, checks it runs as uid 10001,
# plays the bot smoke scenario against it, stops it with SIGTERM and checks a clean, drained
# exit; also validates docker/compose.yaml and docker/compose.cluster.yaml with docker-compose.
#
# Needs root (podman here runs rootful). Installs podman, runc, debootstrap and
# docker-compose with apt-get when they are missing. Prints "SKIP: ..." and exits 0 when
# containers cannot run on this machine; otherwise prints PASS/FAIL lines and exits 1 on a
# failure. The Debian base image comes from debootstrap (no registry is needed) and is
# cached as a tarball in $NPCD_IMAGE_CACHE (default /var/cache/npcd-image-test), so later
# runs skip debootstrap. Podman keeps its images in a private store under that directory,
# emptied at the end (NPCD_IMAGE_KEEP=1 keeps the image and container for inspection).
# NPCD_SKIP_IMAGE_TEST=1 skips the whole test.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cache="${NPCD_IMAGE_CACHE:-/var/cache/npcd-image-test}"
base_image=localhost/debian:bookworm-slim
image=localhost/npcd:test
ctr="npcd-image-test-$$"
started=$SECONDS
passed=0

pass() { echo "PASS: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; echo "image-test: $passed passed, 1 failed"; exit 1; }
skip() { echo "SKIP: image test: $*"; exit 0; }
elapsed() { echo "$((SECONDS - started)) s"; }

# One podman configuration for every call: its own store (vfs: no overlay mounts in this
# sandbox), cgroupfs (no systemd). A private store leaves any other podman images alone
# and can be wiped whole.
pm_flags=(--root "$cache/storage" --runroot /run/npcd-image-test --storage-driver=vfs
  --cgroup-manager=cgroupfs)
pm() { podman "${pm_flags[@]}" "$@"; }
# Containers run with runc (crun fails on this kernel's hybrid cgroups) and explicit
# ulimits (the sandbox lacks CAP_SYS_RESOURCE, so podman's defaults cannot be applied).
run_flags=(--runtime runc --ulimit nofile=20000:20000 --ulimit nproc=4096:4096)

need_tools() {
  local missing=()
  command -v podman > /dev/null || missing+=(podman)
  command -v runc > /dev/null || missing+=(runc)
  command -v debootstrap > /dev/null || missing+=(debootstrap)
  command -v docker-compose > /dev/null || missing+=(docker-compose)
  [ ${#missing[@]} -eq 0 ] && return 0
  command -v apt-get > /dev/null || skip "${missing[*]} missing and no apt-get"
  echo "image-test: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  { apt-get update -q && apt-get install -y -q --no-install-recommends "${missing[@]}"; } \
    > /tmp/npcd-image-test-apt.log 2>&1 ||
    skip "cannot install ${missing[*]} (see /tmp/npcd-image-test-apt.log)"
}

check_compose() {
  # Interpolation needs the token variable; any value will do for validation.
  NPCD_AUTH_TOKEN=compose-check docker-compose -f "$root/docker/compose.yaml" config -q ||
    fail "docker/compose.yaml does not validate"
  pass "docker-compose config -q accepts docker/compose.yaml"
  NPCD_AUTH_TOKEN=compose-check docker-compose -f "$root/docker/compose.cluster.yaml" config -q ||
    fail "docker/compose.cluster.yaml does not validate"
  pass "docker-compose config -q accepts docker/compose.cluster.yaml"
}

# The tarball of a minbase bookworm, made once by debootstrap (about 30 s).
tarball="$cache/debian-bookworm-minbase.tar"
make_base_tarball() {
  if [ ! -s "$tarball" ]; then
    local dir
    dir=$(mktemp -d /var/tmp/npcd-rootfs.XXXXXX)
    chmod 755 "$dir"  # it becomes the image's /, which uid 10001 must traverse
    echo "image-test: debootstrap bookworm (once; cached in $tarball)"
    debootstrap --variant=minbase bookworm "$dir" http://deb.debian.org/debian \
      > "$cache/debootstrap.log" 2>&1 || {
      tail -20 "$cache/debootstrap.log"
      rm -rf "$dir"
      fail "debootstrap failed"
    }
    # Downloaded packages and indexes only make the base larger; the build fetches its own.
    rm -rf "$dir"/var/cache/apt/archives/*.deb "$dir"/var/lib/apt/lists/*
    tar -C "$dir" -cf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
    rm -rf "$dir"
  fi
}

import_base() {
  if ! pm image exists "$base_image"; then
    make_base_tarball
    pm import "$tarball" "$base_image" > "$cache/import.log" 2>&1 || fail "podman import of the base image"
  fi
  # Running plain Debian shows whether this machine can run containers at all.
  pm run --rm "${run_flags[@]}" --network=none "$base_image" true > "$cache/probe.log" 2>&1 ||
    skip "podman cannot run a container here: $(tail -1 "$cache/probe.log")"
  pass "base image $base_image ready ($(elapsed))"
}

build_image() {
  echo "image-test: building $image (log: $cache/build.log)"
  local t0=$SECONDS
  # The host's compiler cache, lent to the build stage: after scripts/build.sh the same
  # sources compile from it (docker/Dockerfile; the objects are the compiler's, unchanged).
  local ccache_mount=() hits0=0 misses0=0
  if [ "${NPCD_IMAGE_CCACHE:-1}" = "1" ] && command -v ccache > /dev/null; then
    local ccache_dir
    ccache_dir=$(ccache -k cache_dir)
    mkdir -p "$ccache_dir"
    ccache_mount=(-v "$ccache_dir:/ccache")
    read -r hits0 misses0 <<< "$(ccache_counts)"
  fi
  # chroot isolation: OCI-runtime builds fail on this kernel's hybrid cgroups; docker format
  # keeps the HEALTHCHECK (the OCI format drops it); no layer cache: vfs copies the whole
  # tree per layer, and the store is wiped afterwards anyway.
  timeout 45m podman "${pm_flags[@]}" build --isolation=chroot --format docker --network=host \
    --pull=never --layers=false --build-arg BASE="$base_image" "${ccache_mount[@]}" \
    --build-arg NPCD_REVISION="$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || true)" \
    -f "$root/docker/Dockerfile" -t "$image" "$root" > "$cache/build.log" 2>&1 || {
    tail -40 "$cache/build.log"
    fail "podman build of docker/Dockerfile"
  }
  pass "image built in $((SECONDS - t0)) s (size $(pm image inspect -f "{{.Size}}" "$image" | numfmt --to=iec))"
  if [ ${#ccache_mount[@]} -gt 0 ]; then
    local hits misses
    read -r hits misses <<< "$(ccache_counts)"
    echo "image-test: $((hits - hits0)) objects from the host's compiler cache, $((misses - misses0)) compiled"
  fi
}

# Hits and misses so far in the host's compiler cache, which the build stage shares.
ccache_counts() {
  ccache --print-stats 2> /dev/null |
    awk '$1 ~ /^(direct|preprocessed)_cache_hit$/ { h += $2 } $1 == "cache_miss" { m += $2 }
         END { print h + 0, m + 0 }'
}

# Its own network namespace (--network=none) keeps the container's 0.0.0.0:50051 off the
# host, where a developer's npcd may be listening; the health check, the bots and the
# daemon all run inside it.
run_container() {
  local token
  token=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
  # stderr to a log: without systemd podman complains that it cannot add health check timers.
  pm run -d --name "$ctr" "${run_flags[@]}" --network=none -e NPCD_AUTH_TOKEN="$token" \
    "$image" > /dev/null 2> "$cache/run.log" || { cat "$cache/run.log"; fail "podman run"; }
  pass "container started"
}

running() { [ "$(pm inspect -f '{{.State.Running}}' "$ctr" 2> /dev/null)" = "true" ]; }

# `podman healthcheck run` runs the image's HEALTHCHECK once (no systemd here to run it on
# its interval): exit 0 when it passed, and the container's health turns healthy.
wait_healthy() {
  for _ in $(seq 1 60); do
    running || { pm logs "$ctr" | tail -20; fail "container exited before it was healthy"; }
    pm healthcheck run "$ctr" > "$cache/health.log" 2>&1 && break
    sleep 1
  done
  local status
  status=$(pm inspect -f '{{.State.Health.Status}}' "$ctr")
  [ "$status" = "healthy" ] || {
    pm logs "$ctr" | tail -20
    cat "$cache/health.log"
    fail "health: '$status' after 60 s"
  }
  pass "podman healthcheck run: healthy"
}

check_user() {
  local uid
  uid=$(pm exec "$ctr" id -u) || fail "podman exec id -u"
  [ "$uid" = "10001" ] || fail "the daemon runs as uid $uid, expected 10001"
  pass "runs as uid 10001"
}

# The bot harness from the image against the daemon, with the container's token: proves
# the token gate, the demo archetypes and a few seconds of streaming.
check_bots() {
  pm exec "$ctr" /usr/local/bin/npcd-bots --scenario /etc/npcd/bots/smoke.json \
    --target 127.0.0.1:50051 --duration 4 > "$cache/bots.log" 2>&1 || {
    tail -20 "$cache/bots.log"
    fail "npcd-bots smoke scenario inside the container"
  }
  pass "npcd-bots smoke scenario: $(grep -m1 '^actions ' "$cache/bots.log" | tr -s ' ' | cut -d'(' -f1)"
}

stop_container() {
  local t0=$SECONDS code
  pm stop -t 30 "$ctr" > /dev/null 2>> "$cache/run.log" || fail "podman stop"
  code=$(pm inspect -f '{{.State.ExitCode}}' "$ctr")
  pm logs "$ctr" > "$cache/npcd.log" 2>&1
  [ "$code" = "0" ] || { tail -20 "$cache/npcd.log"; fail "exit code $code after SIGTERM"; }
  grep -q "received SIGTERM" "$cache/npcd.log" || fail "SIGTERM did not reach npcd through tini"
  grep -q "npcd shutting down" "$cache/npcd.log" || fail "no drain line in the logs"
  grep -q "npcd stopped after" "$cache/npcd.log" || fail "no final line in the logs"
  pass "SIGTERM: drained and exited 0 in $((SECONDS - t0)) s"
}

cleanup() {
  [ "${NPCD_IMAGE_KEEP:-0}" = "1" ] && return 0
  pm rm -f "$ctr" > /dev/null 2>&1 || true
  # The base tarball stays in $cache; the store (about 1.5 GB with vfs) goes.
  pm system reset -f > /dev/null 2>&1 || true
  rm -rf "${cache:?}/storage"
}

main() {
  [ "${NPCD_SKIP_IMAGE_TEST:-0}" = "1" ] && skip "NPCD_SKIP_IMAGE_TEST=1"
  [ "$(id -u)" -eq 0 ] || skip "needs root (podman runs rootful here)"
  need_tools
  check_compose
  mkdir -p "$cache"
  pm info > "$cache/info.log" 2>&1 || skip "podman does not work here: $(tail -1 "$cache/info.log")"
  trap cleanup EXIT
  import_base
  build_image
  run_container
  wait_healthy
  check_user
  check_bots
  stop_container
  echo "image-test: took $(elapsed)"
  echo "image-test: $passed passed, 0 failed"
}

main "$@"
