"""A token bucket: a rate a second after a burst (a socket's messages, an address's handshakes, talk)."""

from __future__ import annotations

import time


class Budget:
    """A token bucket: `rate` a second, sustained, after a burst of `burst` (None: as many as `rate`)."""

    def __init__(self, rate: float, clock=time.monotonic, burst: float | None = None):
        self.rate, self.clock = rate, clock
        self.burst = rate if burst is None else burst
        self.tokens, self.refilled = self.burst, clock()

    def spend(self) -> bool:
        """Take a token; False (and nothing taken) if the bucket is empty."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.refilled) * self.rate)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def full(self) -> bool:
        """Whether it has refilled since it was last spent (its address has been quiet a while)."""
        return self.tokens + (self.clock() - self.refilled) * self.rate >= self.burst
