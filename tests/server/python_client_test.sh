#!/usr/bin/env bash
# Runs the Python client's smoke scenario against a real npcd on the demo world.
# Usage: python_client_test.sh NPCD_BINARY SOURCE_DIR
set -euo pipefail
npcd=$1
src=$2
work=$(mktemp -d)
trap 'kill $pid 2>/dev/null || true; rm -rf "$work"' EXIT
cat > "$work/npcd.json" <<JSON
{ "listen": "127.0.0.1:0", "tick_hz": 20, "archetypes_dir": "$src/config/archetypes",
  "selection_trees_dir": "$src/config/selection_trees", "behavior_trees_dir": "$src/config/behavior_trees", "long_actions": "$src/config/long_actions.json",
  "world": "$src/config/demo.json", "status_interval_s": 0, "auth_token": "py-token" }
JSON
"$npcd" --config "$work/npcd.json" > "$work/log" 2>&1 &
pid=$!
port=""
for _ in $(seq 1 100); do
  port=$(grep -o '(port [0-9]*)' "$work/log" | grep -o '[0-9]*' || true)
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { cat "$work/log"; echo "FAIL: npcd did not start"; exit 1; }
/usr/bin/python3 "$src/scripts/npcd_client.py" --target "127.0.0.1:$port" --token py-token smoke
