"""Issue 45 in Chromium: a finished round stepped through with the buttons, the keys (← → Home End) and
the move list, on a phone and a desktop, in Spanish and Danish; each step said in the live region; axe
finds nothing."""

from __future__ import annotations

import json
import random

import pytest
from playwright.sync_api import Page, expect

from helpers import open_table
from helpers.page_probes import SIZES, with_axe
from helpers.pages import play_until, round_over

from .test_axe import violations

pytestmark = pytest.mark.browser


def finished_round(server, variant: str = "draw", seats: int = 2) -> tuple[str, int]:
    """A table whose first round is over (played over HTTP); its replay's path and its number of moves."""
    url, players = open_table(server.app, variant, seats)
    table = play_until(server.app, url, players, random.Random(3), round_over)
    return f"{url}/matches/1/rounds/1", len(table.match.rounds[0].events)


def at(page: Page, moves: int) -> None:
    """The replay shows the position after `moves` events, and the live region has said it."""
    replay = page.locator("#replay")
    expect(replay).to_have_attribute("data-at", str(moves))
    expect(page.locator("#rp-said")).to_have_text(replay.get_attribute("data-said"))


@pytest.mark.parametrize(("lang", "phone"), [("es", True), ("da", False)])
def test_a_replay_steps_by_buttons_keys_and_the_move_list(open_page, make_server, lang, phone):
    server = make_server(START_CLOCK=False)
    path, total = finished_round(server)
    page = with_axe(open_page(phone=phone))
    page.set_viewport_size(SIZES[1] if phone else SIZES[0])
    page.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
    page.goto(server.url + path)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("#replay")).to_have_attribute("data-at", "0")
    assert violations(page) == []

    page.locator("#rp-next").click()
    at(page, 1)
    expect(page.locator("#rp-next")).to_be_focused()  # the control keeps the focus through the swap
    assert "move=1" in page.url
    page.keyboard.press("ArrowRight")
    at(page, 2)
    page.keyboard.press("End")
    at(page, total)
    expect(page.locator(".rp-result")).to_be_visible()
    assert violations(page) == []
    page.keyboard.press("ArrowLeft")
    at(page, total - 1)
    page.keyboard.press("Home")
    at(page, 0)
    page.keyboard.press("ArrowLeft")  # nothing before the deal
    expect(page.locator("#replay")).to_have_attribute("data-at", "0")
    for _ in range(3):  # pressed faster than the steps come back: each one counts
        page.keyboard.press("ArrowRight")
    at(page, 3)
    for _ in range(2):  # clicked as fast
        page.locator("#rp-next").click()
    at(page, 5)
    page.keyboard.press("Home")
    at(page, 0)

    # The move list: an ordered list, a screen reader's list of its items (the deal, then each move).
    moves = page.locator("nav.rp-list ol.rp-moves")
    expect(moves.locator("> li")).to_have_count(total + 1)
    moves.locator("#move-5 a").click()
    at(page, 5)
    expect(moves.locator("#move-5 [aria-current=step]")).to_be_visible()
    page.locator("#rp-prev").focus()
    page.keyboard.press("Enter")
    at(page, 4)
    assert violations(page) == []


def test_a_shared_link_opens_its_position_and_back_keeps_the_steps(open_page, make_server):
    server = make_server(START_CLOCK=False)
    path, _total = finished_round(server, "partnership", 4)
    page = open_page()
    page.goto(f"{server.url}{path}?move=7#move-7")
    expect(page.locator("#replay")).to_have_attribute("data-at", "7")
    expect(page.locator("#rp-link")).to_have_value(f"{server.url}{path}?move=7#move-7")
    page.goto(f"{server.url}{path}#move-3")  # a link written with the fragment alone
    expect(page.locator("#replay")).to_have_attribute("data-at", "3")
    page.locator("#rp-next").click()
    expect(page.locator("#replay")).to_have_attribute("data-at", "4")
    page.go_back()
    expect(page).to_have_url(f"{server.url}{path}?move=3#move-3")


def test_a_record_file_replays_in_the_browser(open_page, make_server, tmp_path):
    server = make_server(START_CLOCK=False)
    path, total = finished_round(server)
    record = tmp_path / "match.json"
    page = with_axe(open_page())
    # Near the limit (256 KB): each step sends it again, multipart (urlencoded, its quotes would triple).
    data = page.request.get(f"{server.url}{path.split('/matches')[0]}/record.json").json()
    record.write_text(json.dumps({**data, "note": '"' * 120_000}))  # 240 KB, each quote escaped
    assert 235_000 < record.stat().st_size < 256 * 1024
    page.goto(server.url + "/replay")
    assert violations(page) == []
    page.locator("#rp-file").set_input_files(str(record))
    page.locator("button.rp-go").click()
    expect(page.locator("#replay")).to_have_attribute("data-at", "0")
    page.keyboard.press("End")
    at(page, total)
    page.locator("#rp-first").click()
    at(page, 0)
    assert violations(page) == []
    page.goto(server.url + "/replay")
    page.locator("#rp-paste").fill('{"format": "domino-match/1"}')
    page.locator("button.rp-go").click()
    expect(page.locator("#rp-error")).to_be_visible()
    expect(page.locator("#rp-error")).to_contain_text("seats")  # the game, the seats... are missing
    assert violations(page) == []
