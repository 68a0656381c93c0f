"""The pages work in Chromium under the strict Content-Security-Policy, and break none of it.

Every page gets a `securitypolicyviolation` listener before any of its own scripts run
(`add_init_script`), reporting to the test; console errors and uncaught page errors are
collected too. People create a table, join it and play by clicking; nothing may be reported.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from helpers.page_probes import LATE_REPORT_SECONDS, watched
from helpers.panels import open_panel
from helpers.players import BLOCK_SEED, Player, Stats, play_one_move, pump_until, seat_players, seeded
from web.guard.security import CSP

pytestmark = pytest.mark.browser

def test_a_game_under_the_strict_policy_reports_no_violation(open_page, make_server):
    server = make_server(**seeded(BLOCK_SEED))
    problems: list[str] = []
    players = [Player(watched(open_page, problems), "Ana"),
               Player(watched(open_page, problems, phone=True), "Bea", phone=True)]
    link = seat_players(server.url, players, "block")
    assert link.startswith(server.url + "/t/")  # the share link: this server's own address
    for player in players:
        player.wait_version(2)

    stats = Stats()
    for _ in range(6):  # a few moves by clicking, over each page's websocket
        if play_one_move(players, stats) is None:
            break
    assert stats.placed >= 3, stats
    open_panel(players[0].page)  # the table's link is in the menu during play
    players[0].press(players[0].page.get_by_role("button", name="Copy link"))  # fichas.js at work
    expect(players[0].page.get_by_role("button", name="Copied!")).to_be_visible()

    for player in players:
        page = player.page
        assert page.evaluate("window.__violations") == []
        assert page.evaluate("document.querySelectorAll('style, [style]').length") == 0  # htmx added none
        assert page.evaluate("[htmx.config.allowEval, htmx.config.includeIndicatorStyles]") == [False, False]
        response = page.context.request.get(page.url)
        assert response.headers["content-security-policy"] == CSP
    pump_until(players[0].page, lambda: bool(problems), LATE_REPORT_SECONDS)  # a report still on its way
    assert problems == []


def test_the_watch_does_see_a_violation(open_page, make_server):
    """The listener works: an inline style (what htmx's indicator styles were) is blocked and reported."""
    server = make_server()
    problems: list[str] = []
    page = watched(open_page, problems)
    page.goto(server.url + "/")
    page.evaluate("document.head.insertAdjacentHTML('beforeend', '<style>body { color: red }</style>')")
    page.wait_for_function("window.__violations.length > 0")
    pump_until(page, lambda: problems)  # the exposed function runs only while Playwright is waited on
    assert any("style-src" in seen for seen in problems)
    assert page.evaluate("getComputedStyle(document.body).color") != "rgb(255, 0, 0)"
