import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from npcd_client.backoff import Backoff  # noqa: E402


class BackoffTest(unittest.TestCase):
    def test_delays_grow_by_the_multiplier_up_to_the_cap(self):
        backoff = Backoff(initial_s=0.1, max_s=1.0, multiplier=2, jitter=0)
        self.assertEqual([round(backoff.next(), 6) for _ in range(6)], [0.1, 0.2, 0.4, 0.8, 1.0, 1.0])
        self.assertEqual(backoff.attempts, 6)

    def test_jitter_draws_between_one_minus_jitter_and_one_times_the_ceiling(self):
        self.assertAlmostEqual(Backoff(initial_s=1, jitter=0.5, random=lambda: 0).next(), 0.5)
        self.assertAlmostEqual(Backoff(initial_s=1, jitter=0.5, random=lambda: 0.999).next(), 0.9995)

    def test_reset_starts_again_from_the_initial_delay(self):
        backoff = Backoff(initial_s=0.1, jitter=0)
        backoff.next()
        backoff.next()
        backoff.reset()
        self.assertEqual(backoff.next(), 0.1)

    def test_bad_options_are_refused_naming_the_option(self):
        with self.assertRaisesRegex(ValueError, r"^backoff initial_s: must be > 0, got 0$"):
            Backoff(initial_s=0)
        with self.assertRaisesRegex(ValueError, r"^backoff max_s: must be >= initial_s \(5\), got 1$"):
            Backoff(initial_s=5, max_s=1)
        with self.assertRaisesRegex(ValueError, r"^backoff jitter: must be within \[0, 1\], got 2$"):
            Backoff(jitter=2)


if __name__ == "__main__":
    unittest.main()
