"""The live tables of this process in memory: found (loaded from the store the first time), held under
their lock, leaving memory when idle or purged, resumed after a start; and what the web layer reads through
them from the store.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from game.record import load_match

from .records import current_record, earlier_record, earlier_results
from .said import said_from
from .snapshot import Snapshot
from .store import Store, TableGone
from .table import Table
from .turnclock import Timing

log = logging.getLogger(__name__)


class Registry:
    """All live tables of this process, by id; the parts of Tables (live/tables.py) build on it."""

    def __init__(self, store: Store, timing: Timing | None = None, now: Callable[[], float] = time.time,
                 rng: random.Random | None = None, idle_seconds: float = 600, shard: str = ""):
        self.store = store
        self.shard = shard  # new tables' ids start with it (`<shard>.<token>`) so a proxy can route them
        self.timing = timing or Timing()
        self.now = now
        self.rng = rng or random.SystemRandom()
        self.idle_seconds = idle_seconds  # a table nobody watches and nothing is due at leaves memory
        self.started_at = now()
        self._tables: dict[str, Table] = {}
        self._registry_lock = threading.Lock()
        # The web layer: shown a snapshot of every change (never the Table), told when a table leaves memory.
        self.show: Callable[[Snapshot], None] = lambda snapshot: None
        self.left: Callable[[str], None] = lambda table_id: None
        self.schedule: Callable[[str, float | None], None] = lambda table_id, due: None
        # The server is stopping (SIGTERM): its pages going is no player leaving (S4 counts nothing).
        self.stopping = False
        self.gone: Callable[[Table], None] = lambda table: None  # a table purged while held: its pages told
        # A message said at a table (live/talk.py): the web pushes it to the pages that may read it.
        self.heard: Callable[[str, object], None] = lambda table_id, said: None

    # -- finding tables --------------------------------------------------------

    def get(self, table_id: str) -> Table | None:
        """The table with this id, loaded from the store the first time; None if unknown."""
        table = self._tables.get(table_id)
        if table is not None:
            return table
        with self._registry_lock:
            table = self._tables.get(table_id)
            if table is None:
                table = self._load(table_id)
                if table is not None:
                    self._tables[table_id] = table
        return table

    @contextmanager
    def locked(self, table: Table) -> Iterator[Table]:
        """Hold `table`'s lock; if it left memory meanwhile, hold the copy loaded again instead.

        Every change and every page's read goes through here, so a request that got a table just
        before it was evicted never changes, or shows, an object nobody else sees any more.
        """
        table.lock.acquire()
        while table.evicted:
            table.lock.release()
            table = self.get(table.id)
            if table is None:  # purged meanwhile (python -m live.purge)
                raise TableGone("The table has been removed.")
            table.lock.acquire()
        try:
            yield table
        finally:
            table.lock.release()

    def evict_idle(self) -> int:
        """Let idle tables leave memory (no websocket, nothing due, no change for a while); how many."""
        now, evicted = self.now(), 0
        for table in list(self._tables.values()):
            with table.lock:
                busy = any(table.sockets) or table.spectators or table.due_at() is not None
                if busy or now - table.active_at < self.idle_seconds:
                    continue
                table.evicted = True
                with self._registry_lock:
                    if self._tables.get(table.id) is table:
                        del self._tables[table.id]
                self.left(table.id)
                evicted += 1
        return evicted

    def mark_seen(self) -> int:
        """Store that this server holds its tables (so the purge leaves them alone), and let go of any
        purged meanwhile; returns how many were held."""
        held = list(self._tables.values())
        for table_id in self.store.seen([table.id for table in held], self.now()):
            self.forget(self._tables.get(table_id))
        return len(held)

    def forget(self, table: Table | None) -> None:
        """The table's rows left the database (a purge): it leaves memory, and its pages are told."""
        if table is None:
            return
        table.evicted = True  # a request holding it finds it gone (locked)
        with self._registry_lock:
            if self._tables.get(table.id) is table:
                del self._tables[table.id]
        self.left(table.id)
        self.gone(table)

    def in_memory(self) -> int:
        """How many tables are loaded."""
        return len(self._tables)

    def resume(self) -> int:
        """After a start-up, load every table whose clock runs and schedule it; returns how many.

        After a clean stop the clocks stood still while the server was down (Store.thaw); after a
        crash they ran on, and the restart's grace is what the players get.
        """
        self.store.thaw(self.now())
        ids = self.store.tables_with_deadlines()
        resumed = 0
        for table_id in ids:
            try:
                table = self.get(table_id)
            except Exception:  # one table that no longer loads must not stop the others
                log.exception("table %s could not be loaded", table_id)
                continue
            if table is not None:
                self.schedule(table.id, table.due_at())
                resumed += 1
        return resumed

    def _load(self, table_id: str) -> Table | None:
        row = self.store.load_table(table_id)
        if row is None:
            return None
        if self.store.seen([table_id], self.now()):  # held from now on: the purge leaves it alone
            return None  # ... unless it was purged in the instant between
        table = Table(row["id"], row["variant"], row["seats"], row["target"], row["created_at"], self.timing,
                      row["chat"])
        self._fill(table, row)
        table.talk = tuple(said_from(said) for said in self.store.talk(table_id))
        table.talk_seq = table.talk[-1].seq if table.talk else 0
        table.earlier = earlier_results(self.store, table)
        table.clock.restarted(len(table.players), self.started_at)
        table.active_at = self.now()
        return table

    def _fill(self, table: Table, row: dict) -> None:
        """Set a table's stored state (seats, match, version, clock) from its row."""
        table.version, table.match_no = row["version"], row["match_no"]
        table.play_version = table.version
        table.seat_changed_at = [table.version] * table.seats  # what changed before is not known
        table.clock.turn_started, table.clock.deadline = row["turn_started"], row["deadline"]
        table.players = [s["name"] for s in row["seat_rows"]]
        table.secret_hashes = [s["secret_hash"] for s in row["seat_rows"]]
        table.match = None
        if row["rounds"]:
            table.match = load_match({"format": "domino-match/1", "variant": row["variant"],
                                      "seats": row["seats"], "target": row["target"],
                                      "players": table.players, "rounds": row["rounds"]})

    # -- reads through the registry -------------------------------------------

    def record(self, table: Table, match_no: int | None = None) -> dict | None:
        """The record of the table's match `match_no` (None: the current one), or None if there is none.

        The current match as it stands; an earlier one as kept when it ended, or, for a match
        that ended before the store kept them (schema 4), replayed from its rounds.
        """
        with self.locked(table) as table:
            current, players = table.match_no, list(table.players)
            if match_no is None or match_no == current:
                return current_record(table)
        if not 1 <= match_no < current:
            return None
        return earlier_record(self.store, table, match_no, players)

    def lost_seat(self, table: Table, holder: str) -> dict | None:
        """How the browser holding the seat secret whose hash is `holder` lost its seat at `table` (the
        hand-over or reclaim that took it), or None (Store.lost_seat)."""
        return self.store.lost_seat(table.id, holder)

    def seats_of_browser(self, browser: str, limit: int) -> list[tuple[str, int]]:
        """(table id, seat) of the seats the browser with this hash holds (one seat per table), its newest
        table first: a seat handed over or taken back elsewhere is stored with its new browser."""
        return self.store.seats_of_browser(browser, limit)

    def was_purged(self, table_id: str) -> bool:
        """Whether `python -m live.purge` removed a table of this id."""
        return self.store.was_purged(table_id)

    def setting(self, key: str, make: Callable[[], str]) -> str:
        """A setting kept with the tables (the CSRF secret); the first call anywhere stores `make()`."""
        return self.store.setting(key, make)

    def stop(self) -> None:
        """The server is stopping: no page's going counts from now on, and the store keeps when (thaw)."""
        self.stopping = True
        self.store.mark_stopped(self.now())

    def close(self) -> None:
        """Close the store (tests build many apps)."""
        self.store.close()
