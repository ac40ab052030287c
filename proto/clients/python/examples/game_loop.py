#!/usr/bin/python3
"""An example game loop, the same as the Node client's: open a game stream, create a
villager NPC (owned by this stream) and a player beside it, perform the actions npcd sends
for the villager (a MoveTo reports progress, then completes) and stop once the villager
does something other than walk: it saw the player and greets.

  examples/game_loop.py 127.0.0.1:50051 [token]     (with the demo daemon running)
"""
import json
import os
import queue
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from npcd_client import NpcdClient  # noqa: E402


def run_game_loop(client, agent_id=900001, player_id=900002, timeout_s=20.0, log=lambda line: None):
    """Returns {"performed": [...], "progress_reports": n, "errors": [...], "behavior": name}."""
    pb = client.pb
    result = {"performed": [], "progress_reports": 0, "errors": [], "behavior": ""}
    actions = queue.Queue()  # the stream's thread hands actions to this loop
    # The welcome can arrive on the stream's thread before open_stream() has returned the
    # stream to this one: its handler waits for it.
    opened = threading.Event()

    def on_welcome(welcome):
        log(f"connected as client {welcome.client_id}, tick {welcome.tick}")
        opened.wait()
        # The world as the game knows it; sent again after every reconnect.
        stream.subscribe(pb.Subscription())
        stream.upsert(pb.Entity(id=agent_id, kind=pb.ENTITY_KIND_NPC, archetype="villager",
                                position=pb.Vec3(x=-30, y=-30, z=0)),
                      pb.Entity(id=player_id, kind=pb.ENTITY_KIND_PLAYER,
                                position=pb.Vec3(x=-27, y=-30, z=0)))

    def on_event(event):
        if event.kind == pb.EVENT_KIND_ERROR:
            result["errors"].append(event.text)

    def on_action(action):
        if action.agent == agent_id:  # the demo's own NPCs are played by the daemon
            actions.put(action)

    stream = client.open_stream(on_welcome=on_welcome, on_event=on_event, on_action=on_action,
                                on_reconnecting=lambda attempt, delay_s: log(
                                    f"reconnecting (attempt {attempt}) in {delay_s:.2f} s"))
    opened.set()
    deadline = time.monotonic() + timeout_s
    try:
        while time.monotonic() < deadline:
            try:
                action = actions.get(timeout=0.1)
            except queue.Empty:
                continue
            log(f"perform {action.name} (intention {action.intention})")
            result["performed"].append(action.name)
            if action.name != "MoveTo":
                stream.complete(action)
                break
            # A real game moves the NPC here; this one reports halfway, then arrival.
            time.sleep(0.1)
            if stream.progress(action, 0.5) is not None:
                result["progress_reports"] += 1
            time.sleep(0.1)
            stream.complete(action)
        else:
            raise TimeoutError(f"no reaction within {timeout_s} s: {result['performed']}")
    finally:
        stream.close()
    view = json.loads(client.get_agent(agent_id).json)
    result["behavior"] = (view.get("behavior") or {}).get("name", "")
    log(f"villager {agent_id} performed {', '.join(result['performed'])}; "
        f"behavior {result['behavior']}")
    return result


if __name__ == "__main__":
    target = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("NPCD_TARGET", "127.0.0.1:50051")
    token = sys.argv[2] if len(sys.argv) > 2 else os.environ.get("NPCD_AUTH_TOKEN")
    npcd = NpcdClient(target, token=token)
    try:
        run_game_loop(npcd, log=print)
    finally:
        npcd.close()
