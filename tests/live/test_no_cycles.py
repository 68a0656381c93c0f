"""A table's objects, and a websocket's, are freed by their reference counts: they form no cycles.

The server freezes what survives a full collection (live/collector.py) so that the automatic
collections stay short at thousands of sockets; a frozen cycle would never be freed. These tests
play whole matches and close sockets with the collector saving everything it finds unreachable,
and look for any object of Fichas, simple-websocket or wsproto among it.
"""

from __future__ import annotations

import gc

import simple_websocket

from helpers import open_table
from helpers.pages import seat_up, table_id, wait_until

WATCHED = ("game.", "live.", "web.", "app", "simple_websocket", "wsproto")


def ours_in_cycles() -> list[str]:
    """Collect with every unreachable object saved; which of them are ours (by class).

    flask-sock makes a response class per socket, in a cycle that holds the socket's Server:
    web/ws/endpoint.py empties that Server first, so an empty one is not counted.
    """
    gc.collect()
    return sorted({f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.garbage
                   if type(o).__module__.startswith(WATCHED) and not emptied_server(o)})


def emptied_server(thing) -> bool:
    """A websocket Server that holds nothing but its mode and closed state."""
    return isinstance(thing, simple_websocket.Server) and set(vars(thing)) <= {
        "mode", "connected", "close_reason", "close_message"}


class SavedGarbage:
    """While active, the collector keeps what it finds unreachable in gc.garbage (for inspection)."""

    def __enter__(self):
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)
        return self

    def __exit__(self, *exc):
        gc.set_debug(0)
        gc.garbage.clear()
        gc.collect()


def test_a_whole_match_played_and_evicted_leaves_no_cycle(make_app):
    app = make_app(TURN_SECONDS=0, OFFLINE_SECONDS=0, PAUSE_SECONDS=0, IDLE_SECONDS=0)
    tables = app.extensions["fichas"].tables
    with SavedGarbage():
        url, players = open_table(app, target=50)
        for _ in range(3000):
            if tables.get(table_id(url)).phase == "over":
                break
            tables.expire(table_id(url))  # the clock's move for whoever is to play
        assert tables.get(table_id(url)).phase == "over"
        players[0].get(url)  # a page rendered, with its record
        assert tables.evict_idle() == 1
        del players
        assert ours_in_cycles() == []


def test_websockets_closed_after_moves_leave_no_cycle(make_server):
    server = make_server(START_CLOCK=False)
    hub = server.app.extensions["fichas"].hub
    with SavedGarbage():
        url, players = seat_up(server, "block", 2, ("Ana", "Bea"))
        for player in players:
            player.connect(url)
        wait_until(lambda: hub.count() == 2)
        table = server.app.extensions["fichas"].tables.get(table_id(url))
        for _ in range(4):
            turn = table.turn
            players[turn].send_move({"action": "pass", "version": str(table.version)})  # refused or played
            players[turn].wait_for(lambda m: True)
        for player in players:
            player.socket.close()
        wait_until(lambda: hub.count() == 0)
        del table, players
        assert ours_in_cycles() == []
