"""What a push carries: the shared #table always, a viewer's own #me (or its pieces) only when it changed."""

from __future__ import annotations

from helpers import open_table
from web.hub import Connection


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
