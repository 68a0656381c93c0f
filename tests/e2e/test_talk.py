"""Table talk in Chromium, as players use it: a phrase sent from a Spanish page reads in Danish on a Danish
page; a reaction shows by its sender's seat on every page; free chat follows the host's rule at a round's
start, its end and between rounds; a muted seat's words never show; a spectator's chat during a round
reaches spectators only; screen readers hear each message."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page, expect

from helpers.chromium import DESKTOP, PHONE
from helpers.pages import finish_round, live_table
from helpers.panels import close_panels, open_panel
from helpers.players import Player, seat_players

pytestmark = pytest.mark.browser


def speak(page: Page, server, lang: str) -> None:
    """The page's browser chooses `lang` (the languages' switch keeps it in a cookie); the page reloads."""
    page.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("#talk-log")).to_be_attached()


def said(page: Page, seat: str):
    """The messages of seat `seat` (s: spectators) in the page's talk log."""
    return page.locator(f'#talk-log [data-talk-seat="{seat}"]')


def boxes_overlap(a: dict, b: dict) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def test_a_phrase_reads_in_each_language_and_a_reaction_shows_by_its_seat(open_page, make_server):
    server = make_server(TABLES_OPTIONS={"rng": random.Random(4)}, TURN_SECONDS=600)
    ana, bea = Player(open_page(), "Ana"), Player(open_page(phone=True), "Bea", phone=True)
    link = seat_players(server.url, [ana, bea], "block")
    speak(ana.page, server, "es")
    speak(bea.page, server, "da")
    watcher = open_page(link)
    for page in (ana.page, bea.page, watcher):
        expect(page.locator("#table")).to_have_attribute("data-phase", "playing")

    open_panel(ana.page, "talk")
    ana.page.locator('[data-phrase="good_move"]').click()
    expect(said(ana.page, "0")).to_have_text("Ana ¡Buena jugada!")
    expect(said(ana.page, "0")).to_have_attribute("lang", "es")
    expect(said(watcher, "0")).to_have_attribute("lang", "en")
    expect(said(watcher, "0")).to_have_text("Ana Good move!")
    # The Danish page, its panel closed: the words by Ana's seat, a count on the panel's button, and
    # for a screen reader the message in the live region.
    expect(bea.page.locator("#bubble-0")).to_have_text("Flot træk!")
    expect(bea.page.locator("#talk-unread")).to_have_text("1")
    expect(bea.page.locator("#announcer")).to_contain_text("Ana Flot træk!")
    open_panel(bea.page, "talk")
    expect(said(bea.page, "0")).to_have_text("Ana Flot træk!")
    expect(said(bea.page, "0")).to_have_attribute("lang", "da")
    expect(bea.page.locator("#talk-unread")).to_be_hidden()

    bea.page.locator('[data-reaction="clap"]').click()
    for page in (ana.page, bea.page, watcher):
        close_panels(page)
        bubble = page.locator("#bubble-1")
        expect(bubble).to_have_text("👏")
        expect(bubble).to_be_visible()
        seat, shown = page.locator("#seat-1").bounding_box(), bubble.bounding_box()
        assert shown["y"] >= seat["y"] - 1 and shown["y"] + shown["height"] <= seat["y"] + seat["height"] + 1
        for part in ("#line", "#hand"):
            if page.locator(part).count():
                assert not boxes_overlap(shown, page.locator(part).bounding_box()), part
    expect(watcher.locator("#bubble-1")).to_be_hidden(timeout=6000)  # gone after a moment
    # A spectator has no reactions to send.
    open_panel(watcher, "talk")
    expect(watcher.locator("#talk .reactions")).to_be_hidden()


