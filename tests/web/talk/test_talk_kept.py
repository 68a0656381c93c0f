"""What a table says is kept with it: its last messages and its chat rule survive a kill -9 of the
production server and a restart, and leave with the table when it is purged."""

from __future__ import annotations

import os
import signal
import time

import pytest

from helpers import Browser, LivePlayer
from helpers.pages import db_rows, table_id
from helpers.production import Production
from live.purge import main as purge

DAY = 86_400


@pytest.mark.slow  # two starts of the production server
def test_the_talk_and_the_rule_survive_a_kill_9_and_a_restart(tmp_path):
    server = Production(tmp_path).start()
    try:
        ana, bea = LivePlayer(server.url), LivePlayer(server.url)
        response = ana.post("/tables", {"name": "Ana", "variant": "block", "seats": 2, "target": 50,
                                        "chat": "off"})
        url = ana.url = response.headers["Location"]
        bea.join(url, "Bea")
        ana.connect(), bea.connect()
        ana.wait_for(lambda m: 'id="talk-log"' in m)
        ana.send_move({"action": "talk", "phrase": "hello"})
        bea.send_move({"action": "talk", "reaction": "heart"})
        # Shown means stored: a message is written before any page hears it (the two sockets' messages
        # are played in either order).
        for seen in ('data-talk-seat="0" data-talk-kind="phrase"',
                     'data-talk-seat="1" data-talk-kind="reaction"'):
            ana.wait_for(lambda m, seen=seen: seen in m)
    finally:
        for player in (ana, bea):
            player.close()
        os.killpg(server.process.pid, signal.SIGKILL)  # no clean stop: the worker dies with it
        server.process.wait()

    again = Production(tmp_path).start()
    try:
        carl = LivePlayer(again.url)
        carl.http.cookies.set("lang", "es")
        carl.connect(url)
        log = carl.wait_for(lambda m: 'id="talk-log"' in m)
        assert 'data-talk-seat="0" data-talk-kind="phrase"' in log and "¡Hola a todos!" in log
        assert 'data-talk-seat="1" data-talk-kind="reaction"' in log
        assert 'data-chat="off"' in carl.wait_for(lambda m: 'id="talk-rule"' in m)
        carl.close()
    finally:
        again.stop()


class FakeClock:
    """The tables' time, set by the test (time.time's scale, so the purge's cutoffs apply)."""

    def __init__(self, now: float):
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_a_purged_table_takes_its_talk_along(make_app):
    clock = FakeClock(time.time() - 40 * DAY)
    app = make_app(TABLES_OPTIONS={"now": clock})
    tables = app.extensions["fichas"].tables
    kept = []
    for name in ("Ana", "Bea"):  # two tables waiting for players, one of them too recent to purge
        host = Browser(app)
        url = host.client.post("/tables", data={"name": name, "variant": "block", "seats": 2, "target": 50,
                                                "csrf_token": host.csrf}).headers["Location"]
        table = tables.get(table_id(url))
        tables.say(table, 0, "phrase", "hello", "en")
        tables.say(table, None, "chat", "anyone here?", "en")
        kept.append(table.id)
        clock.now = time.time() - 3600
    assert db_rows(app, "SELECT table_id, COUNT(*) FROM talk GROUP BY table_id ORDER BY MIN(at)") == [
        (kept[0], 2), (kept[1], 2)]
    assert purge(["--db", app.config["DATABASE"], "--never-started-days", "1"]) == 0
    assert db_rows(app, "SELECT table_id, COUNT(*) FROM talk GROUP BY table_id") == [(kept[1], 2)]
