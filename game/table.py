"""Live tables: seats, the match, the version, the clock's deadlines, and one lock per table.

Every change goes the same way, whoever makes it (a player, the host, the clock): take the
table's lock, check the version, let the engine apply it, commit to the store, publish, and
reschedule the clock.
"""

from __future__ import annotations

import hashlib
import logging
import random
import secrets
import threading
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from .errors import BadInput, GameError, NotYourTurn, StaleVersion
from .match import DEFAULT_TARGET, TARGETS, Match
from .record import load_match
from .store import Store
from .tiles import Tile
from .variants import get_variant

NAME_MAX = 24
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Timing:
    """The table's times in seconds (S3, S4, T10) and the grace after a restart."""

    turn: float = 45.0
    offline: float = 5.0
    pause: float = 30.0
    grace: float = 15.0


class TableFull(GameError):
    """Every seat of the table is taken."""

    code = "full"


class NameTaken(GameError):
    """Another player at this table already has that name."""

    code = "name_taken"


class NotHost(GameError):
    """Only the host may do this."""

    code = "not_host"


class Table:
    """One table in memory; read or change it only while holding `lock`."""

    def __init__(self, table_id: str, variant: str, seats: int, target: int, created_at: float):
        self.id = table_id
        self.variant = get_variant(variant)
        self.seats = seats
        self.target = target
        self.created_at = created_at
        self.lock = threading.RLock()
        self.players: list[str] = []
        self.secret_hashes: list[str] = []
        self.match: Match | None = None
        self.match_no = 1
        self.version = 0
        self.turn_started: float | None = None
        self.deadline: float | None = None  # turn deadline while playing, pause end between rounds
        self.sockets = [0] * seats  # live websockets per seat
        # Seats that lost their last websocket (or were cut off by a restart), and since when.
        # A seat that has joined but not yet opened its page does not count as disconnected.
        self.offline_since: dict[int, float] = {}
        self.grace_end = 0.0  # no automatic play before this (set after a restart)
        self.restarted_at: float | None = None  # when this process loaded the table from the store
        # What the store holds of the current round: (match_no, round number, events stored).
        self.stored_round: tuple[int, int, int] | None = None

    # -- derived state ---------------------------------------------------------

    @property
    def phase(self) -> str:
        """waiting (for players), playing (a round), pause (between rounds) or over (the match)."""
        if self.match is None or self.match.round is None:
            return "waiting"
        if self.match.over:
            return "over"
        return "pause" if self.match.round.over else "playing"

    @property
    def turn(self) -> int | None:
        """The seat to play, while a round is being played."""
        return self.match.round.turn if self.phase == "playing" else None

    def connected(self, seat: int) -> bool:
        """Whether `seat` has a live websocket."""
        return self.sockets[seat] > 0

    def away(self, seat: int, now: float) -> bool:
        """Whether `seat` lost its connection and has not come back (S4).

        A restart's disconnection is forgiven while the grace after it lasts.
        """
        since = self.offline_since.get(seat)
        if since is None:
            return False
        return now >= self.grace_end or since != self.restarted_at

    def due_at(self, timing: Timing) -> float | None:
        """When the clock acts next: S4's deadline for the seat to play, or the pause's end."""
        if self.deadline is None:
            return None
        due = self.deadline
        if self.phase == "playing":
            off = self.offline_since.get(self.turn)
            if off is not None:
                due = min(due, max(self.turn_started, off) + timing.offline)
        return max(due, self.grace_end)

    def seat_of(self, secret: str | None) -> int | None:
        """The seat whose secret this is, or None."""
        if not secret:
            return None
        digest = hash_secret(secret)
        for seat, known in enumerate(self.secret_hashes):
            if secrets.compare_digest(known, digest):
                return seat
        return None

    def row(self) -> dict:
        """The table's row for the store."""
        return {"id": self.id, "variant": self.variant.name, "seats": self.seats, "target": self.target,
                "created_at": self.created_at, "version": self.version, "match_no": self.match_no,
                "turn_started": self.turn_started, "deadline": self.deadline}


