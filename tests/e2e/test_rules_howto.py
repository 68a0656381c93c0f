"""The rules page's how-to in Chromium: on a 360x640 phone it scrolls only down, its first picture is on
the first screen, its tiles are drawn with their pips; axe finds nothing; the home page leads to it by
keyboard."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from helpers.page_probes import SIZES, speak, with_axe

pytestmark = pytest.mark.browser

GAMES = ("partnership", "block", "draw")
PHONE = {"width": 360, "height": 640}
AXE = ("() => axe.run(document).then(r => r.violations.map(v => v.impact + ' ' + v.id + ': ' + "
       "v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')))")
# Each picture's tiles as drawn: a domino's size, and whether each of its halves has pips painted (p0: none).
TILES = """fig => [...fig.querySelectorAll('.domino')].map(d => { const r = d.getBoundingClientRect();
  return {w: r.width, h: r.height, halves: [...d.querySelectorAll('.h')].map(h =>
    [h.className, getComputedStyle(h).backgroundImage.split('radial-gradient').length - 1])}; })"""


@pytest.mark.parametrize("lang", ["en", "es", "da"])
def test_on_a_phone_the_how_to_fits_the_width_and_its_first_picture_is_on_the_first_screen(
        open_page, live_server, lang):
    page = with_axe(open_page(phone=True))
    page.set_viewport_size(PHONE)
    page.goto(live_server.url + "/rules")
    speak(page, live_server.url, lang)
    problems = []
    for game in GAMES:
        page.goto(f"{live_server.url}/rules?game={game}")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], (lang, game)
        assert page.evaluate("window.scrollY") == 0
        first = page.locator(".pictures figure").first
        picture = first.locator(".pic").bounding_box()
        assert picture["y"] >= 0 and picture["y"] + picture["height"] <= PHONE["height"], (lang, game)
        assert first.locator("figcaption").bounding_box()["y"] < PHONE["height"], (lang, game)  # begins
        for figure in page.locator(".pictures figure").all():
            box = figure.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (lang, game, box)
            tiles = figure.evaluate(TILES)
            assert tiles, (lang, game)
            for tile in tiles:  # big enough to count the pips, each painted as many as its half shows
                assert min(tile["w"], tile["h"]) >= 20, (lang, game, tile)
                for classes, dots in tile["halves"]:
                    assert dots == int(classes.split("p")[-1]), (lang, game, tile)
        for size in (*SIZES, PHONE):
            page.set_viewport_size(size)
            page.wait_for_timeout(50)
            problems += [f"{lang} {game} at {size['width']}: {v}" for v in page.evaluate(AXE)]
        page.set_viewport_size(PHONE)
    assert not problems, "axe found:\n" + json.dumps(problems, indent=1)


def test_the_home_page_leads_to_the_how_to_by_keyboard_and_its_links_switch_game_and_jump_to_the_rules(
        open_page, live_server):
    page = open_page(live_server.url + "/")
    link = page.get_by_role("link", name="How to play, in pictures")
    expect(link).to_be_visible()
    for _ in range(40):  # Tab, as a keyboard user does, until the link has the focus
        page.keyboard.press("Tab")
        if link.evaluate("a => a === document.activeElement"):
            break
    expect(link).to_be_focused()
    page.keyboard.press("Enter")
    expect(page).to_have_url(live_server.url + "/rules")
    expect(page.get_by_role("heading", name="How to play Partnership")).to_be_visible()

    page.get_by_role("link", name="How to play Block").click()
    expect(page).to_have_url(live_server.url + "/rules?game=block")
    expect(page.get_by_role("heading", name="How to play Block")).to_be_visible()
    expect(page.get_by_role("heading", name="A blocked round")).to_be_attached()
    expect(page.locator(".pic-blocked figcaption")).to_contain_text("9 + 12 − 4 = 17")

    page.get_by_role("link", name="Dansk").click()  # the language changes, the game stays
    expect(page).to_have_url(live_server.url + "/rules?game=block")
    expect(page.get_by_role("heading", name="Sådan spiller man Block Domino")).to_be_visible()

    page.get_by_role("link", name="Alle reglerne").click()
    expect(page.locator("#full")).to_be_in_viewport()
    assert page.evaluate("window.scrollY") > 0
