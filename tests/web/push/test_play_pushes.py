"""A push in a round's play is built from the round alone (web/push/publish.py `play_context`), not from the
whole table's view: every page must get from it exactly what a push built from the whole view sends."""

from __future__ import annotations

import random

import pytest

from helpers import open_table
from helpers.pages import live_table, step
from web.push import publish as pushes
from web.ws.hub import Connection


class Inbox:
    """A socket that keeps what it is sent."""

    def __init__(self):
        self.messages = []

    def send(self, data):
        self.messages.append(data)


class Clock:
    """The tables' clock, moved by the test (the two pushes compared must read the same time)."""

    def __init__(self):
        self.at = 1_000_000.0

    def __call__(self) -> float:
        return self.at


def page(app, table, seat: int | None, lang: str) -> Connection:
    """A page of `seat` (None: a spectator) reading `lang`, on the table's hub."""
    connection = Connection(Inbox(), seat)
    connection.holder = table.secret_hashes[seat] if seat is not None else None
    connection.lang = lang
    live = app.extensions["fichas"]
    live.hub.add(table.id, connection)
    live.tables.connect(table, seat)
    return connection


@pytest.mark.parametrize(("variant", "seats", "seed"), [("partnership", 4, 21), ("draw", 3, 22),
                                                         ("block", 2, 23)])
def test_a_push_in_a_rounds_play_sends_what_one_from_the_whole_view_sends(make_app, monkeypatch, variant,
                                                                          seats, seed):
    clock = Clock()
    app = make_app(TABLES_OPTIONS={"rng": random.Random(seed), "now": clock})
    url, players = open_table(app, variant, seats, names=("Ana", "Bea", "Carl", "Dan")[:seats])
    table = live_table(app, url)
    live = app.extensions["fichas"]
    tables, hub = live.tables, live.hub
    pages = [page(app, table, seat, ("en", "es")[seat % 2]) for seat in range(seats)]
    rng = random.Random(seed)
    publish, play_context = tables.publish, pushes.play_context
    compared, failures = [], []

    def both_ways(table) -> None:
        """Build this push from the round and from the whole view, compare what each page gets, publish.

        Kept apart from the publish: the tables log a failure to publish and go on (live/tables.py).
        """
        try:
            compare(table)
        except Exception as error:  # told after the match, with the push it was at
            failures.append(f"push {live.state[table.id].pushed.seq + 1}: {error!r}")
        publish(table)

    def compare(table) -> None:
        shown, state = live.shown(table)
        before = state.pushed
        connections = [c for c in hub.connections(table.id) if c.alive]
        if connections:
            with app.app_context():
                played = pushes.Push(app, shown, state, before, spectators=True)
                if played.whole is None:  # built from the round alone
                    monkeypatch.setattr(pushes, "play_context", lambda *args: None)
                    whole = pushes.Push(app, shown, state, before)
                    monkeypatch.setattr(pushes, "play_context", play_context)
                    assert played.now == whole.now
                    for connection in connections:
                        assert played.message_for(connection) == whole.message_for(connection)
                    compared.append((any(c.seat is None for c in connections),  # a spectator watched
                                     any(c.seq != before.seq for c in connections),  # a page missed one
                                     played.now.moves > before.moves + 1 or seats != 3))  # Draw: many moves

    tables.publish = both_ways
    spectator = None
    for _ in range(400):
        roll = rng.random()
        if roll < 0.05:  # a spectator comes or goes (they are shown the seats changing hands)
            if spectator is None:
                spectator = page(app, table, None, rng.choice(("en", "es")))
            else:
                hub.remove(table.id, spectator)
                spectator = None
        elif roll < 0.10:  # a seat's page drops out, or comes back (the host may then be away)
            seat = rng.randrange(seats)
            if pages[seat] is not None:
                hub.remove(table.id, pages[seat])
                tables.disconnect(table, seat)
                pages[seat] = None
            else:
                pages[seat] = page(app, table, seat, ("en", "es")[seat % 2])
        elif roll < 0.15:  # a page missed a push: the next one sends it the whole table
            connection = rng.choice([c for c in pages if c is not None] or [None])
            if connection is not None:
                connection.seq = None
        elif roll < 0.40 and table.phase == "playing":  # time runs out: the table plays the turn
            clock.at += 3600
            tables.expire(table.id)
            continue
        step(app, url, players, rng)
    assert not failures, failures[:3]
    assert len(compared) > 150, "too few pushes were built from the round alone"
    # With a spectator, with a page that gets the whole table; in Draw, a turn of many moves (draws).
    assert all(any(facts) for facts in zip(*compared, strict=True))
