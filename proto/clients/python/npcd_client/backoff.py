"""Reconnect delays: exponential growth with full jitter, capped, reset by a welcome.

Jitter spreads a fleet of game servers that lost the daemon at the same moment."""
import random as _random


class Backoff:
    """Delays in seconds. initial_s > 0, max_s >= initial_s, multiplier >= 1, jitter in
    [0, 1] (the fraction of each delay drawn at random); `random` returns [0, 1)."""

    def __init__(self, initial_s=0.2, max_s=10.0, multiplier=2.0, jitter=0.5, random=None):
        if not initial_s > 0:
            raise ValueError(f"backoff initial_s: must be > 0, got {initial_s}")
        if not max_s >= initial_s:
            raise ValueError(f"backoff max_s: must be >= initial_s ({initial_s}), got {max_s}")
        if not multiplier >= 1:
            raise ValueError(f"backoff multiplier: must be >= 1, got {multiplier}")
        if not 0 <= jitter <= 1:
            raise ValueError(f"backoff jitter: must be within [0, 1], got {jitter}")
        self.initial_s, self.max_s, self.multiplier, self.jitter = initial_s, max_s, multiplier, jitter
        self.random = random or _random.random
        self.attempts = 0

    def next(self):
        """The delay before the next attempt; counts one more failed attempt."""
        ceiling = min(self.max_s, self.initial_s * self.multiplier ** self.attempts)
        self.attempts += 1
        return ceiling * (1 - self.jitter) + ceiling * self.jitter * self.random()

    def reset(self):
        """A connection succeeded: start again from initial_s."""
        self.attempts = 0
