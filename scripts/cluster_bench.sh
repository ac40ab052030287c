#!/usr/bin/env bash
# Cluster throughput: agent-ticks per second of 1, 2 and 3 npcd nodes on this machine,
# sharing one generated scale world (core/sim/scale_world.h, written by
# `npcd-bots --world-scale`) through a private redis-server.
#
# Each node is given its share of the places as a static list (place i to node i mod N),
# not "balanced": balanced nodes started together race, the first one up sees itself alone
# and claims every place, and balanced nodes do not give places back when others join
# (README.md here), so a run would measure one busy node and idle ones.
# Each node ticks as fast as it can (tick_hz well above what one node reaches), so the
# figure is what the nodes get through, not a target rate. Prints a table: nodes,
# agent-ticks per second summed over the nodes, ratio to the first row (one node), the same
# per second of the nodes' CPU time (what else runs here does not change it), and each
# node's share.
# A benchmark to run and report (server/cluster/README.md "Throughput with 1, 2, 3 nodes"),
# not a test: nothing is checked against a threshold.
#
#   scripts/cluster_bench.sh [AGENTS]      # default 20000 (40 places of 500)
#
# Environment:
#   NPCD_BIN, NPCD_BOTS_BIN        use these binaries, skip the build
#   NPCD_BUILD_DIR                 build directory, as for scripts/build.sh
#   CLUSTER_BENCH_NODES            node counts to run (default "1 2 3")
#   CLUSTER_BENCH_SAMPLE_S         sampling window per node count (default 20)
#   CLUSTER_BENCH_TICK_HZ          each node's tick_hz (default 100)
#   CLUSTER_BENCH_TICK_THREADS     each node's tick.threads (default: the daemon's, one per
#                                  core, so a single node already uses every core)
#   CLUSTER_BENCH_MAX_RAYS         each node's perception max_rays_per_tick (default 0, no
#                                  limit: with the daemon's 50,000 a node of 20,000 agents
#                                  rations its agents' perception and a node of 7,000 does
#                                  not, so an agent-tick would not be the same work in every
#                                  row)
#   CLUSTER_BENCH_KEEP_LOGS=1      keep the logs' directory (printed at the end)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
agents=${1:-20000}
counts=${CLUSTER_BENCH_NODES:-1 2 3}
sample_s=${CLUSTER_BENCH_SAMPLE_S:-20}
tick_hz=${CLUSTER_BENCH_TICK_HZ:-100}
tick_threads=${CLUSTER_BENCH_TICK_THREADS:-}
max_rays=${CLUSTER_BENCH_MAX_RAYS:-0}
tick_section=""
[ -z "$tick_threads" ] || tick_section=$'\n'"  \"tick\": { \"threads\": $tick_threads },"
python=/usr/bin/python3   # Debian's, with python3-grpcio (scripts/setup.sh)
redis_server=$(command -v redis-server || echo /usr/bin/redis-server)

[ -x "$redis_server" ] || { echo "cluster_bench.sh: redis-server is not installed (scripts/setup.sh)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/npcd-cluster-bench.XXXXXX")
pids=()   # every process started here: redis-server and the nodes of the current round
cleanup() {
  for pid in "${pids[@]}"; do
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  if [ "${CLUSTER_BENCH_KEEP_LOGS:-0}" = 1 ]; then echo "cluster_bench.sh: logs in $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

source "$root/scripts/daemon_binaries.sh"
find_binaries cluster_bench.sh "$work"

"$bots" --world-scale "$agents" --write-world "$work/world.json"

redis_port=$(free_port)
"$redis_server" --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no \
  > "$work/redis.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$redis_port") 2>/dev/null; then break; fi
  sleep 0.05
done

# Node i's places of n: every n-th of the world's, from the i-th (1-based), as JSON.
places_of() {
  "$python" -c 'import json, sys
places = [p["name"] for p in json.load(open(sys.argv[1]))["places"]]
print(json.dumps(places[int(sys.argv[2]) - 1::int(sys.argv[3])]))' "$work/world.json" "$1" "$2"
}

# One node's config: the demo definitions, the scale world, every place awake (its two
# scripted players keep it so anyway), no metrics or status line.
write_config() {
  local node=$1 port=$2 prefix=$3 places=$4
  cat > "$work/$prefix-$node.json" <<EOF
{
  "listen": "127.0.0.1:$port",
  "tick_hz": $tick_hz,$tick_section
  "archetypes_dir": "$root/config/archetypes",
  "selection_trees_dir": "$root/config/selection_trees",
  "behavior_trees_dir": "$root/config/behavior_trees",
  "long_actions": "$root/config/long_actions.json",
  "influences": "$root/config/actions/influences.json",
  "goap_dir": "$root/config/goap",
  "world": "$work/world.json",
  "simulated_players": true,
  "hibernation": { "enabled": false },
  "perception": { "max_rays_per_tick": $max_rays },
  "status_interval_s": 0,
  "cluster": { "redis": "127.0.0.1:$redis_port", "node_id": "$node", "lease_ttl_s": 2,
               "places": $places, "key_prefix": "$prefix" }
}
EOF
}

