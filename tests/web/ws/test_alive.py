"""A page that has heard nothing for a while asks its socket "alive?" (static/fichas.js): a dead spot
leaves a socket open with nothing getting through, and no browser event says so (issue 43 item 3)."""

from __future__ import annotations

import time

from helpers.pages import seat_up, table_id
from web.ws.endpoint import ALIVE, ALIVE_ANSWER


def test_alive_is_answered_at_once_with_a_few_bytes_and_changes_nothing(live_server):
    url, players = seat_up(live_server, "block", 2, ("Ana", "Bea"))
    table = live_server.app.extensions["fichas"].tables.get(table_id(url))
    bea = players[1].connect()
    bea.wait_version(table.version)
    version, before = table.version, len(bea.messages)
    asked = time.monotonic()
    bea.socket.send(ALIVE)
    with bea.arrived:
        assert bea.arrived.wait_for(lambda: len(bea.messages) > before, 2.0)
    assert time.monotonic() - asked < 0.5
    assert bea.messages[before:] == [ALIVE_ANSWER]  # nothing rendered, no refusal in #flash
    assert table.version == version
