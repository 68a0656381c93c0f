"""Small pushes in a real Chromium: a page kept up to date by changed pieces shows what a fresh page shows,
and a page that misses a push notices it and gets the whole table back."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from helpers.players import (
    BLOCK_SEED,
    Player,
    Stats,
    play_one_move,
    pump_until,
    seeded,
    sit_down,
    wait_first_push,
)

pytestmark = pytest.mark.browser
COUNTDOWN = re.compile(r"\b\d+ s\b")  # clocks tick on their own: not part of what is compared


class DroppedPush:
    """A page's websocket routed through Playwright, which can lose one push on the way to the page."""

    def __init__(self, page: Page):
        self.dropping = False  # the next push of changed pieces is lost, once
        self.dropped: list[str] = []
        self.sent: list[str] = []  # what the page sent
        page.route_web_socket(re.compile(r"/t/[\w-]+/ws$"), self._connect)

    def _connect(self, page_side: WebSocketRoute) -> None:
        server_side = page_side.connect_to_server()
        server_side.on_message(lambda message: self._from_server(page_side, message))
        page_side.on_message(lambda message: self.sent.append(message) or server_side.send(message))

    def _from_server(self, page_side: WebSocketRoute, message: str) -> None:
        if self.dropping and message.startswith('<input type="hidden" id="version"'):
            self.dropping = False
            self.dropped.append(message)
        else:
            page_side.send(message)


def table_text(page: Page) -> str:
    """What #table says (its countdowns aside)."""
    return COUNTDOWN.sub("", page.locator("#table").inner_text())


def test_a_page_kept_up_by_small_pushes_reads_as_a_page_opened_afresh(open_page, make_server):
    server = make_server(**seeded(BLOCK_SEED))
    players = sit_down(open_page, server, 2, variant="block", phones=(1,))
    stats = Stats()
    for _ in range(5):
        assert play_one_move(players, stats)
    for player in players:  # a second tab of the same browser: the same seat, the whole table at once
        tab = Player(player.page.context.new_page(), player.name, player.seat)
        tab.page.goto(player.page.url)
        tab.wait_version(player.version())
        wait_first_push(tab.page)
        assert table_text(tab.page) == table_text(player.page)
        assert tab.line() == player.line() and tab.hand() == player.hand()
        assert tab.page.locator("#unseen").text_content() == player.page.locator("#unseen").text_content()
        tab.page.close()


def test_a_page_that_missed_a_push_notices_and_gets_the_whole_table(open_page, make_server):
    server = make_server(**seeded(BLOCK_SEED))  # Bea opens with 6-6
    players = sit_down(open_page, server, 2, variant="block", phones=())
    stats = Stats()
    assert play_one_move(players, stats)  # the line is open: from here on, pushes send changed pieces
    watcher = open_page()
    route = DroppedPush(watcher)
    watcher.goto(players[0].page.url)
    expect(watcher.locator("#me .prompt")).to_contain_text("You are watching")
    wait_first_push(watcher)  # a socket that opens after the move gets the whole table, not a piece

    route.dropping = True
    assert play_one_move(players, stats)
    assert pump_until(watcher, lambda: route.dropped), "no push of changed pieces was sent to drop"
    version = players[0].version()
    expect(watcher.locator("#table")).to_have_attribute("data-version", str(version - 1))
    assert play_one_move(players, stats)  # the next push follows one the page never got
    expect(watcher.locator("#table")).to_have_attribute("data-version", str(version + 1))
    assert route.sent.count('{"action":"refresh"}') == 1  # it asked once for the whole table
    afresh = open_page(players[0].page.url)  # another spectator, opened now
    Player(afresh, "", None).wait_version(version + 1)
    wait_first_push(afresh)
    assert table_text(watcher) == table_text(afresh)
    assert Player(watcher, "", None).line() == players[0].line()
