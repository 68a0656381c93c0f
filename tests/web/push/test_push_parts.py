"""What a push carries: the shared #table always, a viewer's own #me (or its pieces) only when it changed."""

from __future__ import annotations

import random

import pytest

from helpers import open_table, swaps
from helpers.pages import live_table, section, stable, step
from web.push.publish import send_whole
from web.ws.hub import Connection


class Inbox:
    """A socket that keeps what it is sent."""

    def __init__(self):
        self.messages = []

    def send(self, data):
        self.messages.append(data)


def connect(app, table, seat):
    inbox = Inbox()
    connection = Connection(inbox, seat)
    connection.holder = table.secret_hashes[seat]  # the seat cookie a real page comes with
    app.extensions["fichas"].hub.add(table.id, connection)
    app.extensions["fichas"].tables.connect(table, seat)
    connection.flush(0)
    return connection, inbox


def test_a_presence_change_does_not_wipe_the_acting_players_own_part(app):
    url, _ = open_table(app, "block", 3, names=("Ana", "Bea", "Carl"))
    table = app.extensions["fichas"].tables.get(url.rsplit("/", 1)[1])
    acting, inbox = connect(app, table, table.turn)
    assert 'id="me"' in inbox.messages[-1]  # the first push has everything
    other = next(s for s in range(3) if s != table.turn)
    connect(app, table, other)  # someone else comes online: only #table changes for the player
    acting.flush(0)
    last = inbox.messages[-1]
    assert 'id="seat-' in last and not any(f'id="{part}' in last for part in ("me", "prompt", "h-", "hand"))
    tables = app.extensions["fichas"].tables
    tile, end = table.match.round.playable(table.turn)[0]
    tables.act(table, table.turn, "play", table.version, tile.text, end)
    acting.flush(0)
    last = inbox.messages[-1]  # their hand and their prompt changed: those pieces of their own part come too
    assert f'<span id="h-{tile.text}" hx-swap-oob="delete">' in last and 'id="prompt"' in last
    assert 'id="me"' not in last and '<div id="hand"' not in last


def whole_for(app, table, seat):
    """What a page of this seat opened now is sent: the whole table and its own part (a twin, not kept)."""
    twin = Connection(Inbox(), seat)
    twin.holder = table.secret_hashes[seat]
    with app.test_request_context(), table.lock:
        send_whole(twin, *app.extensions["fichas"].shown(table))
    twin.flush(0)
    return twin.socket.messages


def shown(page: str) -> str:
    """#table and #me as a page shows them, without countdowns or push numbers."""
    return stable(section(page, "table") + section(page, "me"))


@pytest.mark.parametrize(("variant", "seats", "seed"), [("draw", 3, 11), ("partnership", 4, 12)])
def test_pages_asking_for_the_whole_table_at_any_moment_show_what_a_new_page_shows(app, variant, seats, seed):
    """A page that missed a push asks for the whole table (static/fichas.js); the pushes after it must
    build on what it was sent then, whatever its seat was doing (waiting, acting, between rounds)."""
    url, players = open_table(app, variant, seats, names=("Ana", "Bea", "Carl", "Dan")[:seats])
    table = live_table(app, url)
    pages = [connect(app, table, seat) for seat in range(seats)]
    built = [swaps.fold(inbox.messages) for _, inbox in pages]  # each page as its pushes built it
    rng = random.Random(seed)
    refreshed = 0
    for n in range(120):
        step(app, url, players, rng)
        for seat, (connection, inbox) in enumerate(pages):
            if rng.random() < 0.2:  # this page missed a push, and asks for the whole table
                with app.test_request_context(), table.lock:
                    send_whole(connection, *app.extensions["fichas"].shown(table))
                refreshed += 1
            sent = len(inbox.messages)
            connection.flush(0)
            built[seat] = swaps.fold(inbox.messages[sent:], built[seat])
            fresh = swaps.fold(whole_for(app, table, seat))
            assert shown(built[seat]) == shown(fresh), f"step {n}, seat {seat}"
    assert refreshed > 40
