"""Per-client limits over HTTP: tables opened, seats taken and seats changing hands per minute, by client
address.

A client is its address (`request.remote_addr`: behind a trusted proxy, the address the proxy
saw). The defaults are generous enough for a household or a carrier's shared address, where
many players come from one address. New websockets per second are limited by SocketGate, in
front of Flask: a client that reconnects in a loop, or opens hundreds at once, gets a bare 429
that costs a tenth of a page, and cannot queue seconds of handshakes and first renders ahead
of other tables' moves (a page's own socket retries later, with htmx-ext-ws's backoff). A
client opening thousands of connections at once still costs their parsing: cap connections
per address in the reverse proxy too (README, "Production"). Websockets open at
once are counted by OpenSockets, which web/ws/endpoint.py asks before it serves a socket.
"""

from __future__ import annotations

import threading
import time
from collections import Counter

from web.guard.budget import Budget

TOO_MANY_CONNECTS = b"Too many connections were opened from your address just now. Wait a second."
BUCKETS_MAX = 10_000  # addresses remembered by SocketGate before the idle ones are forgotten


class TakeTurns:
    """Lets every other connection run before each request is answered (WSGI, outermost).

    gunicorn's gevent worker answers a keep-alive connection's requests one after another, and when
    the next one is already read (pipelined: thousands sent at once), reading it never waits: nothing
    else ran until all were answered. 3,000 such requests held every table's moves 3-6 s, and 40,000
    had the worker killed for silence (tests/web/guard/test_flood.py). Under gevent, time.sleep(0) yields
    to the other greenlets; elsewhere it costs a microsecond.
    """

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        time.sleep(0)
        return self.app(environ, start_response)


class ClientTurns:
    """WSGI middleware: at most `limit` HTTP requests of one client address served at once (0: any);
    its others wait, which costs nothing, and delays only that client. An address that floods (more than
    FLOOD_RATE requests a second after a burst of as many, or more than FLOODING times its limit going
    at once) is served one request at a time, and only once nothing else is ready to run.

    Under gevent a request being served is a greenlet in the loop's queue, and every table's moves
    wait their turn behind all of them: one address keeping hundreds of requests going held moves for
    seconds (a red team). A browser keeps at most six going to one site. Websockets
    are not counted here (each is one request for as long as its page is open: OpenSockets).

    The limit alone still let a flooder's requests run between any two steps of a move: each is a page
    made whole before it yields, and requests pipelined on a kept-alive connection are answered one
    after the other without ever counting as more than one going: a few such connections held other
    tables' moves many times longer (issue 48). Counted by their rate,
    pipelined ones too, a flood now runs in the loop's idle time: a step of a move waits behind one of
    its requests at most (tests/web/guard/test_flood.py, bench/keepalive_flood.py).
    """

    FLOODING = 2  # requests going at once, in times the limit, past which an address floods
    FLOOD_RATE = 50.0  # requests a second (after a burst of as many) past which an address floods

    def __init__(self, app, limit: int, clock=time.monotonic):
        self.app, self.limit, self.clock = app, limit, clock
        self._turns: dict[str, Turns] = {}  # address -> its requests, waiting or served
        self._rates: dict[str, Budget] = {}  # address -> its requests' rate (kept while it is quiet too)
        self._lock = threading.Lock()

    def __call__(self, environ, start_response):
        if not self.limit or environ.get("HTTP_UPGRADE", "").lower() == "websocket":
            return self.app(environ, start_response)
        address = environ.get("REMOTE_ADDR") or ""
        with self._lock:
            turns = self._turns.get(address)
            if turns is None:
                turns = self._turns[address] = Turns(self.limit)
            turns.going += 1
            flooding = not self._rate(address).spend() or turns.going > self.FLOODING * self.limit
        turns.enter(flooding)
        try:  # Flask makes the whole answer here (static files too: web/http/assets.py); the server writes it
            if flooding:
                after_the_others()
            return self.app(environ, start_response)
        finally:
            turns.leave(flooding)
            with self._lock:
                turns.going -= 1
                if not turns.going:  # nothing of this address left: forget it
                    del self._turns[address]

    def _rate(self, address: str) -> Budget:
        """The address's bucket of requests (under the lock); past BUCKETS_MAX quiet ones are forgotten."""
        budget = self._rates.get(address)
        if budget is None:
            if len(self._rates) >= BUCKETS_MAX:
                self._rates = {key: b for key, b in self._rates.items() if not b.full()}
            budget = self._rates[address] = Budget(self.FLOOD_RATE, self.clock)
        return budget


class Turns:
    """One address's requests: how many are going (waiting or served), a turn among `limit` served at
    once, and the one turn a flooding request also waits for."""

    def __init__(self, limit: int):
        self.going = 0  # changed under ClientTurns' lock
        self.turns = threading.Semaphore(limit)
        self.flood_turn = threading.Semaphore(1)

    def enter(self, flooding: bool) -> None:
        """Wait for a turn (a flooding request: for the flood's one turn first)."""
        if flooding:
            self.flood_turn.acquire()
        self.turns.acquire()

    def leave(self, flooding: bool) -> None:
        """A request answered: the next one's turn."""
        self.turns.release()
        if flooding:
            self.flood_turn.release()


def after_the_others() -> None:
    """Under gevent, wait until no other greenlet is ready to run (the loop is idle); elsewhere return."""
    try:
        from gevent import idle, monkey
    except ImportError:
        return
    if monkey.is_module_patched("threading"):
        idle()


class OpenSockets:
    """Websockets open at once, by client address, up to `limit` each (0: no limit)."""

    def __init__(self, limit: int):
        self.limit = limit
        self._open: Counter[str] = Counter()
        self._lock = threading.Lock()

    def open(self, address: str) -> bool:
        """Count one more socket of `address`; False (and nothing counted) past the limit."""
        with self._lock:
            if self.limit and self._open[address] >= self.limit:
                return False
            self._open[address] += 1
            return True

    def close(self, address: str) -> None:
        """One socket of `address` closed."""
        with self._lock:
            self._open[address] -= 1
            if self._open[address] <= 0:
                del self._open[address]


class SocketGate:
    """WSGI middleware: at most `rate` websocket handshakes a second per client address (0: any).

    It sits inside ProxyFix (REMOTE_ADDR is then the client's) and in front of Flask, so that a
    refusal costs no routing, session or template.
    """

    def __init__(self, app, rate: float, clock=None):
        self.app, self.rate = app, rate
        self.clock = clock or (lambda: time.monotonic())  # looked up per call: tests move time
        self._buckets: dict[str, Budget] = {}
        self._lock = threading.Lock()

    def __call__(self, environ, start_response):
        if self.rate and environ.get("HTTP_UPGRADE", "").lower() == "websocket" and not self._admit(environ):
            start_response("429 Too Many Requests", [("Content-Type", "text/plain; charset=utf-8"),
                                                     ("Retry-After", "1"), ("Cache-Control", "no-store"),
                                                     ("Content-Length", str(len(TOO_MANY_CONNECTS)))])
            return [TOO_MANY_CONNECTS]
        return self.app(environ, start_response)

    def _admit(self, environ) -> bool:
        address = environ.get("REMOTE_ADDR") or ""
        with self._lock:
            bucket = self._buckets.get(address)
            if bucket is None:
                if len(self._buckets) >= BUCKETS_MAX:
                    self._buckets = {key: b for key, b in self._buckets.items() if not b.full()}
                bucket = self._buckets[address] = Budget(self.rate, self.clock)
            return bucket.spend()
