"""Who is connected to which table, fan-out to anything with a .send(), and the pings."""

from __future__ import annotations

import logging
import math
import socket as sockets
import struct
import threading
import time
from collections import deque

from live.periodic import Worker
from web.templating.cache import Cache

log = logging.getLogger(__name__)
MAX_QUEUED = 64  # messages a browser may fall behind before it is cut off
# A write that takes what the kernel can take now and never waits (Unix); elsewhere every push is
# queued for the socket's own handler to write.
DONT_WAIT = getattr(sockets, "MSG_DONTWAIT", None)
try:  # the sockets written at once: plain ones (the standard library's, gevent's), never TLS (a subclass)
    from gevent import socket as gevent_sockets
    from gevent.monkey import get_original

    PLAIN_SOCKETS = (get_original("socket", "socket"), gevent_sockets.socket)
except ImportError:
    PLAIN_SOCKETS = (sockets.socket,)
PING_BATCH = 50  # connections pinged at once; the pinger rests between batches
PING = b"\x89\x00"  # a websocket ping frame from the server: FIN, opcode 9, no payload (RFC 6455)
# A close frame with code 1012, "service restart" (RFC 6455 7.4; IANA): browsers' htmx reconnects.
RESTARTING = b"\x88\x02" + (1012).to_bytes(2, "big")


FRAMED = Cache(16)  # a message -> its frame: a push sends one text to many pages


def text_frame(text: str) -> bytes:
    """A websocket text message as one unmasked frame, as a server sends it (RFC 6455, 5.2)."""
    frame = FRAMED.get(text)
    return frame if frame is not None else FRAMED.keep(text, framed(text))


def framed(text: str) -> bytes:
    """`text` as a frame (see text_frame)."""
    payload = text.encode()
    size = len(payload)
    if size < 126:
        header = struct.pack("!BB", 0x81, size)
    elif size < 1 << 16:
        header = struct.pack("!BBH", 0x81, 126, size)
    else:
        header = struct.pack("!BBQ", 0x81, 127, size)
    return header + payload


class Rest(bytes):
    """The end of a frame that was written only in part: it goes out before anything else."""


