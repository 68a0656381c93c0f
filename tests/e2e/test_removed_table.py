"""A table that `python -m live.purge` removed while a page of it was open: the page says so, in sight
and to a screen reader, and stops reconnecting; reloaded, it says so again (never an error 500)."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest
from playwright.sync_api import expect

from helpers.page_probes import freeze, thaw
from helpers.players import Player
from live.purge import main as purge

pytestmark = pytest.mark.browser

REMOVED = "This table has been removed. Open a new table."


def test_an_open_page_of_a_purged_table_says_it_was_removed(open_page, make_server):
    server = make_server()
    ana = Player(open_page(), "Ana")
    link = ana.create(server.url, "block", 2, target=50)
    database = server.app.config["DATABASE"]
    with closing(sqlite3.connect(database)) as db, db:  # the server's last sight of it, long ago
        db.execute("UPDATE tables SET seen_at = 0")
    assert purge(["--db", database, "--finished-days", "0", "--never-started-days", "0"]) == 0
    server.app.extensions["fichas"].tables.mark_seen()  # what the server does every minute

    page = ana.page
    expect(page.locator("#connection")).to_be_visible()
    expect(page.locator("#connection")).to_have_text(REMOVED)
    expect(page.locator("#alerts")).to_contain_text(REMOVED)  # read at once
    opened = []
    page.on("websocket", lambda socket: opened.append(socket))
    # Thawed (or shown again), the page catches up (static/turn.js), but a socket closed for good stays so.
    cdp = freeze(ana)
    page.wait_for_timeout(4000)
    thaw(cdp)
    page.wait_for_timeout(1500)  # no reconnecting: the words stay
    expect(page.locator("#connection")).to_have_text(REMOVED)
    assert not opened

    page.goto(link)
    expect(page.get_by_role("heading", name="Table removed")).to_be_visible()
    expect(page.locator("main")).to_contain_text("This table has been removed")
