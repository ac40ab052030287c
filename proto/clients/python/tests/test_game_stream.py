import os
import sys
import threading
import unittest
from types import SimpleNamespace

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from npcd_client.backoff import Backoff  # noqa: E402
from npcd_client.game_stream import GameStream  # noqa: E402


def message(stored_seq=0, welcome=None):
    return SimpleNamespace(stored_seq=stored_seq, welcome=welcome, actions=[], events=[],
                           HasField=lambda name: name == "welcome" and welcome is not None)


class GameStreamTest(unittest.TestCase):
    def test_stored_seq_follows_the_highest_the_daemon_sent(self):
        done = threading.Event()

        class Call:
            # The daemon's messages for one Connect call; then the stream ends.
            def __iter__(self):
                yield message(welcome=SimpleNamespace(client_id=3))
                yield message(stored_seq=2)
                yield message(stored_seq=0)  # a message that does not move it
                yield message(stored_seq=5)
                done.set()

            def cancel(self):
                pass

        class Stub:
            def Connect(self, requests, metadata=None):
                return Call()

        stream = GameStream(Stub(), None, lambda: [], Backoff(initial_s=10, jitter=0))
        told = []
        stream.on_stored = told.append
        stream.start()
        self.assertTrue(done.wait(5))
        stream.close(timeout_s=1)
        self.assertEqual(stream.stored_seq, 5)
        self.assertEqual(told, [2, 5])


if __name__ == "__main__":
    unittest.main()
