"""A browser that stops reading must never hold up its table, the clock, or other browsers."""

from __future__ import annotations

import random
import threading

from helpers import open_table
from helpers.pages import play_until
from web.hub import MAX_QUEUED, Connection


class StuckSocket:
    """A socket whose send blocks until released, like a client that never reads."""

    def __init__(self):
        self.release = threading.Event()
        self.sent = 0

    def send(self, data):
        self.release.wait()
        self.sent += 1


def test_a_stuck_reader_never_blocks_moves_and_is_cut_off(app):
    url, players = open_table(app, "block", 2, names=("Ana", "Bea"))
    table_id = url.rsplit("/", 1)[1]
    stuck = StuckSocket()
    connection = Connection(stuck, None)
    app.extensions["fichas"].hub.add(table_id, connection)
    writer = threading.Thread(target=connection.flush, args=(5,), daemon=True)
    writer.start()  # its writer is now blocked inside send, as on a full socket
    table = play_until(app, url, players, random.Random(5),
                       lambda t: t.version >= 8 or t.phase != "playing")
    assert table.version >= 3  # moves went on while that browser's writer was stuck
    for _ in range(MAX_QUEUED + 1):  # pushes keep coming; the stuck browser falls behind
        app.extensions["fichas"].tables.publish(table)
    assert not connection.alive
    stuck.release.set()
    writer.join(5)
