"""The client against a real npcd on the demo world (started by tests/daemon.py)."""
import os
import sys
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "examples"))
sys.path.insert(0, HERE)
from daemon import TOKEN, Daemon, free_port  # noqa: E402
from game_loop import run_game_loop  # noqa: E402
from npcd_client import Backoff, NpcdClient, NpcdError  # noqa: E402

import grpc  # noqa: E402


def wait_until(predicate, timeout_s=10.0):
    deadline = time.monotonic() + timeout_s
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


class ClientTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.daemon = Daemon()
        cls.client = NpcdClient(cls.daemon.target, token=TOKEN)
        # The daemon listens before its first tick, and the world file's NPCs arrive with that
        # tick: the figures below are the world's only once it has ticked.
        if not wait_until(lambda: cls.client.get_stats().tick > 0):
            raise RuntimeError("npcd did not tick within 10 s")

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        assert cls.daemon.stop() == 0

    def test_the_example_game_loop_owns_a_villager_and_sees_it_greet(self):
        result = run_game_loop(self.client, timeout_s=30)
        self.assertEqual(result["errors"], [])
        self.assertTrue([a for a in result["performed"] if a != "MoveTo"], result["performed"])
        self.assertEqual(result["behavior"], "Greet")

    def test_admin_calls_answer_with_the_daemon_figures(self):
        pb = self.client.pb
        stats = self.client.get_stats()
        self.assertGreaterEqual(stats.agents, 15)
        agent = self.client.spawn_agent(pb.Entity(id=900201, archetype="villager",
                                                  position=pb.Vec3(x=-40, y=-40, z=0)))
        self.assertEqual(agent, 900201)
        intention = self.client.program_intention(
            agent, "Wait", [pb.Param(name="duration", number=1, unit="s")])
        self.assertGreater(intention, 0)
        self.client.despawn_agent(agent)

    def test_a_refused_call_raises_with_its_code_and_the_daemon_message(self):
        with self.assertRaises(NpcdError) as refused:
            self.client.despawn_agent(424242)
        self.assertEqual(refused.exception.code, grpc.StatusCode.NOT_FOUND)
        self.assertTrue(str(refused.exception).startswith("DespawnAgent: NOT_FOUND: "))
        stranger = NpcdClient(self.daemon.target, token="wrong")
        with self.assertRaises(NpcdError) as denied:
            stranger.get_stats()
        self.assertEqual(denied.exception.code, grpc.StatusCode.UNAUTHENTICATED)
        stranger.close()


class ReconnectTest(unittest.TestCase):
    def test_a_game_stream_reconnects_with_backoff_when_the_daemon_comes_and_goes(self):
        port = free_port()
        client = NpcdClient(f"127.0.0.1:{port}", token=TOKEN,
                            backoff=Backoff(initial_s=0.05, max_s=0.4, jitter=0))
        lock = threading.Lock()
        delays, welcomes, after_welcome = [], [], {}

        def on_reconnecting(attempt, delay_s):
            with lock:
                delays.append(round(delay_s, 6))
                if welcomes and "delay_s" not in after_welcome:
                    after_welcome["delay_s"] = round(delay_s, 6)

        def on_disconnected(code, details):
            with lock:
                if welcomes and "code" not in after_welcome:
                    after_welcome["code"] = code

        stream = client.open_stream(on_reconnecting=on_reconnecting,
                                    on_disconnected=on_disconnected,
                                    on_welcome=lambda w: welcomes.append(w.client_id))
        daemon = None
        try:
            # Nothing listens yet: attempts back off 0.05, 0.1, 0.2, 0.4 s...
            self.assertTrue(wait_until(lambda: len(delays) >= 4))
            self.assertEqual(delays[:4], [0.05, 0.1, 0.2, 0.4])
            self.assertFalse(stream.connected)
            daemon = Daemon(port)
            self.assertTrue(wait_until(lambda: len(welcomes) == 1))
            self.assertEqual(daemon.stop(), 0)  # streams end with UNAVAILABLE
            daemon = None
            self.assertTrue(wait_until(lambda: not stream.connected))
            daemon = Daemon(port)
            self.assertTrue(wait_until(lambda: len(welcomes) == 2))
            self.assertEqual(after_welcome["code"], grpc.StatusCode.UNAVAILABLE)
            self.assertEqual(after_welcome["delay_s"], 0.05)  # the welcome reset the backoff
        finally:
            stream.close()
            client.close()
            if daemon is not None:
                self.assertEqual(daemon.stop(), 0)


if __name__ == "__main__":
    unittest.main()