class Connection:
    """One browser's websocket at a table.

    `send` never blocks. When nothing is waiting it writes at once what the kernel takes without
    waiting (most often the whole message), and queues the rest; otherwise it queues, and the
    websocket's own handler writes (`flush`). So a browser that stops reading can never hold up
    its table's lock or the clock; once it is MAX_QUEUED messages behind it is cut off, and it
    catches up when it reconnects.
    """

    def __init__(self, socket, seat: int | None, wake: threading.Event | None = None):
        self.socket = socket
        self.seat = seat
        self.alive = True
        self.me_key: tuple | None = None  # what this browser's own part last showed
        self.unseen: bytes | None = None  # the counts its #unseen last showed
        self.waiting: str | None = None  # what its #me hung on while its seat waited (publish.waiting_key)
        self.seq: int | None = None  # the table's last push it got (None: it needs the whole table)
        self.whole_at: int | None = None  # the push at which it was last sent the whole table alone
        self.holder: str | None = None  # the hashed seat secret its page came with (web/push/publish.py)
        self.talk_budget = None  # a spectator's page's budget of messages (web/ws/talk.py)
        self._queue: deque[str | bytes] = deque()
        self._writing = False  # the handler holds messages it has not written yet
        self._last: bytes | None = None  # the close frame that ends the socket, once queued
        self.ending = False  # finish() was called: nothing is queued after the last frame
        self._lock = threading.Lock()
        # The writer sleeps on this: set by `send`, and by the websocket's reader when a move
        # comes in or the socket ends, so a closed page is noticed at once.
        self._wake = wake or threading.Event()
        self.heard_at = time.monotonic()  # when the browser last sent anything (`ping` cuts off the silent)

    def send(self, data: str) -> bool:
        """Queue one message; False (and dead from then on) if the browser is gone or too far behind."""
        return self._put(data)

    def control(self, frame: bytes) -> bool:
        """Queue a control frame already built (a pong), in order with the pushes."""
        return self._put(frame)

    def finish(self, frame: bytes | None) -> None:
        """End the socket: drop what is queued, write `frame` (a close frame) last, then nothing.

        After the frame the writing half is shut (a FIN): the client, which answers our close,
        then closes at once. With no frame (the client vanished) there is nothing left to write.
        """
        with self._lock:
            if not self.alive or self.ending:
                return
            self.ending = True
            rest = [item for item in self._queue if isinstance(item, Rest)]  # a frame's end: never cut
            self._queue.clear()
            self._queue.extend(rest)
            if frame is not None:
                self._last = frame
                self._queue.append(frame)
        self._wake.set()

    @property
    def done(self) -> bool:
        """Whether the handler may stop: cut off, or ended with its last frame written."""
        with self._lock:
            return not self.alive or (self.ending and not self._queue and not self._writing)

    def ping(self, interval: float, silence: float | None = None, now: float | None = None) -> bool:
        """Ping the browser, or cut it off once it has been silent (no pong, no frame) for `silence`
        seconds (default: two intervals).

        Presence follows the connection (S4), not a page's scripts: a browser answers pings by
        itself, even for a page frozen in the background (Chromium 156 answered every ping of a page
        whose scripts were stopped for 15 s; it stopped reading, pongs too, only once about 130 KB of
        messages waited unread, some 85 moves). A phone's radio waking up or a busy link may hold a
        pong back for seconds, hence a silence of several intervals (FICHAS_SILENCE_SECONDS).
        One Pinger for every socket replaces simple-websocket's own, which woke each socket's
        reader with a fresh selector at every interval.
        """
        if not hasattr(self.socket, "pong_received"):  # not a websocket (the tests' stand-ins)
            return True
        now = time.monotonic() if now is None else now
        if self.socket.pong_received:  # set by web/ws/endpoint.py's Reader on a pong (or a stand-in)
            self.socket.pong_received = False
            self.heard_at = max(self.heard_at, now)
        if now - self.heard_at >= (2 * interval if silence is None else silence):
            self.close()
            return False
        return self._put(PING)

    def heard(self) -> None:
        """Something came from the browser (a pong, a move, any frame): it is there."""
        self.heard_at = time.monotonic()

    def _put(self, item: str | bytes) -> bool:
        with self._lock:
            if not self.alive or self.ending:
                return False
            if not self._queue and not self._writing:
                try:
                    item = self._write_now(item)
                except Exception:  # the browser has gone; its handler cleans up
                    self.alive = False
                    return False
                if item is None:
                    return True
            elif len(self._queue) >= MAX_QUEUED:
                self._cut_off()
                return False
            self._queue.append(item)
        self._wake.set()
        return True

    def _write(self, item: str | bytes) -> None:
        """Write one message, or a frame already built (the ping), whole and in the order queued."""
        raw = getattr(self.socket, "sock", None)
        if raw is None:  # not a simple-websocket (the tests' stand-ins): its own send
            self.socket.send(item)
        elif not self.socket.connected:
            raise ConnectionError("the websocket is closed")
        else:
            # Framed here, not by simple-websocket: a push sent to every browser of a table is
            # encoded and framed once (text_frame's cache), and sendall never writes half a frame.
            raw.sendall(item if isinstance(item, bytes) else text_frame(item))
            if item is self._last:
                raw.shutdown(sockets.SHUT_WR)

    def _write_now(self, item: str | bytes) -> str | bytes | None:
        """Write what the kernel takes of `item` without waiting; what is left to queue (None: nothing).

        One system call on the OS socket (under gevent, the one its socket wraps: gevent's own
        send would wait). Asking the kernel first whether the buffer was empty, then writing through
        gevent's sendall, cost two more calls a push. Only a plain socket: a TLS one (gunicorn's
        --certfile) is written by the handler, through its encryption.
        """
        raw = getattr(self.socket, "sock", None)
        if type(raw) not in PLAIN_SOCKETS or DONT_WAIT is None:
            return item
        plain = getattr(raw, "_sock", raw)
        if plain.gettimeout():  # a timeout: send would poll first
            return item
        if not self.socket.connected:
            raise ConnectionError("the websocket is closed")
        frame = item if isinstance(item, bytes) else text_frame(item)
        try:
            sent = plain.send(frame, DONT_WAIT)
        except (BlockingIOError, InterruptedError):  # the kernel's buffer is full: the handler writes
            return item
        if sent == len(frame):
            return None
        return Rest(frame[sent:])

    def flush(self, timeout: float | None) -> bool:
        """Write what is queued, waiting up to `timeout` for something to happen; True if it wrote."""
        self._wake.wait(timeout)
        self._wake.clear()
        with self._lock:
            messages = list(self._queue)
            self._queue.clear()
            self._writing = bool(messages)
        try:
            for item in messages:
                self._write(item)
        except Exception:  # the browser has gone; its handler cleans up
            self.alive = False
        finally:
            with self._lock:
                self._writing = False
        return bool(messages)

    def pending(self) -> bool:
        """Whether messages wait to be written."""
        with self._lock:
            return bool(self._queue)

    def wake(self) -> None:
        """Make the writer look again."""
        self._wake.set()

    def close(self) -> None:
        """Cut the connection off; its handler then unregisters it."""
        with self._lock:
            self._cut_off()

    def _cut_off(self) -> None:
        """Shut the socket down without writing to it: that never blocks, and wakes a blocked writer."""
        self.alive = False
        self._wake.set()
        raw = getattr(self.socket, "sock", None)
        if raw is not None:
            try:
                raw.shutdown(sockets.SHUT_RDWR)
            except OSError:  # already closed
                pass


