"""Who is connected to which table, and fan-out to anything with a .send()."""

from __future__ import annotations

import threading


class Connection:
    """One browser's websocket at a table; sends are serialised by its own lock."""

    def __init__(self, socket, seat: int | None):
        self.socket = socket
        self.seat = seat
        self._lock = threading.Lock()
        self.alive = True
        self.me_key: tuple | None = None  # what this browser's own part last showed

    def send(self, data: str) -> bool:
        """Send one message; False (and dead from then on) if the socket has gone."""
        if not self.alive:
            return False
        with self._lock:
            try:
                self.socket.send(data)
            except Exception:  # any failure means this browser is gone; its handler cleans up
                self.alive = False
        return self.alive


    def close(self) -> None:
        """Close the socket; its handler then unregisters it."""
        self.alive = False
        try:
            self.socket.close()
        except Exception:  # already closed
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
