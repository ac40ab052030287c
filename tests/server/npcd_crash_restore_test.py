#!/usr/bin/python3
"""Crash and restore: the real npcd on the demo world (simulated players, quiet places
sleeping after 3 s) runs until Raoul has picked the meadow's flowers and a place sleeps,
takes a snapshot through the admin Snapshot call, is killed with SIGKILL, and comes back
with --restore latest: no agent is lost, Raoul's inventory, the baker's stock and the
sleeping places' clocks are as they were. Then a damaged newest snapshot makes
--restore latest fall back to the previous one (and say so), and --restore of a damaged
file refuses to start. Usage: npcd_crash_restore_test.py NPCD_BINARY SOURCE_DIR"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

NPCD, SRC = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(SRC, "proto", "clients", "python"))
import grpc  # noqa: E402
from npcd_client.stubs import load_stubs  # noqa: E402
from npcd_demo_config import demo_config  # noqa: E402

pb, rpc = load_stubs()
RAOUL, BAKER = 1601, 1101
DEMO_AGENTS = [a["id"] for a in json.load(open(os.path.join(SRC, "config", "demo.json")))["entities"]
               if a.get("kind") == "npc"]
work = tempfile.mkdtemp(prefix="npcd-crash-")
snapshots = os.path.join(work, "snapshots")


def fail(text, log=None):
    if log:
        print(open(log).read())
    print("FAIL: " + text)
    sys.exit(1)


def start(log, *args):
    config = os.path.join(work, "npcd.json")
    with open(config, "w") as f:
        json.dump(demo_config(SRC, tick_hz=20, hibernation={"enabled": True, "quiet_s": 3},
                              snapshot={"dir": snapshots, "interval_s": 0, "keep": 5}), f)
    proc = subprocess.Popen([NPCD, "--config", config, *args], stdout=open(log, "w"),
                            stderr=subprocess.STDOUT)
    for _ in range(200):
        found = re.search(r"\(port (\d+)\)", open(log).read())
        if found:
            channel = grpc.insecure_channel("127.0.0.1:" + found.group(1))
            return proc, rpc.NpcSimStub(channel)
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    fail("npcd did not start", log)


def stats(stub):
    """GetStats once the daemon has published a tick (its board is filled after a tick)."""
    for _ in range(100):
        s = stub.GetStats(pb.GetStatsRequest(), timeout=5)
        if s.tick > 0:
            return s
        time.sleep(0.05)
    fail("GetStats shows no tick")


def views(stub):
    out = {}
    for agent in DEMO_AGENTS:
        out[agent] = json.loads(stub.GetAgent(pb.GetAgentRequest(id=agent), timeout=5).json)
    return out


# 1. Run until Raoul carries the flowers and some place sleeps with its agents.
log1 = os.path.join(work, "first.log")
proc, stub = start(log1)
deadline = time.time() + 120
while True:
    before = views(stub)
    asleep = [a for a, v in before.items() if v["asleep"] and v["asleep_for_s"] > 2]
    if before[RAOUL]["inventory"].get("flowers") == 1 and asleep:
        break
    if time.time() > deadline:
        fail(f"no flowers and sleeping place after 120 s: {before[RAOUL]}", log1)
    time.sleep(0.5)
stats_before = stats(stub)
reply = stub.Snapshot(pb.SnapshotRequest(), timeout=10)
if not os.path.exists(reply.path) or reply.tick < before[RAOUL]["tick"]:
    fail(f"Snapshot replied {reply}", log1)
second = stub.Snapshot(pb.SnapshotRequest(), timeout=10)  # a newer one for the fallback test
proc.send_signal(signal.SIGKILL)
proc.wait()

# 2. Restart from the newest snapshot: every agent back, with what it had.
log2 = os.path.join(work, "second.log")
proc, stub = start(log2, "--restore", "latest")
after = views(stub)
stats_after = stats(stub)
proc.send_signal(signal.SIGKILL)
proc.wait()
text = open(log2).read()
if f"from {second.path}" not in text or f"at tick {second.tick}" not in text:
    fail("no 'restored ... at tick ... from' line naming the newest snapshot", log2)
if stats_after.agents != stats_before.agents or stats_after.agents != len(DEMO_AGENTS):
    fail(f"agents before {stats_before.agents}, after {stats_after.agents}", log2)
if stats_before.state_checksum == 0 or stats_after.state_checksum == 0:
    fail("GetStats state_checksum is 0 with snapshots on", log2)
if stats_after.tick < second.tick:
    fail(f"tick {stats_after.tick} after restoring tick {second.tick}", log2)
if after[RAOUL]["inventory"] != before[RAOUL]["inventory"]:
    fail(f"Raoul's inventory {after[RAOUL]['inventory']}, was {before[RAOUL]['inventory']}", log2)
baker_before, baker_after = before[BAKER]["inventory"], after[BAKER]["inventory"]
if baker_after.get("flour", 0) > baker_before.get("flour", 0) or \
        baker_after.get("bread", 0) < baker_before.get("bread", 0):
    fail(f"the baker's stock {baker_after}, was {baker_before}", log2)
for agent in asleep:
    if after[agent]["asleep"] and after[agent]["asleep_for_s"] < before[agent]["asleep_for_s"]:
        fail(f"agent {agent} asleep for {after[agent]['asleep_for_s']} s, "
             f"was {before[agent]['asleep_for_s']} s: the place's sleep clock restarted", log2)
if not any(after[a]["asleep"] for a in asleep):
    fail("no agent asleep after the restore", log2)

# 3. A damaged newest snapshot: --restore latest falls back to the previous one.
with open(second.path, "r+b") as f:
    f.truncate(os.path.getsize(second.path) - 7)
log3 = os.path.join(work, "third.log")
proc, stub = start(log3, "--restore", "latest")
restored = stats(stub)
proc.send_signal(signal.SIGKILL)
proc.wait()
text = open(log3).read()
if f"snapshot refused, falling back to an older one: {second.path}: truncated" not in text:
    fail("no fallback warning naming the damaged snapshot", log3)
if f"from {reply.path}" not in text or restored.agents != len(DEMO_AGENTS):
    fail(f"not restored from the previous snapshot {reply.path}: {restored.agents} agents", log3)

# 4. --restore FILE of a damaged file: no start, the file and the reason named.
log4 = os.path.join(work, "fourth.log")
config = os.path.join(work, "npcd.json")
result = subprocess.run([NPCD, "--config", config, "--restore", second.path],
                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
if result.returncode != 2 or f"--restore: {second.path}: truncated: the body has" not in result.stdout:
    print(result.stdout)
    fail(f"--restore of a damaged file exited {result.returncode}")
shutil.rmtree(work)
print("crash and restore test passed")
