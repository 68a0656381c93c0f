"""When a table acts by itself: the turn clock (S3), a disconnected seat's time (S4), the pause
between rounds (T10), the grace after a restart, and who holds an absent host's choices (T13), as
one value. Pure: every time is passed in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Timing:
    """The table's times in seconds (S3, S4, T10, T13) and the grace after a restart."""

    turn: float = 45.0
    offline: float = 5.0
    pause: float = 30.0
    grace: float = 15.0
    settle: float = 3.0  # S4: a seat with no page this long is disconnected (a reload is not)
    host_wait: float = 60.0  # T13: the host's choices pass on once the host has had no page this long


@dataclass
class TurnClock:
    """A table's deadlines and who is away; `due(turn)` says when the table wakes next."""

    timing: Timing
    turn_started: float | None = None
    deadline: float | None = None  # the turn's deadline while playing, the pause's end between rounds
    # Seats with no page open (their last websocket closed, or cut off by a restart), and since when.
    # A seat that has joined but not yet opened its page is not in it: its page is still loading.
    offline_since: dict[int, float] = field(default_factory=dict)
    # Seats whose going the table has acted on (told the pages, cut the turn): it wakes for the others.
    noticed: set[int] = field(default_factory=set)
    host_noticed: bool = False  # the host's choices passed on (T13) and the pages were told
    grace_end: float = 0.0  # nothing automatic before this (set after a restart)
    restarted_at: float | None = None  # when this process loaded the table

    def __copy__(self) -> TurnClock:
        """A shallow copy, as copy.copy makes one, without its generic path (a move makes one)."""
        clone = object.__new__(TurnClock)
        clone.__dict__.update(self.__dict__)
        # Its own containers: a change's clock is applied only once the store has it (durable first).
        clone.offline_since, clone.noticed = dict(self.offline_since), set(self.noticed)
        return clone

    def away_from(self, seat: int) -> float | None:
        """When `seat` counts as disconnected (S4: after the settle; a restart's cut after the grace)."""
        since = self.offline_since.get(seat)
        if since is None:
            return None
        away = since + self.timing.settle
        return max(away, self.grace_end) if since == self.restarted_at else away

    def away(self, seat: int, now: float) -> bool:
        """Whether `seat` is disconnected (S4): no page of it open for the settle, and not back."""
        away = self.away_from(seat)
        return away is not None and now >= away

    def host_gone(self, now: float) -> bool:
        """T13: whether the host (seat 0) has had no page open for `host_wait`."""
        since = self.offline_since.get(0)
        return since is not None and now >= since + self.timing.host_wait

    def acting_host(self, now: float, open_pages: Sequence[bool]) -> int | None:
        """T13: the seat holding the host's choices: the host, or while the host is gone the first seat
        after it with a page open (`open_pages`, by seat); None if nobody is there."""
        if not self.host_gone(now):
            return 0
        return next((seat for seat in range(1, len(open_pages)) if open_pages[seat]), None)

    def ends(self, turn: int | None, now: float) -> float | None:
        """When the running turn (or pause) ends as of `now`: S3's deadline, S4's if its seat is away."""
        if self.deadline is None:
            return None
        ends = self.deadline
        if turn is not None and self.turn_started is not None and self.away(turn, now):
            ends = min(ends, self._cut(turn))
        return max(ends, self.grace_end)

    def due(self, turn: int | None) -> float | None:
        """When the table wakes next: its turn or pause ends, or a seat's going is to be told (S4, T13)."""
        wakes = [self.away_from(seat) for seat in self.offline_since if seat not in self.noticed]
        if 0 in self.offline_since and not self.host_noticed:
            wakes.append(self.offline_since[0] + self.timing.host_wait)
        if self.deadline is not None:  # a noticed seat's cut is in the deadline already (`notice`)
            wakes.append(max(self.deadline, self.grace_end))
        return min(wakes) if wakes else None

    def notice(self, turn: int | None, now: float) -> tuple[bool, bool]:
        """Act on the goings due by `now`: (whether the pages must be told, whether the deadline moved)."""
        told = moved = False
        for seat in [s for s in self.offline_since if s not in self.noticed and self.away(s, now)]:
            self.noticed.add(seat)
            told = True
            if seat == turn:
                moved = self._shorten(seat) or moved
        if not self.host_noticed and self.host_gone(now):
            self.host_noticed = told = True
        return told, moved

    def cut_short(self) -> bool:
        """Whether the running turn lost time to its seat being away (S4): its deadline came forward."""
        return (self.turn_started is not None and self.deadline is not None
                and self.deadline < self.turn_started + self.timing.turn)

    def start_turn(self, seat: int, now: float) -> None:
        """S3/S4: a new turn gets the full time, or a disconnected seat's time if it is away now."""
        self.turn_started, self.deadline = now, now + self.timing.turn
        if self.away(seat, now):
            self._shorten(seat)

    def start_pause(self, now: float) -> None:
        """T10: the round is over; the next one starts by itself after the pause."""
        self.turn_started, self.deadline = None, now + self.timing.pause

    def stop(self) -> None:
        """The match is over: nothing happens by itself."""
        self.turn_started, self.deadline = None, None

    def connect(self, seat: int, turn: int | None, now: float) -> bool:
        """`seat` has a page again; True if the deadline moved (store it). Time lost while away stays
        lost (S4), even when the table had not yet woken to cut it; within the settle nothing is lost."""
        moved = seat == turn and seat not in self.noticed and self.away(seat, now) and self._shorten(seat)
        self.offline_since.pop(seat, None)
        self.noticed.discard(seat)
        if seat == 0:
            self.host_noticed = False
        return moved

    def disconnect(self, seat: int, now: float) -> None:
        """`seat` lost its last page: it counts as gone after the settle, when the table wakes (`due`)."""
        self.offline_since[seat] = now
        self.noticed.discard(seat)
        if seat == 0:
            self.host_noticed = False

    def restarted(self, seats: int, now: float) -> None:
        """Loaded after a start-up: every seat was cut off, and the grace lets them come back in time."""
        self.offline_since = dict.fromkeys(range(seats), now)
        self.noticed, self.host_noticed = set(), False
        self.restarted_at, self.grace_end = now, now + self.timing.grace

    def _cut(self, seat: int) -> float:
        """S4's deadline for `seat`'s turn: 5 s after the later of the turn's start and its going."""
        return max(self.turn_started, self.offline_since[seat]) + self.timing.offline

    def _shorten(self, seat: int) -> bool:
        """Bring the deadline forward to S4's (never back); True if it moved."""
        if self.deadline is None or self.turn_started is None:
            return False
        cut = min(self.deadline, self._cut(seat))
        moved, self.deadline = cut < self.deadline, cut
        return moved
