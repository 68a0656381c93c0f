"""The scripted player of the tests and of bench/load.py reads the page's hooks as a page shows them."""

from __future__ import annotations

import random
from itertools import pairwise

from helpers.pages import seat_up, wait_until
from helpers.remote import play_round


def test_it_plays_a_draw_round_to_its_end_taking_a_drawn_tile_that_fits(make_server):
    """A tile just drawn that fits is marked `drawn` too ("tile-btn fits drawn"): the scripted player
    missed it, found nothing to send, and the round stalled (restart test's note)."""
    server = make_server(START_CLOCK=False, TABLES_OPTIONS={"rng": random.Random(2)})
    url, players = seat_up(server, "draw", 2, ("Ana", "Bea"))
    for player in players:
        player.connect()
    table = server.app.extensions["fichas"].tables.get(url.rsplit("/", 1)[1])
    wait_until(lambda: all(table.connected(seat) for seat in range(2)))
    for player in players:
        player.wait_version(table.version)
    rnd = table.match.round
    assert play_round(players, timeout=20) > 0 and rnd.over
    events = rnd.events
    drew_then_played = [(a, b) for a, b in pairwise(events)
                        if a.action == "draw" and b.action == "play" and a.seat == b.seat]
    assert drew_then_played, [e.action for e in events]  # the case this test is for
