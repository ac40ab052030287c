#!/usr/bin/python3
"""Input journal and replay: the real npcd on the demo world (simulated players) with a bot
harness streaming players and NPCs into it, snapshots every 2 s of simulated time and the
journal synced every tick, is killed with SIGKILL at a random moment. Then:
  1. `npcd replay SNAPSHOT JOURNAL` re-runs every snapshot's journal offline: every tick's
     state checksum and output hash equal the live run's;
  2. `--restore latest` brings the daemon back at the last tick the journal holds (not at the
     snapshot: nothing it applied is lost), with every agent (the demo's and the bots'),
     and goes on in that journal;
  3. after a graceful stop, the journal continued across the restart still replays tick for
     tick from its snapshot;
  4. a flipped byte in a journal ends the replay there, saying where;
and `npcd replay --agent` shows one agent's actions and intention events tick by tick, and
a journal of another snapshot or a missing argument is refused (exit 2).
Usage: npcd_journal_test.py NPCD_BINARY NPCD_BOTS_BINARY SOURCE_DIR"""
import glob
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

NPCD, BOTS, SRC = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path.insert(0, os.path.join(SRC, "proto", "clients", "python"))
import grpc  # noqa: E402
from npcd_client.stubs import load_stubs  # noqa: E402
from npcd_demo_config import demo_config  # noqa: E402

pb, rpc = load_stubs()
work = tempfile.mkdtemp(prefix="npcd-journal-")
snapshots = os.path.join(work, "snapshots")
config = os.path.join(work, "npcd.json")


def fail(text, log=None):
    if log:
        print(open(log).read()[-6000:])
    print("FAIL: " + text)
    sys.exit(1)


with open(config, "w") as f:
    json.dump(demo_config(SRC, tick_hz=20,
                          perception=json.load(open(f"{SRC}/config/npcd.json")).get("perception", {}),
                          hibernation={"enabled": True, "quiet_s": 3},
                          snapshot={"dir": snapshots, "interval_s": 2, "keep": 20,
                                    "journal": {"sync": "tick"}}), f)


def start(log, *args):
    proc = subprocess.Popen([NPCD, "--config", config, *args], stdout=open(log, "w"),
                            stderr=subprocess.STDOUT)
    for _ in range(300):
        found = re.search(r"\(port (\d+)\)", open(log).read())
        if found:
            return proc, int(found.group(1))
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    fail("npcd did not start", log)


def agents(port):
    stub = rpc.NpcSimStub(grpc.insecure_channel(f"127.0.0.1:{port}"))
    for _ in range(100):
        s = stub.GetStats(pb.GetStatsRequest(), timeout=5)
        if s.tick > 0:
            return s.agents
        time.sleep(0.05)
    fail("GetStats shows no tick")


