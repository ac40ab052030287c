#!/usr/bin/env bash
# A tick that never ends: the watchdog names its phase and agent, and SIGTERM still ends the
# process, within shutdown_grace_s + watchdog.shutdown_limit_s, with exit code 3.
# The hang is injected (NPCD_FAULT_STALL_AGENT: the tick blocks when it reaches that agent).
# Usage: npcd_stuck_tick.sh NPCD_BINARY SOURCE_DIR
set -euo pipefail
npcd=$1
src=$2
work=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null; rm -rf "$work"' EXIT

cat > "$work/npcd.json" <<JSON
{ "listen": "127.0.0.1:0", "tick_hz": 20, "archetypes_dir": "$src/config/archetypes",
  "selection_trees_dir": "$src/config/selection_trees", "behavior_trees_dir": "$src/config/behavior_trees",
  "long_actions": "$src/config/long_actions.json", "goap_dir": "$src/config/goap",
  "world": "$src/config/demo.json", "simulated_players": true, "status_interval_s": 0.5,
  "shutdown_grace_s": 1, "watchdog": { "warn_budgets": 4, "shutdown_limit_s": 1 } }
JSON
NPCD_FAULT_STALL_AGENT=1101 "$npcd" --config "$work/npcd.json" > "$work/log" 2>&1 &
pid=$!
for _ in $(seq 1 100); do
  grep -q "tick watchdog:" "$work/log" && break
  sleep 0.1
done
grep -q "tick watchdog: tick 1 has run .* in phase selection at agent 1101" "$work/log" || {
  cat "$work/log"; echo "FAIL: the watchdog did not name the stuck tick's phase and agent"; exit 1; }

start=$(date +%s%N)
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
pid=
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
cat "$work/log"
[ "$rc" -eq 3 ] || { echo "FAIL: npcd exited $rc with a stuck tick, expected 3"; exit 1; }
# The bound is 1 s + 1 s; allow 1.5 s for a loaded machine.
[ "$elapsed_ms" -lt 3500 ] || { echo "FAIL: npcd took ${elapsed_ms} ms to exit"; exit 1; }
grep -q "npcd did not stop within 2 s (tick 1, phase selection, at agent 1101, running" "$work/log" || {
  echo "FAIL: no last words naming the stuck tick"; exit 1; }
echo "npcd stuck-tick test passed (exit 3 after ${elapsed_ms} ms)"
