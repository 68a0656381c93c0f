"""Presence: the pages open for each seat, a seat gone for the settle becoming disconnected (S4) and an
absent host's choices passing on (T13)."""

from __future__ import annotations

from .change import Changes
from .table import Table


class Presence(Changes):
    """Websockets opening and closing, and what the clock notices of them."""

    def connect(self, table: Table, seat: int | None) -> bool:
        """A websocket opened for `seat` (None: a spectator); True if everyone was told."""
        if seat is None:
            with self.locked(table) as table:
                table.spectators += 1  # a table in sight stays in memory, and is seen (the purge)
            return False
        with self.locked(table) as table:
            table.sockets[seat] += 1
            if table.sockets[seat] > 1:
                return False
            now = self.now()
            if table.clock.connect(seat, table.turn, now):  # back too late: the time lost stays lost (S4)
                self.store.commit_rows(table.row())  # a clock change, not a new state: same version
            self._publish(table)
            self.schedule(table.id, table.due_at())
            return True

    def disconnect(self, table: Table, seat: int | None) -> None:
        """A websocket of `seat` closed; its last one starts S4's settle (the table wakes at its end)."""
        if self.stopping:
            return
        if seat is None:
            with self.locked(table) as table:
                table.spectators = max(0, table.spectators - 1)
                table.active_at = self.now()
            return
        with self.locked(table) as table:
            table.sockets[seat] = max(0, table.sockets[seat] - 1)
            now = table.active_at = self.now()  # idle time counts from the last page closed
            if table.sockets[seat] > 0:
                return
            table.clock.disconnect(seat, now)  # nothing shows yet: a reload or a blip is back within it
            self._notice(table, now)  # (with no settle configured, it shows at once)
            self.schedule(table.id, table.due_at())

    def _notice(self, table: Table, now: float) -> None:
        """Seats gone for the settle become disconnected (S4), an absent host's choices pass on (T13):
        the turn of a seat gone is cut (stored), and the pages are told."""
        told, moved = table.clock.notice(table.turn, now)
        if moved:
            self.store.commit_rows(table.row())  # a clock change, not a new state: same version
        if told:
            self._publish(table)
