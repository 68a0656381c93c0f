"""The bare stack: Fichas's web stack doing nothing but count moves and push fixed bytes.

    python bench/load.py --bare --tables 1000 --seconds 180 --ramp-concurrency 25 --quiet-wait 10

Issue 13 sets the cost of a move against what the stack alone costs (gunicorn with one gevent
worker, Flask and flask-sock, pushing the same bytes to the same four sockets a move). That
stack's cost moves with the machine as much as Fichas's does: on this shared VM a core does up
to 1.6 times more in its quick minutes than in its slow ones. Measured minutes apart by the same
load client (bench/load.py), the two runs give a ratio the machine's pace changes much less.

This app answers the load client as Fichas does, with none of Fichas's work: a home page with a
CSRF token, POST /tables (303 to the table), the table's page, POST …/join (204), and the
table's websocket, which on each move checks the version, counts it, and sends every socket of
the table the same message: a stamp with the version, the phase and whose turn it is, one
playable tile, and filler up to FICHAS_BARE_BYTES bytes (default 1,430: what Fichas sends a seat
a move, BENCHMARKS.md), uncompressed as Fichas's are (it refuses permessage-deflate, which would
cost the stack a fifth of its time). No database, no rules, no clocks, no pings (flask-sock's
default).
Never used by Fichas itself.
"""

from __future__ import annotations

import itertools
import json
import os

from flask import Flask, redirect, request
from flask_sock import Sock

HOME = '<!doctype html><meta name="csrf-token" content="bare"><title>bare</title>'
STAMP = ('<input type="hidden" id="version" name="version" value="{version}" data-phase="playing"'
         ' data-turn="{turn}">')
# The tile every seat holds: the load client plays whichever fits (bench/load.py FITS_BUTTON, HAND_TILE).
TILE = ('<div id="hand"><button type="button" class="tile-btn fits" data-tile="0-0" ws-send'
        ' hx-vals=\'{"tile":"0-0","end":"right"}\' id="h-0-0">0-0</button></div>')


class Table:
    """A table's count of moves and its open websockets."""

    def __init__(self):
        self.version = 0
        self.sockets: list = []

    def message(self, size: int) -> str:
        """What every socket of the table is sent: the stamp, the tile, filler up to `size` bytes."""
        head = STAMP.format(version=self.version, turn=self.version % 4) + TILE
        return head + "<p>" + "x" * max(0, size - len(head) - 7) + "</p>"


def create_app() -> Flask:
    """The bare app (gunicorn: 'bench.bare:create_app()')."""
    app = Flask(__name__)
    sock = Sock(app)
    size = int(os.environ.get("FICHAS_BARE_BYTES", "1430"))
    tables: dict[str, Table] = {}
    numbers = itertools.count(1)

    @app.before_request
    def no_deflate():
        """Refuse permessage-deflate, as Fichas does (web/http/routes.py): the same bytes on the wire."""
        request.environ.pop("HTTP_SEC_WEBSOCKET_EXTENSIONS", None)

    @app.get("/")
    def home():
        return HOME

    @app.post("/tables")
    def create():
        table_id = str(next(numbers))
        tables[table_id] = Table()
        return redirect(f"/t/{table_id}", 303)

    @app.get("/t/<table_id>")
    def page(table_id: str):
        return HOME if table_id in tables else ("no such table", 404)

    @app.post("/t/<table_id>/join")
    def join(table_id: str):
        return ("", 204) if table_id in tables else ("no such table", 404)

    @sock.route("/t/<table_id>/ws")
    def websocket(ws, table_id: str):
        table = tables.get(table_id)
        if table is None:
            return
        table.sockets.append(ws)
        try:
            ws.send(table.message(size))
            while True:
                move = json.loads(ws.receive())
                if str(move.get("version")) != str(table.version):
                    continue  # a stale move: Fichas refuses it and nothing changes
                table.version += 1
                message = table.message(size)
                for other in list(table.sockets):
                    try:
                        other.send(message)
                    except Exception:  # that socket has gone: its own handler ends it
                        pass
        finally:
            table.sockets.remove(ws)

    return app
