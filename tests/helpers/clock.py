"""A fake clock and full tables for the clock tests (tests/clock)."""

from __future__ import annotations

from live.turnclock import Timing

TIMING = Timing(turn=45, offline=5, pause=30, grace=15, settle=3, host_wait=60)
START = 1_000_000.0


class FakeClock:
    """Time that moves only when the test says so."""

    def __init__(self, now: float = START):
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def full_table(tables, variant="partnership", seats=4, target=100):
    """A table whose seats are all taken (so round one has started); returns it."""
    names = ["Ana", "Bea", "Carl", "Dan"][:seats]
    table, _ = tables.create(names[0], variant, seats, target)
    for name in names[1:]:
        tables.join(table, name)
    return table


def connect_all(tables, table):
    """Every seat's page is connected."""
    for seat in range(table.seats):
        tables.connect(table, seat)


def finish_round(tables, table, clock):
    """Let the clock play the round out (45 s a turn)."""
    number = table.match.round.number
    while table.phase == "playing" and table.match.round.number == number:
        clock.advance(45)
        assert tables.expire(table.id)
    assert table.phase == "pause", "the match ended with this round"
