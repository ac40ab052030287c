#!/usr/bin/env bash
# Soak test: runs the bot harness against npcd for a long time, twice — on the demo world,
# then on a generated scale world (npcd-bots --world-scale) — and samples the daemon every
# 10 s: resident memory (VmRSS), open file descriptors, tick p99 (from its status line).
# Fails (exit 1) when, after the warm-up, memory grows faster than the allowed slope, when
# descriptors grow, or when npcd does not stop cleanly on SIGTERM.
#
#   scripts/soak.sh MINUTES        # each world gets half of MINUTES (at least 1 minute each)
#
# Environment:
#   NPCD_BIN, NPCD_BOTS_BIN   use these binaries, skip the build
#   SOAK_SCALE_AGENTS         agents of the scale world (default 10000)
#   SOAK_WARMUP_S             samples before this are not judged (default: a fifth of the run,
#                             at least 30 s)
#   SOAK_MAX_SLOPE_KIB_MIN    allowed RSS growth after warm-up, KiB per minute (default 512:
#                             half a megabyte a minute is 0.7 GB a day, a leak worth failing on)
#   SOAK_SAMPLE_S             sampling period (default 10)
#   SOAK_OUT                  directory for the CSV samples and logs (default: a temp dir, kept)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
minutes=${1:-}
[[ "$minutes" =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "usage: scripts/soak.sh MINUTES" >&2; exit 2; }
scale_agents=${SOAK_SCALE_AGENTS:-10000}
max_slope=${SOAK_MAX_SLOPE_KIB_MIN:-512}
sample_s=${SOAK_SAMPLE_S:-10}
out=${SOAK_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/npcd-soak.XXXXXX")}
mkdir -p "$out"
half_s=$(python3 -c "print(max(60, int(float('$minutes') * 60 / 2)))")
warmup_s=${SOAK_WARMUP_S:-$(( half_s / 5 > 30 ? half_s / 5 : 30 ))}

npcd_pid=""
bots_pid=""
cleanup() {
  [ -n "$bots_pid" ] && kill -TERM "$bots_pid" 2>/dev/null || true
  [ -n "$npcd_pid" ] && kill -KILL "$npcd_pid" 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

source "$root/scripts/daemon_binaries.sh"
find_binaries soak.sh "$out"

# soak NAME CONFIG: one daemon, the bots for half_s seconds, samples to $out/NAME.csv.
soak() {
  local name=$1 config=$2 log="$out/$1.npcd.log" csv="$out/$1.csv"
  "$npcd" --config "$config" > "$log" 2>&1 &
  npcd_pid=$!
  local port=""
  for _ in $(seq 1 600); do
    port=$(sed -n 's/.*npcd listening on .* (port \([0-9]*\)).*/\1/p' "$log" | head -n 1)
    [ -n "$port" ] && break
    kill -0 "$npcd_pid" 2>/dev/null || break
    sleep 0.1
  done
  [ -n "$port" ] || { tail -n 20 "$log"; echo "soak.sh: $name: npcd did not start" >&2; return 1; }
  "$bots" --target "127.0.0.1:$port" --scenario "$root/config/bots/soak.json" \
    --duration "$half_s" > "$out/$name.bots.log" 2>&1 &
  bots_pid=$!
  echo "t_s,rss_kib,fds,tick_p99_ms,agents" > "$csv"
  local start=$SECONDS
  while kill -0 "$bots_pid" 2>/dev/null; do
    local rss fds p99 agents
    rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$npcd_pid/status" 2>/dev/null || echo 0)
    fds=$(ls "/proc/$npcd_pid/fd" 2>/dev/null | wc -l)
    p99=$(grep "ticks/s" "$log" | tail -n 1 | sed -n 's/.*tick p50 [0-9.]* ms p99 \([0-9.]*\) ms.*/\1/p')
    agents=$(grep "ticks/s" "$log" | tail -n 1 | sed -n 's/.*| agents \([0-9]*\) .*/\1/p')
    echo "$((SECONDS - start)),$rss,$fds,${p99:-0},${agents:-0}" >> "$csv"
    sleep "$sample_s"
  done
  local bots_rc=0
  wait "$bots_pid" || bots_rc=$?
  bots_pid=""
  kill -TERM "$npcd_pid"
  local npcd_rc=0
  wait "$npcd_pid" || npcd_rc=$?
  npcd_pid=""
  python3 - "$name" "$csv" "$warmup_s" "$max_slope" "$npcd_rc" "$bots_rc" <<'PY'
import csv, sys
name, path, warmup, max_slope, npcd_rc, bots_rc = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
rows = [{k: float(v) for k, v in r.items()} for r in csv.DictReader(open(path))]
judged = [r for r in rows if r["t_s"] >= warmup and r["rss_kib"] > 0]
ok = True
slope = 0.0
if len(judged) >= 3:
    n = len(judged)
    mt = sum(r["t_s"] for r in judged) / n
    mr = sum(r["rss_kib"] for r in judged) / n
    var = sum((r["t_s"] - mt) ** 2 for r in judged)
    slope = 60.0 * sum((r["t_s"] - mt) * (r["rss_kib"] - mr) for r in judged) / var if var else 0.0
else:
    print(f"{name}: too few samples after the {warmup:.0f} s warm-up to judge memory")
    ok = False
p99s = sorted(r["tick_p99_ms"] for r in rows if r["tick_p99_ms"] > 0)
fds_w = [r["fds"] for r in judged] or [0]
print(f"{name}: {len(rows)} samples over {rows[-1]['t_s'] if rows else 0:.0f} s, agents {max((r['agents'] for r in rows), default=0):.0f}")
print(f"{name}: RSS {rows[0]['rss_kib']/1024:.1f} MiB at start, {judged[0]['rss_kib']/1024 if judged else 0:.1f} MiB after warm-up, "
      f"{rows[-1]['rss_kib']/1024:.1f} MiB at end, max {max(r['rss_kib'] for r in rows)/1024:.1f} MiB; "
      f"slope after warm-up {slope:+.1f} KiB/min (limit {max_slope:.0f})")
print(f"{name}: open descriptors {fds_w[0]:.0f} after warm-up, {fds_w[-1]:.0f} at end, max {max(fds_w):.0f}")
if p99s:
    print(f"{name}: tick p99 (status line) median {p99s[len(p99s)//2]:.2f} ms, max {p99s[-1]:.2f} ms")
if slope > max_slope:
    print(f"{name}: FAIL memory grows {slope:.1f} KiB/min after warm-up (limit {max_slope:.0f})"); ok = False
if fds_w[-1] > fds_w[0] + 8:
    print(f"{name}: FAIL descriptors grew from {fds_w[0]:.0f} to {fds_w[-1]:.0f}"); ok = False
if npcd_rc != 0:
    print(f"{name}: FAIL npcd exited {npcd_rc} after SIGTERM"); ok = False
print(f"{name}: npcd-bots exit code {bots_rc}; {'PASS' if ok else 'FAIL'}")
sys.exit(0 if ok else 1)
PY
}

common='"listen": "127.0.0.1:0", "tick_hz": 10, "status_interval_s": 5,
  "archetypes_dir": "'$root'/config/archetypes", "selection_trees_dir": "'$root'/config/selection_trees",
  "behavior_trees_dir": "'$root'/config/behavior_trees", "long_actions": "'$root'/config/long_actions.json",
  "influences": "'$root'/config/actions/influences.json", "goap_dir": "'$root'/config/goap",
  "simulated_players": true, "max_agents": 200000'
echo "{ $common, \"world\": \"$root/config/demo.json\" }" > "$out/demo.json"
"$bots" --world-scale "$scale_agents" --write-world "$out/scale-world.json" > /dev/null
echo "{ $common, \"world\": \"$out/scale-world.json\" }" > "$out/scale.json"

echo "soak.sh: $minutes min: demo world, then a $scale_agents-agent scale world, ${half_s} s each;" \
     "samples every ${sample_s} s in $out"
rc=0
soak demo "$out/demo.json" || rc=1
soak scale "$out/scale.json" || rc=1
echo "soak.sh: $([ "$rc" -eq 0 ] && echo PASS || echo FAIL) (samples and logs in $out)"
exit "$rc"
