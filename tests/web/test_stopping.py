"""Stopping the production server as systemd, docker and `kill` (SIGTERM) or Ctrl-C (SIGINT) do.

gunicorn's graceful stop waited 30 s for websockets that never end: the tables played on (their clocks
too) while no page could come back, and at 30 s the worker was killed (restart test). Now every page is
told to come back (close code 1012), the server exits within seconds, and no page's going is taken for a
player leaving on their turn (S4).
"""

from __future__ import annotations

import signal
import sqlite3
import time

import pytest
from test_flood import seated_table
from wsclient import Production

STOPPED_WITHIN = 5.0  # seconds from SIGTERM to the master's exit (was 30)
SERVICE_RESTART = 1012


@pytest.fixture
def production(tmp_path):
    server = Production(tmp_path, FICHAS_TURN_SECONDS="60", FICHAS_OFFLINE_SECONDS="1",
                        FICHAS_GRACE_SECONDS="0")
    yield server.start()
    server.stop()


def clock_row(path) -> tuple:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT version, turn_started, deadline FROM tables").fetchone()


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])  # systemd, docker, kill; Ctrl-C
def test_a_stop_tells_every_page_to_come_back_and_takes_seconds(production, stop):
    players = seated_table(production)
    before = clock_row(production.env["FICHAS_DB"])
    asked = time.monotonic()
    production.process.send_signal(stop)
    production.process.wait(timeout=STOPPED_WITHIN)
    took = time.monotonic() - asked
    for player in players:
        assert player.socket.close_reason == SERVICE_RESTART, (player.socket.close_reason, production.log())
    # The seat to play was not cut to the offline second (S4): its pages went because the server did.
    assert clock_row(production.env["FICHAS_DB"]) == before
    assert "Worker exiting" in production.log() and "graceful timeout" not in production.log()
    assert took < STOPPED_WITHIN
