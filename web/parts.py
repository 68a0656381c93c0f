"""The live parts of one app (tables, hub, clock, pinger), reachable from any request."""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass, field

from flask import current_app

from live.clock import Clock
from live.snapshot import Snapshot
from live.tables import Tables
from web.guard.limits import OpenSockets
from web.push.pieces import TableState
from web.ws.hub import Hub, Pinger

log = logging.getLogger(__name__)
# The close reason a page of a purged table gets (code 1008: it shows it and does not reconnect);
# templates/table.html words it in the page's language.
TABLE_REMOVED = "This table has been removed. Open a new table."
POLICY_VIOLATION = 1008


def close_frame(code: int, reason: str) -> bytes:
    """A websocket close frame from the server (unmasked), with a reason of at most 123 bytes."""
    payload = code.to_bytes(2, "big") + reason.encode()
    return bytes([0x88, len(payload)]) + payload


@dataclass
class Fichas:
    """What one app runs besides its routes: app.extensions["fichas"]."""

    tables: Tables
    hub: Hub
    clock: Clock
    pinger: Pinger
    sockets: OpenSockets  # websockets open at once, by client address
    # What the web layer keeps per table (its last push, its line as laid), by table id, while it is held.
    state: defaultdict[str, TableState] = field(default_factory=lambda: defaultdict(TableState))
    jobs: list = field(default_factory=list)  # started workers with stop(): eviction, checkpoints, GC
    # Each seat's budget of messages (web/ws/talk.py), by table id, then seat, while the table is held.
    talk_budgets: dict[str, dict] = field(default_factory=dict)

    def stopping(self) -> None:
        """The server is stopping (SIGTERM): the tables stay as they are and every page is told to come
        back. The clock plays no turn meanwhile, and no page's going counts as a disconnection (S4); the
        store keeps when it stopped, so that the next start moves every running clock on by the time the
        server was down (Store.thaw): no turn loses time to a restart."""
        self.clock.stop()
        try:
            self.tables.stop()
        except Exception:  # the pages must still be told: the restart then counts it as a crash
            log.exception("the stop could not be stored")
        self.pinger.stop()
        self.hub.restarting()

    def shown(self, table) -> tuple[Snapshot, TableState]:
        """`table` as the web layer may read it, and what the web keeps of it; under the table's lock."""
        return self.tables.snapshot(table), self.state[table.id]

    def left(self, table_id: str) -> None:
        """A table left memory (idle, purged, removed): the web's state of it goes too."""
        self.state.pop(table_id, None)
        self.talk_budgets.pop(table_id, None)

    def table_removed(self, table) -> None:
        """A table purged while this server held it: every page of it is told so, and stays."""
        frame = close_frame(POLICY_VIOLATION, TABLE_REMOVED)
        for connection in self.hub.connections(table.id):
            connection.finish(frame)

    def close(self) -> None:
        """Stop every background worker, close every websocket and the store (tests build many apps)."""
        self.clock.stop()
        self.pinger.stop()
        for job in self.jobs:
            job.stop()
        self.hub.close_all()
        self.tables.close()


def fichas() -> Fichas:
    """The live parts of the current app."""
    return current_app.extensions["fichas"]
