"""The registry of live tables: create, join, act, presence and the clock's moves.

Every change goes the same way, whoever makes it (a player, the host, the clock): take the
table's lock, check the version, let the engine apply it, commit to the store, publish, and
reschedule the clock.
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from game.errors import BadInput, GameError, NotYourTurn, StaleVersion
from game.match import DEFAULT_TARGET, Match
from game.record import load_match
from game.tiles import Tile

from .store import Store
from .table import NameTaken, NotHost, Table, TableFull, check_settings, clean_name, hash_secret
from .turnclock import Timing

log = logging.getLogger(__name__)


class Tables:
    """All live tables of this process: create, join, act, presence and the clock's moves."""

    def __init__(self, store: Store, timing: Timing | None = None, now: Callable[[], float] = time.time,
                 rng: random.Random | None = None, idle_seconds: float = 600):
        self.store = store
        self.timing = timing or Timing()
        self.now = now
        self.rng = rng or random.SystemRandom()
        self.idle_seconds = idle_seconds  # a table nobody watches and nothing is due at leaves memory
        self.started_at = now()
        self._tables: dict[str, Table] = {}
        self._registry_lock = threading.Lock()
        self.publish: Callable[[Table], None] = lambda table: None
        self.schedule: Callable[[str, float | None], None] = lambda table_id, due: None

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

        Every change goes through here, so a request that got a table just before it was
        evicted never changes an object nobody else sees any more.
        """
        table.lock.acquire()
        while table.evicted:
            table.lock.release()
            table = self.get(table.id)
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
                busy = any(table.sockets) or table.due_at() is not None
                if busy or now - table.active_at < self.idle_seconds:
                    continue
                table.evicted = True
                with self._registry_lock:
                    if self._tables.get(table.id) is table:
                        del self._tables[table.id]
                evicted += 1
        return evicted

    def in_memory(self) -> int:
        """How many tables are loaded."""
        return len(self._tables)

    def resume(self) -> int:
        """After a start-up, load every table whose clock runs and schedule it; returns how many."""
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
        table = Table(row["id"], row["variant"], row["seats"], row["target"], row["created_at"], self.timing)
        self._fill(table, row)
        table.clock.restarted(len(table.players), self.started_at)
        table.active_at = self.now()
        return table

    def _fill(self, table: Table, row: dict) -> None:
        """Set a table's stored state (seats, match, version, clock) from its row."""
        table.version, table.match_no = row["version"], row["match_no"]
        table.clock.turn_started, table.clock.deadline = row["turn_started"], row["deadline"]
        table.players = [s["name"] for s in row["seat_rows"]]
        table.secret_hashes = [s["secret_hash"] for s in row["seat_rows"]]
        table.match, table.stored_round = None, None
        if row["rounds"]:
            table.match = load_match({"format": "domino-match/1", "variant": row["variant"],
                                      "seats": row["seats"], "target": row["target"],
                                      "players": table.players, "rounds": row["rounds"]})
            rnd = table.match.round
            table.stored_round = (table.match_no, rnd.number, len(rnd.events))

    # -- creating and joining --------------------------------------------------

    def create(self, host_name: str, variant: str = "partnership", seats: int = 4,
               target: int = DEFAULT_TARGET) -> tuple[Table, str]:
        """Open a table; the host takes seat 0 (S1). Returns the table and the host's secret."""
        check_settings(variant, seats, target)
        host_name = clean_name(host_name)
        table = Table(secrets.token_urlsafe(16), variant, seats, target, self.now(), self.timing)
        self.store.create_table(table.row())
        with self._registry_lock:
            self._tables[table.id] = table
        return table, self.join(table, host_name)[1]

    def join(self, table: Table, name: str) -> tuple[int, str]:
        """Seat a newcomer at the next free seat (S1); the last one starts the match."""
        name = clean_name(name)
        with self.locked(table) as table:
            if len(table.players) >= table.seats:
                raise TableFull("Every seat is taken: you can watch this table.")
            if name.casefold() in (p.casefold() for p in table.players):
                raise NameTaken(f"Someone at this table is already called {name}.")
            seat, secret, now = len(table.players), secrets.token_urlsafe(32), self.now()
            table.players.append(name)
            table.secret_hashes.append(hash_secret(secret))
            seat_row = {"table_id": table.id, "seat": seat, "name": name,
                        "secret_hash": table.secret_hashes[-1], "joined_at": now}
            if len(table.players) == table.seats:
                table.match = Match(table.variant, table.seats, table.target, table.players)
                table.match.start_round(self.rng)
                table.clock.start_turn(table.turn, now)
            self._commit(table, {"kind": "join", "seat": seat, "name": name, "at": now}, seat_row=seat_row)
        return seat, secret

    # -- actions ---------------------------------------------------------------

    def act(self, table: Table, seat: int | None, kind: str, version, tile: str | None = None,
            end: str | None = None) -> None:
        """A player's action (play, pass, draw, next_round), checked, committed and published."""
        if seat is None:
            raise NotYourTurn("Only a seated player can do that.")
        with self.locked(table) as table:
            self._check_version(table, version)
            now = self.now()
            if kind == "next_round":  # the host, or anyone while the host is away: no dead end
                if seat != 0 and not table.away(0, now):
                    raise NotHost("Only the host can start the next round while the host is here.")
                self._next_round(table, now)
                detail = {"kind": kind, "seat": seat, "at": now}
            else:
                self._require_match(table)
                self._apply(table, seat, kind, tile, end)
                self._after_move(table, seat, now)  # a new round's clock was started by _next_round
                detail = {"kind": kind, "seat": seat, "tile": tile, "end": end, "at": now}
            self._commit(table, detail)

    def expire(self, table_id: str, version: int | None = None) -> bool:
        """The clock's move (S3, T10) if the table is due; True if something was applied."""
        table = self.get(table_id)
        if table is None:
            return False
        with self.locked(table) as table:
            now = self.now()
            due = table.due_at()
            if due is None or due > now or (version is not None and version != table.version):
                self.schedule(table.id, due)
                return False
            if table.phase == "playing":
                seat = table.turn
                table.match.play_for(seat)
                self._after_move(table, seat, now)
                self._commit(table, {"kind": "timeout", "seat": seat, "at": now})
            else:
                self._next_round(table, now)
                self._commit(table, {"kind": "next_round", "seat": None, "at": now})
        return True

    def _apply(self, table: Table, seat: int, kind: str, tile: str | None, end: str | None) -> None:
        match = table.match
        if kind == "play":  # the engine checks the end; "" is the opening tile's (none)
            match.play(seat, Tile.parse(tile or ""), end or None)
        elif kind == "pass":
            match.pass_turn(seat)
        elif kind == "draw":
            match.draw(seat)
        else:
            raise BadInput(f"Unknown action {kind!r}.")

    def _next_round(self, table: Table, now: float) -> None:
        """T10: the next round (host early, or the clock); after a match, a new one, same seats."""
        phase = table.phase
        if phase == "pause":
            table.match.start_round(self.rng)
        elif phase == "over":
            table.match_no += 1
            table.match = Match(table.variant, table.seats, table.target, table.players)
            table.match.start_round(self.rng)
        else:
            raise GameError("The next round can start only once this one is over.")
        table.clock.start_turn(table.turn, now)

    def _after_move(self, table: Table, seat: int, now: float) -> None:
        """Restart the clock for a new turn, start the pause, or stop it at the match's end."""
        phase = table.phase
        if phase == "playing":
            if table.turn != seat:  # a draw keeps the turn, and its clock
                table.clock.start_turn(table.turn, now)
        elif phase == "pause":
            table.clock.start_pause(now)
        else:
            table.clock.stop()

    # -- presence --------------------------------------------------------------

    def connect(self, table: Table, seat: int | None) -> bool:
        """A websocket opened for `seat` (None: a spectator); True if everyone was told."""
        if seat is None:
            return False
        with self.locked(table) as table:
            table.sockets[seat] += 1
            if table.sockets[seat] > 1:
                return False
            table.clock.connect(seat)
            self._publish(table)
            self.schedule(table.id, table.due_at())
            return True

    def disconnect(self, table: Table, seat: int | None) -> None:
        """A websocket of `seat` closed; its last one makes the seat disconnected (S4)."""
        if seat is None:
            return
        with self.locked(table) as table:
            table.sockets[seat] = max(0, table.sockets[seat] - 1)
            table.active_at = self.now()  # idle time counts from the last page closed
            if table.sockets[seat] > 0:
                return
            if table.clock.disconnect(seat, self.now(), table.turn):
                self.store.commit(table.row())  # a clock change, not a new state: same version
            self._publish(table)
            self.schedule(table.id, table.due_at())

    # -- internals -------------------------------------------------------------

    def _check_version(self, table: Table, version) -> None:
        try:
            version = int(version)
        except (TypeError, ValueError):
            raise BadInput("The action has no valid version.") from None
        if version != table.version:
            raise StaleVersion("The table changed just before your move arrived: look again, then play.")

    def _require_match(self, table: Table) -> None:
        if table.match is None:
            raise GameError("The match starts once every seat is taken.")

    def _commit(self, table: Table, detail: dict, seat_row: dict | None = None) -> None:
        """Durable first, then shown: bump the version, write, publish, reschedule."""
        table.version += 1
        table.active_at = detail["at"]
        round_data, events, stored = None, None, None
        if table.match and table.match.round:
            rnd = table.match.round
            stored = (table.match_no, rnd.number, len(rnd.events))
            if table.stored_round is None or table.stored_round[:2] != stored[:2]:
                round_data = rnd.to_dict()  # dealt since the last commit: stored whole, once
            elif len(rnd.events) > table.stored_round[2]:
                first = table.stored_round[2]
                events = (rnd.number, first, rnd.events[first:])
        try:
            self.store.commit(table.row(), seat_row=seat_row, round_data=round_data, events=events,
                              action=detail)
        except Exception:
            # Memory ran ahead of the disk: put the stored state back into this same object
            # (everyone holds it), keeping who is connected.
            self._fill(table, self.store.load_table(table.id))
            raise
        table.stored_round = stored
        self._publish(table)
        self.schedule(table.id, table.due_at())

    def _publish(self, table: Table) -> None:
        """Tell every browser; a failure to show must never stop the table or its clock."""
        try:
            self.publish(table)
        except Exception:
            log.exception("publishing table %s failed", table.id)