# Waits until the nodes (PORT:PID each) hold every place between them and their agents
# have settled, then samples ticks and CPU time over the window; prints "<agent-ticks/s>
# <agent-ticks per CPU s> <per-node detail>". Agent-ticks per CPU second is the figure
# that does not depend on what else runs on the machine.
sample() {
  "$python" - "$root" "$work/world.json" "$sample_s" "$@" <<'PY'
import json, os, sys, time
root, world_path, window = sys.argv[1], sys.argv[2], float(sys.argv[3])
ports = [a.split(":")[0] for a in sys.argv[4:]]
pids = [a.split(":")[1] for a in sys.argv[4:]]
hz = os.sysconf("SC_CLK_TCK")
sys.path.insert(0, os.path.join(root, "proto", "clients", "python"))
import grpc
from npcd_client.stubs import load_stubs
pb, rpc = load_stubs()
places = len(json.load(open(world_path))["places"])
stubs = [rpc.NpcSimStub(grpc.insecure_channel(f"127.0.0.1:{p}")) for p in ports]

def stats():
    return [s.GetStats(pb.GetStatsRequest(), timeout=10) for s in stubs]

def cpu_s():
    """Each node's CPU time so far (utime + stime, /proc/PID/stat fields 14 and 15)."""
    out = []
    for pid in pids:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        out.append((int(fields[11]) + int(fields[12])) / hz)
    return out

deadline = time.monotonic() + 300
settled, last_agents = 0, None
while True:
    try:
        now = stats()
    except grpc.RpcError:
        now = None
    if now and sum(s.places_held for s in now) == places:
        agents = sum(s.agents for s in now)
        settled = settled + 1 if agents == last_agents else 0
        last_agents = agents
        if settled >= 3:  # the same count for 3 s: the places' npcs are all in
            break
    if time.monotonic() > deadline:
        sys.exit("the nodes did not hold every place within 300 s")
    time.sleep(1)
t0, before, cpu0 = time.monotonic(), stats(), cpu_s()
time.sleep(window)
t1, after, cpu1 = time.monotonic(), stats(), cpu_s()
cpu = sum(cpu1) - sum(cpu0)
rates = [(a.tick - b.tick) * a.agents / (t1 - t0) for a, b in zip(after, before)]
def phase(s, name):
    return next((p.p50_ms for p in s.phases if p.phase == name), 0.0)
detail = ", ".join(f"{a.places_held} places {a.agents} agents {(a.tick - b.tick) / (t1 - t0):.1f} ticks/s "
                   f"(tick p50 {a.tick_p50_ms:.0f} ms, perception {phase(a, 'perception'):.0f})"
                   for a, b in zip(after, before))
if sum(a.places_held for a in after) != places:
    detail += " (places moved during the window)"
print(f"{sum(rates):.0f} {sum(rates) * (t1 - t0) / cpu:.0f} {detail}")
PY
}

results=()
for n in $counts; do
  prefix="bench$n"
  ports=()
  round=()
  for i in $(seq 1 "$n"); do
    port=$(free_port)
    write_config "n$i" "$port" "$prefix" "$(places_of "$i" "$n")"
    "$npcd" --config "$work/$prefix-n$i.json" > "$work/$prefix-n$i.log" 2>&1 &
    pids+=($!)
    round+=($!)
    ports+=("$port:$!")
  done
  echo "cluster_bench.sh: $n node(s) (port:pid ${ports[*]}): waiting for every place, then ${sample_s} s"
  if ! line=$(sample "${ports[@]}"); then
    for i in $(seq 1 "$n"); do tail -n 5 "$work/$prefix-n$i.log" >&2; done
    exit 1
  fi
  results+=("$n $line")
  echo "cluster_bench.sh: $n node(s): $line"
  kill -TERM "${round[@]}" 2>/dev/null || true
  for pid in "${round[@]}"; do
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
done

echo
echo "== cluster throughput: $agents agents, tick_hz $tick_hz, tick.threads ${tick_threads:-$(nproc) (default)}," \
  "max_rays_per_tick $max_rays, ${sample_s} s per row, $(nproc) cores =="
echo "(every node on this one machine: beyond $(nproc) nodes they share cores, and anything"
echo " else running here competes with them; load average now: $(cut -d' ' -f1-3 /proc/loadavg))"
printf '%-6s %-14s %-7s %-18s %s\n' nodes agent-ticks/s ratio "per CPU second" "per node"
base=""
for r in "${results[@]}"; do
  read -r n rate per_cpu detail <<< "$r"
  [ -n "$base" ] || base=$rate
  printf '%-6s %-14s %-7s %-18s %s\n' "$n" "$rate" "$(awk -v a="$rate" -v b="$base" 'BEGIN { printf "%.2f", a / b }')" \
    "$per_cpu" "$detail"
done
