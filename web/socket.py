"""A table's websocket: pushes out (the hub), moves in (htmx's ws-send), presence (S4)."""

from __future__ import annotations

import json
import logging

from flask import current_app
from flask_sock import ConnectionClosed, Sock

from game.errors import GameError
from live.table import Table
from live.tables import Tables

from .hub import Connection
from .parts import fichas
from .render import flash_alone, render_partials
from .routes import SERVER_ERROR, bp
from .security import my_seat

log = logging.getLogger(__name__)
ACTIONS = ("play", "pass", "draw", "next_round")  # what a page may send over its websocket
sock = Sock()


@sock.route("/t/<table_id>/ws", bp=bp)
def websocket(ws, table_id: str):
    """One browser's connection to a table, for as long as the page is open."""
    live = fichas()
    table = live.tables.get(table_id)  # known to exist: the guard refused unknown tables
    seat = my_seat(table)
    connection = Connection(ws, seat, wake=ws.event)  # simple-websocket sets it on close too
    # ... but not when it drops a socket for an oversized message: look again at each ping.
    wait = current_app.config["PING_SECONDS"]
    try:
        with live.tables.locked(table) as table:  # a full refresh first (to all, if this seat came back)
            live.hub.add(table.id, connection)
            if not live.tables.connect(table, seat):
                html, connection.me_key = render_partials(table, live.tables, seat)
                connection.send(html)
        # This handler is the connection's writer (pushes are queued, never written under a
        # table's lock) and its reader: the page sends its moves over this websocket.
        moved_at = None  # the version this page's last accepted move was made on
        while connection.alive and ws.connected:
            connection.flush(timeout=wait)
            while (message := ws.receive(timeout=0)) is not None:
                refused, moved_at = websocket_action(live.tables, table, seat, message, moved_at)
                if refused is not None:
                    connection.send(refused)
            if connection.pending():  # receive() may have cleared a wake-up meant for us
                connection.wake()
    except ConnectionClosed:
        pass
    finally:
        connection.close()
        live.hub.remove(table.id, connection)
        live.tables.disconnect(table, seat)


def websocket_action(tables: Tables, table: Table, seat: int | None, message,
                     moved_at: str | None) -> tuple[str | None, str | None]:
    """Do the move a page sent over its websocket (htmx's ws-send JSON).

    Returns the refusal to show (or None) and the version this page last moved on. A second
    message on that same version is a double click, already done: it only clears #flash.
    Untrusted like any POST, but needs no CSRF token: the handshake checked the Origin.
    """
    try:
        data = json.loads(message)
    except (TypeError, ValueError, RecursionError):  # RecursionError: a deeply nested message
        data = None
    if not isinstance(data, dict) or data.get("action") not in ACTIONS:
        return flash_alone("That message is not a move Fichas knows."), moved_at
    tile, end, version = data.get("tile"), data.get("end"), data.get("version")
    if not all(isinstance(value, str | None) for value in (tile, end, version)):
        return flash_alone("A move's tile, end and version are written as text."), moved_at
    if moved_at is not None and version == moved_at:
        return flash_alone(""), moved_at  # answered all the same: the page waits for an answer
    try:
        tables.act(table, seat, data["action"], version, tile=tile, end=end)
    except GameError as error:
        return flash_alone(str(error)), moved_at
    except Exception:  # a bug or the disk: the table was put back; say so, keep the socket
        log.exception("move on table %s failed", table.id)
        return flash_alone(SERVER_ERROR), moved_at
    return None, version