class Tables:
    """All live tables of this process: create, join, act, presence and the clock's moves."""

    def __init__(self, store: Store, timing: Timing | None = None, now: Callable[[], float] = time.time,
                 rng: random.Random | None = None):
        self.store = store
        self.timing = timing or Timing()
        self.now = now
        self.rng = rng or random.SystemRandom()
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
                self.schedule(table.id, table.due_at(self.timing))
                resumed += 1
        return resumed

    def _load(self, table_id: str) -> Table | None:
        row = self.store.load_table(table_id)
        if row is None:
            return None
        table = Table(row["id"], row["variant"], row["seats"], row["target"], row["created_at"])
        self._fill(table, row)
        # Everyone was disconnected by the restart: the grace lets them come back in time (S4).
        table.offline_since = dict.fromkeys(range(len(table.players)), self.started_at)
        table.restarted_at = self.started_at
        table.grace_end = self.started_at + self.timing.grace
        return table

    def _fill(self, table: Table, row: dict) -> None:
        """Set a table's stored state (seats, match, version, clock) from its row."""
        table.version, table.match_no = row["version"], row["match_no"]
        table.turn_started, table.deadline = row["turn_started"], row["deadline"]
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
        table = Table(secrets.token_urlsafe(16), variant, seats, target, self.now())
        self.store.create_table(table.row())
        with self._registry_lock:
            self._tables[table.id] = table
        return table, self.join(table, host_name)[1]

    def join(self, table: Table, name: str) -> tuple[int, str]:
        """Seat a newcomer at the next free seat (S1); the last one starts the match."""
        name = clean_name(name)
        with table.lock:
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
                self._start_turn(table, now)
            self._commit(table, {"kind": "join", "seat": seat, "name": name, "at": now}, seat_row=seat_row)
        return seat, secret

    # -- actions ---------------------------------------------------------------

    def act(self, table: Table, seat: int | None, kind: str, version, tile: str | None = None,
            end: str | None = None) -> None:
        """A player's action (play, pass, draw, next_round), checked, committed and published."""
        if seat is None:
            raise NotYourTurn("Only a seated player can do that.")
        with table.lock:
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
        with table.lock:
            now = self.now()
            due = table.due_at(self.timing)
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
        self._start_turn(table, now)

    def _after_move(self, table: Table, seat: int, now: float) -> None:
        """Restart the clock for a new turn, start the pause, or stop it at the match's end."""
        phase = table.phase
        if phase == "playing":
            if table.turn != seat:
                self._start_turn(table, now)
        elif phase == "pause":
            table.turn_started, table.deadline = None, now + self.timing.pause
        else:
            table.turn_started, table.deadline = None, None

    def _start_turn(self, table: Table, now: float) -> None:
        """S3/S4: 45 seconds, or 5 if the seat to play is disconnected now."""
        table.turn_started, table.deadline = now, now + self.timing.turn
        if table.away(table.turn, now):
            table.deadline = min(table.deadline, now + self.timing.offline)

    # -- presence --------------------------------------------------------------

    def connect(self, table: Table, seat: int | None) -> bool:
        """A websocket opened for `seat` (None: a spectator); True if everyone was told."""
        if seat is None:
            return False
        with table.lock:
            table.sockets[seat] += 1
            if table.sockets[seat] > 1:
                return False
            # Time lost while away stays lost (S4): the shortened deadline was stored already.
            table.offline_since.pop(seat, None)
            self._publish(table)
            self.schedule(table.id, table.due_at(self.timing))
            return True

    def disconnect(self, table: Table, seat: int | None) -> None:
        """A websocket of `seat` closed; its last one makes the seat disconnected (S4)."""
        if seat is None:
            return
        with table.lock:
            table.sockets[seat] = max(0, table.sockets[seat] - 1)
            if table.sockets[seat] > 0:
                return
            now = self.now()
            table.offline_since[seat] = now
            if table.turn == seat:
                shortened = min(table.deadline, now + self.timing.offline)
                if shortened < table.deadline:
                    table.deadline = shortened
                    self.store.commit(table.row())  # a clock change, not a new state: same version
            self._publish(table)
            self.schedule(table.id, table.due_at(self.timing))

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
        self.schedule(table.id, table.due_at(self.timing))

    def _publish(self, table: Table) -> None:
        """Tell every browser; a failure to show must never stop the table or its clock."""
        try:
            self.publish(table)
        except Exception:
            log.exception("publishing table %s failed", table.id)


def hash_secret(secret: str) -> str:
    """The stored form of a seat secret."""
    return hashlib.sha256(secret.encode()).hexdigest()


def clean_name(name) -> str:
    """A player's name: 1-24 characters after trimming, no control characters."""
    if not isinstance(name, str):
        raise BadInput("Please give a name.")
    name = unicodedata.normalize("NFC", name.strip())  # "José" is one name however it was typed
    if not name:
        raise BadInput("Please give a name.")
    if len(name) > NAME_MAX:
        raise BadInput(f"A name has at most {NAME_MAX} characters.")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") for c in name):
        raise BadInput("A name cannot contain control characters.")
    return name


def check_settings(variant: str, seats: int, target: int) -> None:
    """The host's choices (the rules page, T11), or BadInput."""
    get_variant(variant).check_seats(seats)
    if target not in TARGETS:
        raise BadInput("The target is 50 to 500 points, in steps of 50.")