def test_chat_follows_each_of_the_hosts_three_rules(open_page, make_server):
    server = make_server(TABLES_OPTIONS={"rng": random.Random(6)}, TURN_SECONDS=600, PAUSE_SECONDS=600)
    for rule, during, between in (("always", True, True), ("rounds", False, True), ("off", False, False)):
        ana, bea = Player(open_page(**{}), "Ana"), Player(open_page(phone=True), "Bea", phone=True)
        link = seat_players(server.url, [ana, bea], "draw", chat=rule)
        for moment, allowed in (("start", during), ("end", between), ("next", during)):
            if moment == "end":
                finish_round(server.app, live_table(server.app, link))
                expect(bea.page.locator("#table")).to_have_attribute("data-phase", "pause")
            if moment == "next":
                ana.page.locator('#me [data-action="next_round"]').click()
                expect(bea.page.locator("#table")).to_have_attribute("data-phase", "playing")
            open_panel(bea.page, "talk")
            form = bea.page.locator("#talk .chat-form")
            if not allowed:
                expect(form).to_be_hidden()
                expect(bea.page.locator("#talk-rule")).to_be_visible()
                close_panels(bea.page)
                continue
            text = f"{rule} at the {moment}"
            form.locator("input[name=talk]").fill(text)
            form.locator("input[name=talk]").press("Enter")
            expect(form.locator("input[name=talk]")).to_have_value("")
            close_panels(bea.page)
            expect(ana.page.locator("#bubble-1")).to_have_text(text)
            expect(said(ana.page, "1").last).to_have_text(f"Bea {text}")


def test_the_host_changes_the_rule_between_rounds(open_page, make_server):
    server = make_server(TABLES_OPTIONS={"rng": random.Random(2)}, TURN_SECONDS=600, PAUSE_SECONDS=600)
    ana, bea = Player(open_page(), "Ana"), Player(open_page(phone=True), "Bea", phone=True)
    link = seat_players(server.url, [ana, bea], "block")
    open_panel(ana.page, "talk")
    expect(ana.page.locator("#talk .chat-rule-form")).to_be_hidden()  # not during a round
    close_panels(ana.page)
    finish_round(server.app, live_table(server.app, link))
    expect(ana.page.locator("#table")).to_have_attribute("data-phase", "pause")
    open_panel(ana.page, "talk")
    ana.page.locator("#chat-rule").select_option("off")
    ana.page.locator("#talk .chat-rule-form button").click()
    open_panel(bea.page, "talk")
    expect(bea.page.locator("#talk-rule")).to_have_attribute("data-chat", "off")
    expect(bea.page.locator("#talk .chat-form")).to_be_hidden()
    expect(bea.page.locator("#talk .chat-rule-form")).to_be_hidden()  # the host's alone
    expect(said(bea.page, "0").last).to_contain_text("Chat is off")


def test_a_muted_seats_words_do_not_appear_and_come_back_unmuted(open_page, make_server):
    server = make_server(TABLES_OPTIONS={"rng": random.Random(3)}, TURN_SECONDS=600)
    players = [Player(open_page(), name) for name in ("Ana", "Bea", "Carl")]
    seat_players(server.url, players, "block", chat="always")
    ana, bea, carl = (player.page for player in players)
    open_panel(ana, "talk")
    ana.locator("#talk-settings summary").click()
    ana.locator('#talk-settings input[data-mute="1"]').check()
    close_panels(ana)
    open_panel(bea, "talk")
    bea.locator('[data-phrase="hurry"]').click()
    open_panel(carl, "talk")
    carl.locator('[data-phrase="thanks"]').click()
    expect(ana.locator("#bubble-2")).to_be_visible()  # Carl's words come
    expect(ana.locator("#talk-unread")).to_have_text("1")  # Carl's only
    expect(ana.locator("#announcer")).to_contain_text("Carl Thank you!")
    expect(ana.locator("#announcer")).not_to_contain_text("Hurry up")
    expect(ana.locator("#bubble-1")).to_be_hidden()
    open_panel(ana, "talk")
    expect(said(ana, "2")).to_be_visible()
    expect(said(ana, "1")).to_have_count(1)
    expect(said(ana, "1")).to_be_hidden()
    ana.reload()  # the choice is the browser's: it stays
    open_panel(ana, "talk")
    expect(ana.locator('#talk-settings input[data-mute="1"]')).to_be_checked()
    expect(said(ana, "1")).to_be_hidden()
    ana.locator("#talk-settings summary").click()
    ana.locator('#talk-settings input[data-mute="1"]').uncheck()
    expect(said(ana, "1")).to_have_text("Bea Hurry up, please!")
    # Talk off altogether: nothing of it shows, phrases of anyone.
    ana.locator('#talk-settings input[data-mute="off"]').check()
    bea.locator('[data-phrase="wow"]').click()
    expect(said(ana, "1")).to_have_count(2)
    expect(said(ana, "1").last).to_be_hidden()
    expect(said(ana, "2")).to_be_hidden()


