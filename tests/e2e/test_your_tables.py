"""Issue 47 in Chromium: your tables on the home page (one tap back to each, the turn marked), a seat
handed over leaving the old holder's list, a spectator's list empty; the waiting room's QR code as a
phone's camera would read it off the screen; and Chromium's own installability check of the manifest."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import expect

from e2e.test_axe import check
from helpers.page_probes import with_axe
from helpers.players import Player, play_round
from helpers.qr import decoded_png

pytestmark = pytest.mark.browser


def home_list(page, base_url: str) -> list[tuple[str, str]]:
    """(link, "yours" or "other") of each table the home page lists, in order."""
    page.goto(base_url + "/")
    items = page.locator("#my-tables li")
    return [(items.nth(i).locator("a").get_attribute("href"), items.nth(i).get_attribute("data-turn"))
            for i in range(items.count())]


def test_a_player_finds_both_tables_again_and_loses_one_handed_over(open_page, make_server, chromium):
    server = make_server(TABLES_OPTIONS={"rng": random.Random(3)}, PAUSE_SECONDS=300, TURN_SECONDS=600)
    base = server.url
    ana, bea = Player(open_page(), "Ana"), Player(with_axe(open_page(phone=True)), "Bea", phone=True)
    block = ana.create(base, "block", 2, 100)
    bea.join(block)
    cleo = Player(open_page(), "Cleo")
    partnership = cleo.create(base, "partnership", 4, 100)
    bea.join(partnership)  # Bea sits at a second table, which waits for two more
    path = [re.sub(r"^https?://[^/]+", "", link) for link in (block, partnership)]

    # Bea closes the tab and opens Fichas again: both tables, the newest first, the turn marked.
    bea_turn = ana.turn() == 1
    assert home_list(bea.page, base) == [(path[1], "other"), (path[0], "yours" if bea_turn else "other")]
    first = bea.page.locator("#my-tables li").nth(1)
    expect(first).to_contain_text("Block")
    expect(first).to_contain_text("Ana, Bea")
    expect(first.locator(".yours-turn")).to_have_count(1 if bea_turn else 0)
    expect(bea.page.locator("#my-tables li").nth(0)).to_contain_text("Waiting for players")
    problems: list[str] = []
    check(bea.page, "home with your tables", problems)
    assert problems == []

    # One tap and she is back at her seat, her hand in it.
    bea.page.locator("#my-tables li").nth(1).locator("a").tap()
    bea.page.wait_for_url(block)
    expect(bea.page.locator("main.play")).to_have_attribute("data-you", "1")
    bea.wait_connected()
    expect(bea.page.locator("#hand [data-tile]").first).to_be_visible()

    # A spectator of the same table lists nothing.
    watcher = open_page()
    watcher.goto(block)
    expect(watcher.locator("main.play")).to_have_attribute("data-you", "")
    assert home_list(watcher, base) == []

    # The round ends, Bea's phone goes, the host hands her seat to Zoe: it leaves Bea's list.
    play_round([ana, bea])
    bea.page.goto(base + "/")  # her page at the table closed: the seat is free to hand over
    expect(ana.page.locator("article.seat[data-seat='1']")).to_have_class(re.compile(r"\boffline\b"))
    zoe = open_page()
    zoe.goto(block)
    ask = zoe.locator("#handover-ask")
    ask.locator("input[name=name]").fill("Zoe")
    ask.get_by_role("button", name="Ask for a seat").click()
    expect(ask).to_contain_text("You asked for a seat as Zoe.")
    assert home_list(zoe, base) == []  # asking is no seat
    zoe.goto(block)
    ana.page.get_by_role("button", name="Give Bea's seat to Zoe").click()
    expect(zoe.locator("main.play")).to_have_attribute("data-you", "1")
    assert home_list(bea.page, base) == [(path[1], "other")]
    assert [link for link, _ in home_list(zoe, base)] == [path[0]]


def test_the_waiting_rooms_qr_code_reads_as_the_tables_link_off_the_screen(open_page, make_server):
    """What a phone's camera sees across the room: the laptop's screen, drawn by Chromium, decoded."""
    server = make_server()
    host = open_page()
    host.set_viewport_size({"width": 1280, "height": 800})
    link = Player(host, "Ana").create(server.url, "block", 3, 100)
    code = host.locator("#table .felt-qr")
    expect(code).to_be_visible()
    box = code.bounding_box()
    assert box["height"] >= 360  # about 10 cm on a laptop's screen: read from 2 m
    assert decoded_png(host.screenshot()) == [link]  # the whole screen, not the image alone
    # Once every seat is taken, the felt is the line's: the code is in the menu alone.
    Player(open_page(), "Bea").join(link)
    Player(open_page(), "Carl").join(link)
    expect(host.locator("#table .felt-qr")).to_have_count(0)
    expect(host.locator("#menu .qr")).to_have_count(1)


def test_chromium_finds_nothing_against_installing_fichas(open_page, make_server):
    """Chromium's own installability check (what Lighthouse's reported): the manifest, its icons, the
    page's scope; no service worker asked for."""
    server = make_server()
    page = open_page(server.url + "/")
    session = page.context.new_cdp_session(page)
    errors = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # The tests' browser contexts are Chromium's incognito ones, where nothing installs: that is the browser's
    # own state, said alone; anything about the site (manifest, icons, scope, start URL) would be listed too.
    assert [error["errorId"] for error in errors] == ["in-incognito"]
    manifest = session.send("Page.getAppManifest")
    assert manifest["url"].endswith("/manifest.webmanifest") and not manifest["errors"]