def replay(snapshot, journal, *extra):
    r = subprocess.run([NPCD, "replay", snapshot, journal, "--config", config, "--quiet", *extra],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    return r.returncode, r.stdout, r.stderr


def journal_of(snapshot):
    tick = re.search(r"snapshot-(\d+)\.npcsnap", snapshot).group(1)
    return os.path.join(snapshots, f"journal-{tick}.npcjournal")


def replay_all():
    """Replays every snapshot's journal; returns {snapshot tick: (ticks replayed)}."""
    done = {}
    for snap in sorted(glob.glob(os.path.join(snapshots, "snapshot-*.npcsnap"))):
        journal = journal_of(snap)
        if not os.path.exists(journal):
            continue
        code, out, err = replay(snap, journal)
        m = re.search(r"replayed (\d+) ticks from tick (\d+): every tick matches the live run", out)
        if code != 0 or not m:
            fail(f"replay of {journal} exited {code}:\n{out}{err}")
        done[int(m.group(2))] = int(m.group(1))
    return done


# The live run: the daemon, its stand-in game and a bot client; killed at a random moment.
random.seed(os.getpid())
log1 = os.path.join(work, "first.log")
proc, port = start(log1)
bots = subprocess.Popen([BOTS, "--scenario", f"{SRC}/config/bots/smoke.json", "--target",
                         f"127.0.0.1:{port}", "--duration", "60"],
                        stdout=open(os.path.join(work, "bots.log"), "w"), stderr=subprocess.STDOUT)
deadline = time.time() + 30
live_agents = agents(port)
while live_agents < 56 and time.time() < deadline:  # the demo's 16 and the bots' 40 NPCs
    time.sleep(0.2)
    live_agents = agents(port)
time.sleep(2.0)
time.sleep(random.uniform(1.0, 4.0))
proc.send_signal(signal.SIGKILL)
proc.wait()
bots.kill()
bots.wait()

# 1. Every journal replays tick for tick.
replayed = replay_all()
if len(replayed) < 2 or sum(replayed.values()) < 80:
    fail(f"too little was journaled: {replayed}", log1)
last_snapshot = max(replayed)
last_tick = last_snapshot + replayed[last_snapshot]
# The last journal that ran a while (the kill may come a tick after a snapshot, leaving the
# very last one nearly empty) holds the bots' updates.
ran = max((t for t, n in replayed.items() if n >= 10), default=last_snapshot)
commands = os.path.getsize(journal_of(os.path.join(snapshots, f"snapshot-{ran:012d}.npcsnap")))
if commands < 2000:
    fail(f"the last journal of 10 ticks or more holds {commands} bytes: the bots' updates are "
         f"missing ({replayed})", log1)

# The replay's --agent view: Raoul acts somewhere in the run (not necessarily in its first
# two seconds), and its refusals (exit 2, the reason named).
first_snap = os.path.join(snapshots, f"snapshot-{min(replayed):012d}.npcsnap")
shown = []
for tick in sorted(replayed):
    snap = os.path.join(snapshots, f"snapshot-{tick:012d}.npcsnap")
    r = subprocess.run([NPCD, "replay", snap, journal_of(snap), "--config", config, "--agent", "1601"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    if r.returncode != 0:
        fail(f"replay --agent 1601 exited {r.returncode}:\n{r.stdout[-3000:]}{r.stderr}")
    shown += re.findall(r"^  (?:action \w+|intention_\w+) \(intention \d+\)", r.stdout, re.M)
if not shown:
    fail("replay --agent 1601 shows nothing of Raoul in any journal")
other = os.path.join(snapshots, f"snapshot-{last_snapshot:012d}.npcsnap")
code, out, err = replay(first_snap, journal_of(other))
if code != 2 or "follows the snapshot of tick" not in err:
    fail(f"a journal of another snapshot: exit {code}\n{out}{err}")
r = subprocess.run([NPCD, "replay", first_snap], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                   text=True, timeout=60)
if r.returncode != 2 or "usage: npcd replay SNAPSHOT JOURNAL" not in r.stderr:
    fail(f"replay with one file: exit {r.returncode}\n{r.stderr}")

# 2. Restart: back at the last journaled tick, every agent there, the journal goes on.
log2 = os.path.join(work, "second.log")
proc, port = start(log2, "--restore", "latest")
restored_agents = agents(port)
time.sleep(2.0)
proc.send_signal(signal.SIGTERM)
if proc.wait(timeout=30) != 0:
    fail("npcd did not stop cleanly after the restore", log2)
text = open(log2).read()
if f"at tick {last_snapshot} from" not in text:
    fail(f"not restored from the snapshot of tick {last_snapshot}", log2)
# A kill in the tick after a snapshot leaves its journal empty: then the snapshot alone is
# the last journaled tick, and the daemon has nothing to replay (and says nothing of it).
if last_tick > last_snapshot and not re.search(
        rf"replayed \d+ ticks of the input journal: at tick {last_tick} as before the stop", text):
    fail(f"the restore did not replay the journal up to tick {last_tick}", log2)
if "diverged" in text:
    fail("the journal replayed at the restore diverged", log2)
if restored_agents != live_agents or live_agents < 56:
    fail(f"{restored_agents} agents after the restore, {live_agents} before the kill", log2)

# 3. The journal continued across the restart still replays from its snapshot, and longer.
snap = os.path.join(snapshots, f"snapshot-{last_snapshot:012d}.npcsnap")
code, out, err = replay(snap, journal_of(snap))
m = re.search(r"replayed (\d+) ticks from tick \d+: every tick matches the live run", out)
if code != 0 or not m or int(m.group(1)) <= replayed[last_snapshot]:
    fail(f"the continued journal: exit {code}\n{out}{err}")

# 4. A flipped byte: the replay stops at the damaged record and says so.
journal = journal_of(snap)
size = os.path.getsize(journal)
with open(journal, "r+b") as f:
    f.seek(size // 2)
    byte = f.read(1)
    f.seek(size // 2)
    f.write(bytes([byte[0] ^ 0xFF]))
code, out, err = replay(snap, journal)
if code != 0 or "the journal ends early: byte" not in out:
    fail(f"a damaged journal: exit {code}\n{out}{err}")
if "Agent" in err:
    fail(err)
shutil.rmtree(work)
print(f"journal test passed: {sum(replayed.values())} ticks replayed over {len(replayed)} journals, "
      f"restart at tick {last_tick}")
