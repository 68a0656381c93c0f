"""Who is connected to which table, and fan-out to anything with a .send()."""

from __future__ import annotations

import array
import fcntl
import socket as sockets
import termios
import threading
from collections import deque

MAX_QUEUED = 64  # messages a browser may fall behind before it is cut off
INLINE_MAX = 8 * 1024  # a message this small always fits an empty socket send buffer


class Connection:
    """One browser's websocket at a table.

    `send` never blocks. It writes at once only when nothing is waiting and the kernel's send
    buffer is empty (so the write cannot wait); otherwise it queues, and the websocket's own
    handler writes (`flush`). So a browser that stops reading can never hold up its table's
    lock or the clock; once it is MAX_QUEUED messages behind it is cut off, and it catches up
    when it reconnects.
    """

    def __init__(self, socket, seat: int | None, wake: threading.Event | None = None):
        self.socket = socket
        self.seat = seat
        self.alive = True
        self.me_key: tuple | None = None  # what this browser's own part last showed
        self._queue: deque[str] = deque()
        self._writing = False  # the handler holds messages it has not written yet
        self._lock = threading.Lock()
        # The writer sleeps on this: set by `send`, and (when it is the websocket's own event)
        # by the socket closing, so a closed page is noticed at once.
        self._wake = wake or threading.Event()

    def send(self, data: str) -> bool:
        """Queue one message; False (and dead from then on) if the browser is gone or too far behind."""
        with self._lock:
            if not self.alive:
                return False
            if not self._queue and not self._writing and self._idle_socket(len(data)):
                try:
                    self.socket.send(data)
                except Exception:  # the browser has gone; its handler cleans up
                    self.alive = False
                return self.alive
            if len(self._queue) >= MAX_QUEUED:
                self._cut_off()
                return False
            self._queue.append(data)
        self._wake.set()
        return True

    def _idle_socket(self, size: int) -> bool:
        """Whether a write of `size` bytes surely goes out without waiting: nothing unsent."""
        raw = getattr(self.socket, "sock", None)
        if raw is None or size > INLINE_MAX:
            return False
        unsent = array.array("i", [0])
        try:
            fcntl.ioctl(raw.fileno(), termios.TIOCOUTQ, unsent)  # bytes not yet acknowledged
        except (OSError, ValueError):  # closed (fileno -1) or not a socket
            return False
        return unsent[0] == 0

    def flush(self, timeout: float | None) -> bool:
        """Write what is queued, waiting up to `timeout` for something to happen; True if it wrote."""
        self._wake.wait(timeout)
        self._wake.clear()
        with self._lock:
            messages = list(self._queue)
            self._queue.clear()
            self._writing = bool(messages)
        try:
            for data in messages:
                self.socket.send(data)
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

    def add(self, table_id: str, connection: Connection) -> None:
        """Register a connection to a table."""
        with self._lock:
            self._by_table.setdefault(table_id, set()).add(connection)

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

    def close_all(self) -> None:
        """Close every connection (at shutdown)."""
        with self._lock:
            connections = [c for group in self._by_table.values() for c in group]
        for connection in connections:
            connection.close()

    def count(self) -> int:
        """How many connections are open in all."""
        with self._lock:
            return sum(len(c) for c in self._by_table.values())
