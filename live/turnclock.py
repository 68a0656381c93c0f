"""When a table acts by itself: the turn clock (S3), a disconnected seat's time (S4), the pause
between rounds (T10) and the grace after a restart, as one value. Pure: every time is passed in.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Timing:
    """The table's times in seconds (S3, S4, T10) and the grace after a restart."""

    turn: float = 45.0
    offline: float = 5.0
    pause: float = 30.0
    grace: float = 15.0


@dataclass
class TurnClock:
    """A table's deadlines and who is away; `due(turn)` says when the table acts next."""

    timing: Timing
    turn_started: float | None = None
    deadline: float | None = None  # the turn's deadline while playing, the pause's end between rounds
    # Seats that lost their last websocket (or were cut off by a restart), and since when. A seat
    # that has joined but not yet opened its page is not away: its page is still loading.
    offline_since: dict[int, float] = field(default_factory=dict)
    grace_end: float = 0.0  # nothing automatic before this (set after a restart)
    restarted_at: float | None = None  # when this process loaded the table

    def __copy__(self) -> TurnClock:
        """A shallow copy, as copy.copy makes one, without its generic path (a move makes one)."""
        clone = object.__new__(TurnClock)
        clone.__dict__.update(self.__dict__)
        return clone

    def away(self, seat: int, now: float) -> bool:
        """Whether `seat` lost its connection and is not back (S4); a restart is forgiven in the grace."""
        since = self.offline_since.get(seat)
        if since is None:
            return False
        return now >= self.grace_end or since != self.restarted_at

    def due(self, turn: int | None) -> float | None:
        """When the table acts next; `turn` is the seat to play (None between rounds)."""
        if self.deadline is None:
            return None
        due = self.deadline
        off = self.offline_since.get(turn) if turn is not None else None
        if off is not None and self.turn_started is not None:
            due = min(due, max(self.turn_started, off) + self.timing.offline)
        return max(due, self.grace_end)

    def cut_short(self) -> bool:
        """Whether the running turn lost time to its seat being away (S4): its deadline came forward."""
        return (self.turn_started is not None and self.deadline is not None
                and self.deadline < self.turn_started + self.timing.turn)

    def start_turn(self, seat: int, now: float) -> None:
        """S3/S4: a new turn gets the full time, or a disconnected seat's time if it is away now."""
        self.turn_started, self.deadline = now, now + self.timing.turn
        if self.away(seat, now):
            self.deadline = min(self.deadline, now + self.timing.offline)

    def start_pause(self, now: float) -> None:
        """T10: the round is over; the next one starts by itself after the pause."""
        self.turn_started, self.deadline = None, now + self.timing.pause

    def stop(self) -> None:
        """The match is over: nothing happens by itself."""
        self.turn_started, self.deadline = None, None

    def connect(self, seat: int) -> None:
        """`seat` is back; time lost while away stays lost (S4: the shortened deadline was kept)."""
        self.offline_since.pop(seat, None)

    def disconnect(self, seat: int, now: float, turn: int | None) -> bool:
        """`seat` lost its last connection; True if that shortened the running turn (store it)."""
        self.offline_since[seat] = now
        if turn != seat or self.deadline is None:
            return False
        shortened = min(self.deadline, now + self.timing.offline)
        if shortened < self.deadline:
            self.deadline = shortened
            return True
        return False

    def restarted(self, seats: int, now: float) -> None:
        """Loaded after a start-up: every seat was cut off, and the grace lets them come back in time."""
        self.offline_since = dict.fromkeys(range(seats), now)
        self.restarted_at, self.grace_end = now, now + self.timing.grace
