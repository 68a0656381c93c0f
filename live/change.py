"""A change to a live table: worked out before anything changes, then written (its rows) and applied."""

from __future__ import annotations

from copy import copy
from dataclasses import dataclass, field

from game.match import Match
from game.rules import Event, Round

from .table import Table
from .turnclock import TurnClock


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
