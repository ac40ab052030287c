# Sourced by the scripts that run npcd with the bot harness (load.sh, soak.sh,
# cluster_bench.sh): where the binaries are, and a free loopback port.

# find_binaries NAME LOG_DIR: sets npcd and bots to $NPCD_BIN / $NPCD_BOTS_BIN when both are
# given, else builds both (scripts/build.sh, log in LOG_DIR/build.log) and uses the build's.
# Exits 2 when the build fails.
find_binaries() {
  local name=$1 log_dir=$2
  if [ -n "${NPCD_BIN:-}" ] && [ -n "${NPCD_BOTS_BIN:-}" ]; then
    npcd=$NPCD_BIN
    bots=$NPCD_BOTS_BIN
    return 0
  fi
  local build=${NPCD_BUILD_DIR:-$root/build}
  echo "$name: building npcd and npcd-bots in $build"
  if ! "$root/scripts/build.sh" npcd npcd-bots > "$log_dir/build.log" 2>&1; then
    tail -n 40 "$log_dir/build.log"
    echo "$name: build failed" >&2
    exit 2
  fi
  npcd=$build/server/npcd
  bots=$build/tests/bots/npcd-bots
}

# A loopback port nobody listens on (connect refused). A daemon binds it a moment later; if
# another process wins the race, it exits at once and the caller tries another.
free_port() {
  local port
  for _ in $(seq 1 100); do
    port=$((20000 + RANDOM % 40000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return 0
    fi
  done
  return 1
}
