"""Languages in a real browser: the switch, remembered; and it keeps a private seat link."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from helpers.pages import live_table
from helpers.panels import open_panel
from helpers.players import Player, private_link, two_at_block

pytestmark = pytest.mark.browser


def test_switching_language_keeps_the_private_seat_link(open_page, make_server):
    _, players, table_url = two_at_block(open_page, make_server)
    link = private_link(players[1])
    phone = open_page(link, phone=True)  # a new phone; Chromium asks for English
    expect(phone.locator("html")).to_have_attribute("lang", "en")
    phone.locator(".langs a[hreflang=es]").tap()
    expect(phone.locator("html")).to_have_attribute("lang", "es")
    expect(phone.get_by_role("button", name="Recuperar mi sitio")).to_be_visible()
    # Again: seat.js (deferred, maybe still loading once the button shows) takes it out of the address.
    expect(phone).to_have_url(re.compile(r"^[^#]*$"))
    expect(phone.locator("#seat-secret")).to_have_value(link.split("#")[1])
    phone.get_by_role("button", name="Recuperar mi sitio").tap()
    phone.wait_for_url(table_url)
    expect(phone.locator("main.play")).to_have_attribute("data-you", "1")
    expect(phone.locator("#hand")).to_have_attribute("aria-label", "Tu mano")  # remembered: a cookie


def test_the_switch_is_reachable_by_keyboard_with_visible_focus(open_page, make_server):
    server = make_server()
    page = open_page(server.url + "/")
    for _ in range(10):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.getAttribute('hreflang')") == "da":
            break
    else:
        raise AssertionError("the Danish link was never focused")
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline not in ("none", "")
    page.keyboard.press("Enter")
    expect(page.locator("html")).to_have_attribute("lang", "da")
    expect(page.get_by_role("heading", level=1)).to_have_text("Spil domino med dine venner")


def test_switching_language_on_ones_own_turn_keeps_the_socket_and_the_whole_turn(open_page, make_server):
    """The switch reloaded the page: a disconnection, which on one's own turn cut it to 5 s (S4; found by
    two play-tests). On a table page it now happens in place, over the same socket."""
    server, players, table_url = two_at_block(open_page, make_server)
    table = live_table(server.app, table_url)
    mover = players[table.turn]
    other = players[1 - table.turn]
    page = mover.page
    deadline = table.clock.deadline
    opened = []
    page.on("websocket", lambda socket: opened.append(socket.url))
    open_panel(page)  # the languages are in the table's menu
    page.locator(".langs a[hreflang=da]").click()
    expect(page.locator("html")).to_have_attribute("lang", "da")
    expect(page.locator("#prompt")).to_contain_text("Din tur")
    expect(page.locator(".langs a[hreflang=da]")).to_be_focused()
    expect(page.locator(".langs a[hreflang=da]")).to_have_attribute("aria-current", "true")
    expect(page.locator("#sound")).to_have_text("Lyd fra")
    assert page.title() == "● Din tur — Fichas"
    assert not page.locator("#prompt .cut-short").count()
    assert table.clock.deadline == deadline and not table.clock.cut_short() and opened == []
    # Switched again before anything moved (a wrong language tapped first): the clocks and the unseen
    # counts, which only the socket fills in, are there still; so is the open list of shortcuts.
    page.locator("#shortcuts summary").click()
    for lang, turn in (("es", "Te toca"), ("da", "Din tur")):
        page.locator(f".langs a[hreflang={lang}]").click()
        expect(page.locator("#prompt")).to_contain_text(turn)
        expect(page.locator("#prompt .clock")).to_have_text(re.compile(r"^\d+$"))
        expect(page.locator("#unseen dd")).to_have_count(7)
        expect(page.locator("#shortcuts")).to_have_attribute("open", "")
    assert opened == [] and not table.clock.cut_short()
    # It plays on: its move is answered over the same socket, in Danish, and the other page is still English.
    page.locator("#me .tile-btn.fits").first.click()
    expect(page.locator("#prompt")).to_contain_text("Venter på din tur.")
    expect(other.page.locator("#prompt")).to_contain_text("Your turn")
    assert opened == [] and table.connected(mover.seat)
    page.reload()  # remembered (the link set its cookie)
    expect(page.locator("html")).to_have_attribute("lang", "da")
    expect(page.locator("#hand")).to_have_attribute("aria-label", "Dine brikker")


def test_a_name_typed_before_switching_language_is_kept(open_page, make_server):
    """The switch replaced the join form with the fetched page's, empty: the name typed was lost."""
    server = make_server()
    link = Player(open_page(), "Ana").create(server.url, "block", 2, 100)
    friend = open_page()
    friend.goto(link)
    friend.locator("#me form.join input[name=name]").fill("Bea")
    open_panel(friend)
    friend.locator(".langs a[hreflang=es]").click()
    expect(friend.locator("html")).to_have_attribute("lang", "es")
    expect(friend.locator("#me form.join button")).to_contain_text("Sentarse")
    expect(friend.locator("#me form.join input[name=name]")).to_have_value("Bea")
    friend.locator("#me form.join button").click()
    expect(friend.locator("main.play")).to_have_attribute("data-you", "1")
    expect(friend.locator("#table")).to_contain_text("Bea")


def test_the_create_form_s_choices_outlive_a_language_switch(open_page, make_server):
    """Switching language loads the home page anew: the name typed and the game chosen were lost."""
    server = make_server()
    page = open_page(server.url + "/")
    page.locator("form.create input[name=name]").fill("Ana")
    page.locator("form.create input[name=variant][value=draw]").check()
    page.locator("form.create select[name=seats]").select_option("3")
    page.locator("form.create select[name=target]").select_option("50")
    page.locator(".langs a[hreflang=da]").click()
    expect(page.locator("html")).to_have_attribute("lang", "da")
    expect(page.locator("form.create input[name=name]")).to_have_value("Ana")
    expect(page.locator("form.create input[name=variant][value=draw]")).to_be_checked()
    expect(page.locator("form.create select[name=seats]")).to_have_value("3")
    expect(page.locator("form.create select[name=target]")).to_have_value("50")
    page.locator("form.create button[type=submit]").click()
    expect(page.locator("main.play")).to_have_attribute("data-you", "0")
    expect(page.locator("#table")).to_contain_text("Ana")
    page.goto(server.url + "/")  # kept once, for that switch only
    expect(page.locator("form.create input[name=name]")).not_to_have_value("Ana")