def test_a_spectators_chat_during_a_round_reaches_spectators_only(open_page, make_server):
    server = make_server(TABLES_OPTIONS={"rng": random.Random(5)}, TURN_SECONDS=600, PAUSE_SECONDS=600)
    ana, bea = Player(open_page(), "Ana"), Player(open_page(), "Bea")
    link = seat_players(server.url, [ana, bea], "block", chat="always")
    first, second = open_page(link, phone=True), open_page(link)
    for page in (first, second):
        expect(page.locator("#table")).to_have_attribute("data-phase", "playing")
    open_panel(first, "talk")
    expect(first.locator("#talk .to-spectators-only")).to_be_visible()
    first.locator("#talk-text").fill("Bea should hold her sixes")
    first.locator("#talk .chat-form button").click()
    open_panel(second, "talk")
    expect(said(second, "s")).to_contain_text("Bea should hold her sixes")
    second.locator("#talk-text").fill("agreed")
    second.locator("#talk-text").press("Enter")
    expect(said(first, "s").last).to_contain_text("agreed")
    for player in (ana, bea):
        open_panel(player.page, "talk")
        expect(player.page.locator("#talk .talk-empty")).to_be_visible()
        expect(said(player.page, "s")).to_have_count(0)
    # Between rounds, a spectator's words reach everyone.
    finish_round(server.app, live_table(server.app, link))
    expect(first.locator("#table")).to_have_attribute("data-phase", "pause")
    first.locator("#talk-text").fill("well played")
    first.locator("#talk-text").press("Enter")
    for player in (ana, bea):
        expect(said(player.page, "s")).to_have_text("A spectator well played")


@pytest.mark.parametrize("size", [PHONE, DESKTOP])
def test_the_talk_panel_works_by_keyboard(open_page, make_server, size):
    server = make_server(TURN_SECONDS=600)
    ana, bea = Player(open_page(), "Ana"), Player(open_page(), "Bea")
    seat_players(server.url, [ana, bea], "block", chat="always")
    page = ana.page
    page.set_viewport_size(size["viewport"])
    page.locator("#talk > summary").focus()
    page.keyboard.press("Enter")
    expect(page.locator("details#talk")).to_have_attribute("open", "")
    page.locator('[data-phrase="hello"]').focus()
    page.keyboard.press("Enter")
    expect(said(bea.page, "0")).to_have_text("Ana Hello, everyone!")
    page.locator("#talk-text").focus()
    page.keyboard.type("typed, not a shortcut: p d n 1")
    page.keyboard.press("Enter")
    expect(said(bea.page, "0").last).to_have_text("Ana typed, not a shortcut: p d n 1")
    page.keyboard.press("Escape")
    expect(page.locator("details#talk")).not_to_have_attribute("open", "")
    expect(page.locator("#talk > summary")).to_be_focused()


def test_what_is_being_typed_outlives_a_whole_table_pushed(open_page, make_server):
    server = make_server()
    ana, bea = Player(open_page(), "Ana"), Player(open_page(), "Bea")
    link = ana.create(server.url, "block", 2, chat="always")
    open_panel(ana.page, "talk")
    ana.page.locator("#talk-text").fill("welcome, Bea")
    bea.join(link)  # the seat taken: every page gets the whole #table, its talk panel afresh
    expect(ana.page.locator("#table")).to_have_attribute("data-phase", "playing")
    expect(ana.page.locator("#talk-text")).to_have_value("welcome, Bea")
    ana.page.locator("#talk-text").press("Enter")
    expect(said(bea.page, "0")).to_have_text("Ana welcome, Bea")
