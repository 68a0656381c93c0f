"""Chromium through nginx in front of two shards: people open, join and play a table by clicking; its
shard dies (a reload shows nginx's "not reachable" page) and comes back (the table is as it was, and
the page that was left open reconnects by itself and plays on)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from helpers.players import Player, Stats, play_one_move, seat_players
from helpers.shards import Cluster

pytestmark = pytest.mark.browser
RECONNECT_MS = 70_000  # htmx-ext-ws's full-jitter back-off waits up to 64 s after a few failures


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    # A restarted shard plays for nobody during its grace (S4 aside): the pages have time to come back.
    cluster = Cluster(tmp_path_factory.mktemp("shards-browser"), FICHAS_TABLES_PER_MINUTE="600",
                      FICHAS_GRACE_SECONDS="90")
    try:
        yield cluster.start()
    finally:
        cluster.stop()


def test_a_table_through_nginx_survives_its_shard_going_down_and_coming_back(cluster, open_page):
    players = [Player(open_page(), "Ana"), Player(open_page(), "Bea")]
    link = seat_players(cluster.url, players, "block")
    assert link.startswith(cluster.url + "/t/")  # the share link names nginx, not a shard
    shard = cluster.shards[link.rsplit("/", 1)[1].partition(".")[0]]
    stats = Stats()
    play_one_move(players, stats)  # the move went up one websocket and down both, through nginx
    stays, reloads = players

    shard.kill()
    try:
        reloads.page.reload()
        heading = reloads.page.get_by_role("heading", level=1)
        expect(heading).to_have_text("This table is not reachable right now")
        expect(reloads.page.get_by_role("link", name="Fichas home")).to_be_visible()
    finally:
        shard.start()

    reloads.page.reload()
    expect(reloads.page.locator("#table")).to_be_visible()
    reloads.wait_connected()
    assert reloads.line() == stays.line() and len(reloads.line()) == 1  # kept by the shard's file
    # The page nobody touched reconnects by itself and catches up with the table.
    stays.page.wait_for_function("v => Number(document.querySelector('#table')?.dataset.version) >= v",
                                 arg=reloads.version(), timeout=RECONNECT_MS)
    # Its old page already shows that version: only the other page seeing its seat back proves the reconnect.
    expect(reloads.page.locator(f"article.seat[data-seat='{stays.seat}']")).not_to_have_class(
        re.compile(r"\boffline\b"), timeout=RECONNECT_MS)
    assert play_one_move(players, stats) is not None  # both pages saw it (a tile, or a pass)
    assert stays.line() == reloads.line() and stays.version() == reloads.version()
