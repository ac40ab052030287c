#!/usr/bin/env bash
# Starts the real npcd binary on the demo world, waits for status lines, stops it with
# SIGTERM and checks for a clean exit. Usage: npcd_smoke.sh NPCD_BINARY SOURCE_DIR
set -euo pipefail
npcd=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$npcd" --help | grep -q -- "--config" || { echo "FAIL: --help does not list --config"; exit 1; }

# --version: CMake's project version and the revision of the sources it was built from.
version=$(sed -n 's/^project(npcd VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
revision=unknown
if head=$(git -C "$src" rev-parse --short=12 HEAD 2>/dev/null); then revision="$head"; fi
out=$("$npcd" --version)
case "$out" in
  "npcd $version (revision $revision)" | "npcd $version (revision $revision-dirty)") ;;
  *) echo "FAIL: --version printed '$out', expected npcd $version (revision $revision)"; exit 1 ;;
esac

cat > "$work/npcd.json" <<JSON
{ "listen": "127.0.0.1:0", "tick_hz": 20, "archetypes_dir": "$src/config/archetypes",
  "selection_trees_dir": "$src/config/selection_trees", "behavior_trees_dir": "$src/config/behavior_trees", "long_actions": "$src/config/long_actions.json",
  "goap_dir": "$src/config/goap", "world": "$src/config/demo.json", "simulated_players": true, "status_interval_s": 0.5 }
JSON
"$npcd" --config "$work/npcd.json" > "$work/log" 2>&1 &
pid=$!
for _ in $(seq 1 100); do
  if [ "$(grep -c 'ticks/s' "$work/log" || true)" -ge 2 ]; then break; fi
  sleep 0.1
done
kill -TERM "$pid" || { cat "$work/log"; echo "FAIL: npcd exited early"; exit 1; }
rc=0
wait "$pid" || rc=$?
cat "$work/log"
[ "$rc" -eq 0 ] || { echo "FAIL: npcd exited $rc after SIGTERM"; exit 1; }
npcs=$(grep -c '"kind": "npc"' "$src/config/demo.json")
grep -q "agents $npcs awake $npcs" "$work/log" || { echo "FAIL: no status line with the demo's $npcs agents"; exit 1; }
grep -q "npcd $version (revision $revision" "$work/log" || { echo "FAIL: no version in the start-up line"; exit 1; }
grep -q "npcd stopped" "$work/log" || { echo "FAIL: no clean shutdown message"; exit 1; }

# A bad config stops start-up with a message naming the key and exit code 2.
echo '{ "tick_rate": 10 }' > "$work/bad.json"
rc=0
"$npcd" --config "$work/bad.json" > "$work/bad.log" 2>&1 || rc=$?
[ "$rc" -eq 2 ] || { echo "FAIL: bad config exited $rc, expected 2"; exit 1; }
grep -q "/tick_rate: unknown key" "$work/bad.log" || { echo "FAIL: bad key not named"; cat "$work/bad.log"; exit 1; }
echo "npcd smoke test passed"