class Hub:
    """The live connections of every table."""

    def __init__(self):
        self._by_table: dict[str, set[Connection]] = {}
        self._lock = threading.Lock()
        self._restarting = False  # the server is stopping: every page is told to come back (restarting)

    def add(self, table_id: str, connection: Connection) -> None:
        """Register a connection to a table (told at once to come back later if the server is stopping)."""
        with self._lock:
            self._by_table.setdefault(table_id, set()).add(connection)
            restarting = self._restarting
        if restarting:
            connection.finish(RESTARTING)

    def remove(self, table_id: str, connection: Connection) -> None:
        """Forget a connection (idempotent)."""
        with self._lock:
            connections = self._by_table.get(table_id)
            if connections is not None:
                connections.discard(connection)
                if not connections:
                    del self._by_table[table_id]

    def connections(self, table_id: str) -> list[Connection]:
        """A snapshot of a table's connections."""
        with self._lock:
            return list(self._by_table.get(table_id, ()))

    def all(self) -> list[Connection]:
        """A snapshot of every connection."""
        with self._lock:
            return [c for group in self._by_table.values() for c in group]

    def restarting(self) -> None:
        """Tell every page the server is going (a close frame each, not what is queued): they come back.

        So is every page that connects from now on: a page comes back within a second of its close
        (static/fichas.js), while the worker still accepts, and a socket left open held the stop for
        gunicorn's whole graceful timeout (26-31 s with pages open; tests/live/test_stopping.py).
        """
        with self._lock:
            self._restarting = True
        for connection in self.all():
            connection.finish(RESTARTING)

    def close_all(self) -> None:
        """Close every connection (at shutdown)."""
        for connection in self.all():
            connection.close()

    def count(self) -> int:
        """How many connections are open in all."""
        with self._lock:
            return sum(len(c) for c in self._by_table.values())


class Pinger(Worker):
    """One worker (a greenlet under gevent) that pings every connection of a hub each `interval`.

    It spreads the pings over the interval in small batches, so that no moment pays for all
    4,000 sockets at once; a browser silent for `silence` seconds is cut off (then S4 counts).
    """

    name = "pinger"

    def __init__(self, hub: Hub, interval: float, silence: float | None = None):
        super().__init__()
        self.hub, self.interval, self.silence = hub, interval, silence

    def _run(self) -> None:
        while not self._stopped.is_set():
            connections = self.hub.all()
            batches = max(1, math.ceil(len(connections) / PING_BATCH))
            for start in range(0, batches * PING_BATCH, PING_BATCH):
                for connection in connections[start:start + PING_BATCH]:
                    try:
                        connection.ping(self.interval, self.silence)
                    except Exception:  # one odd socket must not stop the pings of all
                        log.exception("pinging a websocket failed")
                if self._stopped.wait(self.interval / batches):
                    return
