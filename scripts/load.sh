#!/usr/bin/env bash
# Load test: builds npcd and npcd-bots, starts npcd with the demo config on a free loopback
# port, runs the bot harness against it, stops npcd with SIGTERM, prints both summaries and
# exits with the harness's exit code (0 the scenario's expectations held, 1 they did not,
# 2 bad arguments).
#
#   scripts/load.sh [SCENARIO] [npcd-bots args...]    # default config/bots/load.json
#   scripts/load.sh config/bots/smoke.json --duration 5
#
# Environment:
#   NPCD_BIN, NPCD_BOTS_BIN  use these binaries, skip the build (ctest's bots_smoke does)
#   NPCD_BUILD_DIR           build directory, as for scripts/build.sh
#   NPCD_CONFIG              daemon config (default config/npcd.json, the demo world)
#   NPCD_LOAD_TIMEOUT_S      hard limit for the harness (default 900)
#   NPCD_LOAD_KEEP_LOGS=1    keep the logs' directory (printed at the end)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
scenario=${1:-$root/config/bots/load.json}
[ $# -gt 0 ] && shift
config=${NPCD_CONFIG:-$root/config/npcd.json}
limit=${NPCD_LOAD_TIMEOUT_S:-900}

[ -f "$scenario" ] || { echo "load.sh: no scenario file $scenario" >&2; exit 2; }
[ -f "$config" ] || { echo "load.sh: no npcd config $config" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/npcd-load.XXXXXX")
npcd_pid=""
cleanup() {
  if [ -n "$npcd_pid" ] && kill -0 "$npcd_pid" 2>/dev/null; then
    kill -KILL "$npcd_pid" 2>/dev/null || true
  fi
  if [ "${NPCD_LOAD_KEEP_LOGS:-0}" = 1 ]; then echo "load.sh: logs in $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

source "$root/scripts/daemon_binaries.sh"
find_binaries load.sh "$work"

# Start npcd and wait until it listens (its log says so), up to 30 s.
for attempt in 1 2 3; do
  port=$(free_port)
  args=(--config "$config" --listen "127.0.0.1:$port")
  # The demo config may expose metrics on a fixed port; move them off it when supported.
  if "$npcd" --help 2>/dev/null | grep -q -- "--metrics-listen"; then
    args+=(--metrics-listen "127.0.0.1:$(free_port)")
  fi
  "$npcd" "${args[@]}" > "$work/npcd.log" 2>&1 &
  npcd_pid=$!
  npcd_started=$(date +%s)
  ready=0
  for _ in $(seq 1 300); do
    if grep -q "listening on" "$work/npcd.log"; then ready=1; break; fi
    kill -0 "$npcd_pid" 2>/dev/null || break
    sleep 0.1
  done
  [ "$ready" = 1 ] && break
  kill -KILL "$npcd_pid" 2>/dev/null || true
  wait "$npcd_pid" 2>/dev/null || true
  npcd_pid=""
  echo "load.sh: npcd did not start (attempt $attempt):" >&2
  tail -n 20 "$work/npcd.log" >&2
done
[ -n "$npcd_pid" ] || exit 1
echo "load.sh: npcd (pid $npcd_pid) listening on 127.0.0.1:$port, config $config"

# The harness bounds its own run; the timeout is a backstop.
set +e
# Live lines show as they come; the report is printed below, after npcd's summary.
timeout --signal=TERM --kill-after=10 "$limit" \
  "$bots" --target "127.0.0.1:$port" --scenario "$scenario" "$@" 2>&1 |
  tee "$work/bots.log" | sed -u '/^== npcd-bots report ==$/,$d'
rc=${PIPESTATUS[0]}
set -e
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
  echo "load.sh: npcd-bots did not finish within ${limit} s" >&2
  rc=1
fi

# npcd's CPU time so far (utime + stime, /proc/PID/stat fields 14 and 15).
npcd_cpu=""
if [ -r "/proc/$npcd_pid/stat" ]; then
  npcd_cpu=$(awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.1f", ($12 + $13) / hz }' \
    "/proc/$npcd_pid/stat")
fi
npcd_wall=$(( $(date +%s) - npcd_started ))

kill -TERM "$npcd_pid" 2>/dev/null || true
npcd_rc=""
for _ in $(seq 1 200); do
  if ! kill -0 "$npcd_pid" 2>/dev/null; then
    npcd_rc=0
    wait "$npcd_pid" || npcd_rc=$?
    break
  fi
  sleep 0.1
done
if [ -z "$npcd_rc" ]; then
  echo "load.sh: npcd ignored SIGTERM for 20 s; killing it" >&2
  kill -KILL "$npcd_pid" 2>/dev/null || true
  npcd_rc=137
fi
npcd_pid=""

echo
echo "== npcd summary =="
grep -E "ticks/s" "$work/npcd.log" | tail -n 3 || true
overruns=$(grep -c "tick overrun" "$work/npcd.log" || true)
[ "$overruns" -gt 0 ] && grep "tick overrun" "$work/npcd.log" | tail -n 1
grep -E "\b(error|critical)\b" "$work/npcd.log" | head -n 5 || true
grep -E "npcd stopped" "$work/npcd.log" || true
[ -n "$npcd_cpu" ] && echo "npcd CPU ${npcd_cpu} s over ${npcd_wall} s"
echo "npcd exit code $npcd_rc after SIGTERM"
echo
echo "== npcd-bots summary =="
sed -n '/== npcd-bots report ==/,$p' "$work/bots.log" | tail -n +2
echo "npcd-bots exit code $rc"
exit "$rc"
