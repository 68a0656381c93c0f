"""A change to a live table, and the one way every change goes.

Whoever makes it (a player, the host, the clock): take the table's lock, check the version, let the
engine work the change out (a Change), commit it to the store, apply it, publish, and reschedule the
clock.
"""

from __future__ import annotations

import logging
from copy import copy
from dataclasses import dataclass, field

from game.errors import BadInput, StaleVersion
from game.match import Match
from game.rules import Event, Round

from .registry import Registry
from .snapshot import Snapshot, snapshot
from .store import TableGone
from .table import Table, plain_number
from .turnclock import TurnClock

log = logging.getLogger(__name__)


@dataclass
class Change:
    """What one accepted action makes of a table, worked out before anything changes."""

    table: Table  # the table it changes, held under its lock until the change is applied
    detail: dict  # the action log's line: kind, seat, ..., at
    clock: TurnClock | None = None  # the table's clock after it (None: a copy of the table's, made here)
    match_no: int | None = None  # (None: the table's)
    events: list[Event] = field(default_factory=list)  # moves of the current round
    newcomer: tuple[str, str, str | None] | None = None  # (name, secret hash, browser) taking a seat
    match: Match | None = None  # a new match: the first, or the next with the same seats
    new_round: Round | None = None  # a round dealt (stored whole)
    new_table: bool = False  # the table's first write: its row is inserted with its host's seat
    finished: tuple[int, dict] | None = None  # (number, record) of the match a new one follows
    # ... and that match as the score sheet lists it from now on: made with the change, since once the
    # store has the change nothing may fail
    finished_listed: dict | None = None
    reseat: tuple[int, str, str, str | None] | None = None  # (seat, name, secret hash, browser): new owner
    version: int = field(init=False)  # the table's version once the change is made

    def __post_init__(self):
        self.clock = copy(self.table.clock) if self.clock is None else self.clock
        self.match_no = self.table.match_no if self.match_no is None else self.match_no
        self.version = self.table.version + 1

    def rows(self) -> dict:
        """What the store writes for it, as Store.commit_rows' arguments."""
        table, at = self.table, self.detail["at"]
        # A move's events are its record (with its time): the action log holds everything else.
        rows = {"table_row": table.row(self.version, self.match_no, self.clock, at), "new": self.new_table,
                "finished": self.finished, "action": None if self.events else self.detail}
        if self.newcomer is not None:
            name, secret_hash, browser = self.newcomer
            rows["seat_row"] = {"table_id": table.id, "seat": len(table.players), "name": name,
                                "secret_hash": secret_hash, "joined_at": at, "browser_hash": browser}
        if self.new_round is not None:
            # Dealt: stored whole, once, with who it is dealt to (the seats' names may change later).
            dealt_to = (self.match or table.match).players
            rows["round_data"] = {**self.new_round.to_dict(), "players": list(dealt_to)}
        if self.events:
            rnd = table.match.round
            rows["events"] = (rnd.number, len(rnd.events), [event.to_dict() for event in self.events])
        if self.reseat is not None:
            seat, name, secret_hash, browser = self.reseat
            rows["reseat"] = {"table_id": table.id, "seat": seat, "name": name, "secret_hash": secret_hash,
                              "browser_hash": browser}
        return rows

    def apply(self) -> None:
        """Make the change in memory, once the store has it (so nothing here may fail)."""
        table = self.table
        table.version, table.match_no, table.clock = self.version, self.match_no, self.clock
        if self.reseat is None:
            table.play_version = self.version
        table.active_at = self.detail["at"]
        if self.newcomer is not None:
            table.players.append(self.newcomer[0])
            table.secret_hashes.append(self.newcomer[1])
            table.drop_asks_of(self.newcomer[2])
        if self.reseat is not None:
            seat, name, secret_hash, browser = self.reseat
            table.players[seat], table.secret_hashes[seat] = name, secret_hash
            table.seat_changed_at[seat] = self.version
            table.drop_asks_of(browser)  # a browser that sat down (its link, a hand-over) asks no more
            if table.match is not None:
                table.match.players[seat] = name
        if self.finished_listed is not None:
            table.earlier.append(self.finished_listed)
        if self.match is not None:
            table.match = self.match
        if self.new_round is not None:
            table.match.add_round(self.new_round)
        if self.events:
            table.match.apply(self.events)


class Changes(Registry):
    """The way every change goes, which each part of Tables takes (seating, play, presence)."""

    def acts_as_host(self, table: Table, seat: int | None) -> bool:
        """Whether `seat` may do what the host does with seats (hand one over, turn a request down): the
        host, or who stands in for the host (T13)."""
        return seat is not None and seat == table.acting_host(self.now())

    def _check_version(self, table: Table, version) -> None:
        version = plain_number(version, 18)
        if version is None:
            raise BadInput("The action has no valid version.", "bad_version")
        if not table.play_version <= version <= table.version:  # seats changing hands change no play
            raise StaleVersion("The table changed just before your move arrived: look again, then play.")

    def _commit(self, change: Change) -> None:
        """Durable first, then applied and shown: write the change, apply it, publish, reschedule.

        Nothing in memory changes before the store has it: a failed write leaves the table as it was.
        """
        table = change.table
        try:
            self.store.commit(change)
        except TableGone:
            self.forget(table)
            raise
        change.apply()
        self._publish(table)
        self.schedule(table.id, table.due_at())

    def snapshot(self, table: Table) -> Snapshot:
        """What the web layer may read of `table` now (a page's read); call it holding the table's lock."""
        return snapshot(table, self.now())

    def publish(self, table: Table) -> None:
        """Show the web layer `table` as it is now (a change, a page come or gone); under its lock."""
        self.show(snapshot(table, self.now()))

    def _publish(self, table: Table) -> None:
        """Tell every browser; a failure to show must never stop the table or its clock."""
        try:
            self.publish(table)
        except Exception:
            log.exception("publishing table %s failed", table.id)
