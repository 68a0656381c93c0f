"""Getting a seat back in a real browser (issue 10, item 8), and the score sheet on a phone (item 5)."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import expect

from helpers.chromium import TIMEOUT_MS, close_within
from helpers.page_probes import LATE_REPORT_SECONDS, SIZES, watched, with_axe
from helpers.players import (
    Player,
    Stats,
    play_one_move,
    play_round,
    private_link,
    pump_until,
    seat_players,
    two_at_block,
)

pytestmark = pytest.mark.browser

NAMES = ("Ana", "Bea")
ME_VIOLATIONS = ("() => axe.run('#me')"  # a viewer's own part: its rules broken, and where
                 ".then(r => r.violations.map(v => v.id + ': ' + v.nodes.map(n => n.target)))")
BLOCK_SEED = 1


def test_a_new_browser_with_the_private_link_takes_the_seat_back(open_page, make_server):
    _, players, table_url = two_at_block(open_page, make_server)
    bea = players[1]
    hand = bea.hand()
    link = private_link(bea)
    assert re.fullmatch(re.escape(table_url) + r"/seat#[\w-]{43}", link)
    assert link.split("#")[1] not in players[0].page.content()  # never on another's page
    play_one_move(players, Stats())  # a push: the link stays shown (and the same)
    expect(bea.page.locator("#seat-link-input")).to_have_value(link)

    phone = open_page(link, phone=True)  # a new phone: no cookies
    expect(phone.get_by_role("button", name="Take my seat back")).to_be_visible()
    assert "#" not in phone.url  # the secret left the address bar at once
    phone.get_by_role("button", name="Take my seat back").tap()
    phone.wait_for_url(table_url)
    expect(phone.locator("main.play")).to_have_attribute("data-you", "1")
    again = Player(phone, "Bea", seat=1, phone=True)
    again.wait_connected()
    assert sorted(again.hand()) == sorted(set(hand) - set(players[0].line()))
    # The old browser lost the seat: its page is cut off, reconnects, and reloads as a spectator.
    expect(bea.page.locator("main.play")).to_have_attribute("data-you", "", timeout=TIMEOUT_MS)
    expect(bea.page.locator("#hand")).to_have_count(0)
    expect(bea.page.locator("#me .prompt")).to_contain_text("You are watching")
    told = "Your seat was opened in another browser with its private link: this one can only watch now."
    expect(bea.page.locator("#flash")).to_have_text(told)
    # And the new browser plays on.
    play_one_move([players[0], again], Stats())
    # The old page is still told why when a later push swaps its #me whole (the seat's new browser
    # gone: the seat may be asked for), with an empty #flash: a play-test saw the message lost so.
    phone.close()
    expect(bea.page.locator("#handover-ask")).to_be_visible()
    expect(bea.page.locator("#flash")).to_have_text(told)


def test_a_forged_link_or_another_seats_link_takes_nothing(open_page, make_server):
    _, players, table_url = two_at_block(open_page, make_server)
    link = private_link(players[1])
    stranger = open_page(table_url + "/seat#" + "A" * 43)
    stranger.get_by_role("button", name="Take my seat back").click()
    expect(stranger.locator(".flash-error")).to_contain_text("does not open a seat")
    stranger.goto(table_url)
    expect(stranger.locator("main.play")).to_have_attribute("data-you", "")
    # The host's browser, given Bea's link, keeps its own seat and gets none of hers.
    host = players[0].page
    host.goto(link)
    host.get_by_role("button", name="Take my seat back").click()
    expect(host.locator(".flash-error")).to_contain_text("already has another seat")
    host.goto(table_url)
    expect(host.locator("main.play")).to_have_attribute("data-you", "0")
    expect(players[1].page.locator("main.play")).to_have_attribute("data-you", "1")
    expect(players[1].page.locator("#hand [data-tile]")).to_have_count(7)


def test_the_host_hands_a_disconnected_seat_to_a_newcomer(open_page, make_server, chromium):
    _, players, table_url = two_at_block(open_page, make_server)
    play_round(players)
    host, bea = players
    expect(host.page.locator("#table .result")).to_be_visible()
    bea.page.close()  # Bea's phone died
    expect(host.page.locator("article.seat[data-seat='1']")).to_have_class(re.compile(r"\boffline\b"))

    # A newcomer on a 360 px phone watches, sees a seat is free, and asks for it.
    context = chromium.new_context(viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        zoe = context.new_page()
        zoe.goto(table_url)
        ask = zoe.locator("#handover-ask")
        expect(ask).to_contain_text("Bea is away")
        ask.locator("input[name=name]").fill("Zoe")
        ask.get_by_role("button", name="Ask for a seat").tap()
        expect(zoe.locator("#handover-ask")).to_contain_text("You asked for a seat as Zoe.")  # her own
        expect(zoe.locator("main.play")).to_have_attribute("data-you", "")

        # The score sheet: reachable on the phone, readable without scrolling sideways, and it
        # stays open while the table changes.
        zoe.locator("#sheet summary").tap()
        expect(zoe.locator("#sheet tbody tr")).to_have_count(1)
        assert zoe.evaluate("document.documentElement.scrollWidth") <= 360

        give = host.page.get_by_role("button", name="Give Bea's seat to Zoe")
        expect(give).to_be_visible()
        give.click()
        expect(zoe.locator("main.play")).to_have_attribute("data-you", "1")
        expect(zoe.locator("article.seat[data-seat='1'] h3")).to_contain_text("Zoe")
        expect(host.page.locator("article.seat[data-seat='1'] h3")).to_contain_text("Zoe")
        expect(host.page.locator("article.seat[data-seat='1']")).not_to_have_class(re.compile(r"\boffline\b"))
        # Said as well as shown: Zoe's page, reloaded as Bea's seat, says what she now has; the
        # host's felt says who has the seat now, once.
        expect(zoe.locator("#announcer")).to_contain_text("You have the seat Bea had, and its score.")
        said = host.page.locator("#announcer p", has_text="Zoe now has the seat Bea had.")
        expect(said).to_have_count(1)
        expect(zoe.locator("#sheet")).to_have_attribute("open", "")  # kept across the reload too
        expect(zoe.locator("#table .reveal")).to_have_count(2)

        # The next round: Zoe plays Bea's seat, and the sheet stays open through the pushes.
        host.page.get_by_role("button", name="Start the next round now").click()
        expect(zoe.locator("#hand [data-tile]")).to_have_count(7)
        newcomer = Player(zoe, "Zoe", seat=1, phone=True)
        play_one_move([host, newcomer], Stats())
        expect(zoe.locator("#sheet")).to_have_attribute("open", "")
        assert zoe.evaluate("document.documentElement.scrollWidth") <= 360

        # Bea's phone back: the link opens the table to watch, and tells her why, for good (the
        # socket's first whole table, sent once it connects, wiped it: play-test).
        back = bea.page.context.new_page()
        back.goto(table_url)
        told = "While you were away, the host gave your seat to Zoe. You can watch from here."
        expect(back.locator("#flash")).to_contain_text(told)
        expect(back.locator("main.play")).to_have_attribute("data-you", "")
        play_one_move([host, newcomer], Stats())  # a move later (its tile comes by the socket, after the
        expect(back.locator("#line [data-tile]")).to_have_count(len(host.line()))  # first whole table)
        expect(back.locator("#flash")).to_contain_text(told)
        expect(back.locator("#alerts")).to_contain_text(told)  # said too
    finally:
        close_within(context)


def test_the_sheet_the_link_and_the_seat_page_break_no_policy(open_page, make_server):
    server = make_server(TABLES_OPTIONS={"rng": random.Random(BLOCK_SEED)})
    problems: list[str] = []
    players = [Player(watched(open_page, problems), "Ana"),
               Player(watched(open_page, problems, phone=True), "Bea", phone=True)]
    seat_players(server.url, players, "block")
    for player in players:
        player.wait_version(2)
    players[0].page.locator("#sheet summary").click()
    expect(players[0].page.locator("#sheet .sheet-table")).to_be_visible()
    link = private_link(players[1])
    landing = watched(open_page, problems, phone=True)
    landing.goto(link)
    landing.get_by_role("button", name="Take my seat back").tap()
    expect(landing.locator("#hand [data-tile]")).to_have_count(7)
    for page in (players[0].page, landing):
        assert page.evaluate("window.__violations") == []
        assert page.evaluate("document.querySelectorAll('style, [style]').length") == 0
    pump_until(landing, lambda: bool(problems), LATE_REPORT_SECONDS)  # a report still on its way
    assert problems == []


def test_the_host_turns_a_request_down_by_keyboard_and_both_are_told(open_page, make_server):
    """Issue 48: a request for a seat the host does not want (a stranger, a joke name) is turned down
    with the keyboard; it goes from every page, the host hears who waits, the asker that it went."""
    _, players, table_url = two_at_block(open_page, make_server)
    play_round(players)
    host, bea = players
    expect(host.page.locator("#table .result")).to_be_visible()
    bea.page.close()
    expect(host.page.locator("article.seat[data-seat='1']")).to_have_class(re.compile(r"\boffline\b"))
    junk = open_page(table_url)
    junk.locator("#handover-ask input[name=name]").fill("Junk")
    junk.get_by_role("button", name="Ask for a seat").click()
    expect(junk.locator("#handover-ask")).to_contain_text("You asked for a seat as Junk.")
    expect(host.page.locator("#announcer")).to_contain_text("Away now: Bea. Waiting for a seat: Junk.")
    turn_down = host.page.get_by_role("button", name="Turn down Junk's request")
    expect(turn_down).to_be_visible()
    # Both players' own part passes axe, at desktop and phone sizes (#me: the whole page is test_axe's).
    for page in (host.page, junk):
        with_axe(page).reload()  # (loaded into pages opened from now on: the page's CSP allows no other way)
        expect(page.locator("#handover-host, #handover-ask")).to_contain_text("Junk")
        for size in SIZES:
            page.set_viewport_size(size)
            assert page.evaluate(ME_VIOLATIONS) == [], size
    for _ in range(80):  # Tab reaches it like every control of the page
        host.page.keyboard.press("Tab")
        if turn_down.evaluate("button => button === document.activeElement"):
            break
    else:
        raise AssertionError("Tab never reached the button")
    host.page.keyboard.press("Enter")
    expect(turn_down).to_have_count(0)
    expect(junk.locator("#handover-ask")).not_to_contain_text("You asked for a seat")
    expect(junk.locator("#announcer")).to_contain_text("Your request for a seat is no longer listed.")
    expect(junk.locator("#flash")).to_contain_text("Your request for a seat is no longer listed.")  # seen too
    expect(host.page.locator("#me")).not_to_contain_text("Junk")
