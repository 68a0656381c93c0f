"""Issue 42's "one screen, like a game": a player who moves in any language, and what is measured.

tests/e2e/test_one_screen.py plays a match and, at each moment, resizes the pages through
VIEWPORTS and measures each with one_screen.js's probes (what is wrong, in words), runs axe,
opens each panel, and walks the page with Tab.
"""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Page, expect

from helpers.players import Player, wait_first_push

# Width, height: phones upright and sideways, a tablet, a laptop and a desktop.
VIEWPORTS = ((360, 640), (390, 844), (640, 360), (844, 390), (768, 1024), (1280, 800), (1920, 1080))
PHONE, DESKTOP = (360, 640), (1280, 800)  # where axe runs and the panels open (tests/e2e/test_axe.py's sizes)
LONG_LINE = 20  # tiles: from here on a line tile keeps MIN_LINE_TILE
MIN_LINE_TILE = {PHONE: 40, DESKTOP: 72}  # a line tile's long side at the least, CSS px
TAP_REACH = 21  # px from an open end's centre, each way, that still hit it: a 44x44 px target
TOP_SLACK = 2  # px the hand's tiles' tops may differ by and still be one row
EDGE = 1  # px two boxes may share (sub-pixel layout) without overlapping
TABS = 60  # Tab presses in a walk of the page


class AnyLanguage(Player):
    """A Player whose page may be in any language: Player.move goes by what the page marks (classes,
    data-action), not by its words, so a seeded deal plays out the same. `picked` (Player's), if set,
    runs once a tile that fits both ends is picked and the end is still to choose."""

    lang: str = "en"


def reload_in(player: AnyLanguage, lang: str) -> None:
    """The player's browser now reads `lang` (the switch's cookie, English too: page_probes.speak
    leaves English alone), and the page is loaded again, as a browser sends it: not between moves
    of the player's own turn (a reload then is a disconnection, which cuts the turn: S4)."""
    page = player.page
    version = player.version()
    page.context.add_cookies([{"name": "lang", "value": lang, "url": page.url}])
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", lang)
    player.wait_connected()
    player.wait_version(version)
    if page.locator("#table[data-phase=playing]").count():
        wait_first_push(page)
    player.lang = lang


def settle(page: Page) -> None:
    """Animations finished, the page scrolled to its top and two frames drawn: a resize's layout,
    and any script's answer to it, done."""
    page.evaluate("""() => new Promise(done => {
        document.getAnimations().forEach(a => a.finish());
        window.scrollTo(0, 0);
        requestAnimationFrame(() => requestAnimationFrame(() => {
            document.getAnimations().forEach(a => a.finish()); done(); })); })""")


def resize(page: Page, size: tuple[int, int]) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    settle(page)


PROBES = (Path(__file__).with_name("one_screen.js")).read_text()


def probe(page: Page, name: str, arg=None):
    """One of one_screen.js's probes, run on the page as it is."""
    return page.evaluate(f"([name, arg]) => (\n{PROBES}\n)[name](arg)", [name, arg])


def layout_problems(page: Page, ends: bool = False, min_tile: int = 0) -> list[str]:
    """What is wrong with the page as it is, at its viewport (one_screen.js layout): `ends`, a tile that
    fits both ends is picked; `min_tile`, a line tile's least long side, or 0."""
    return probe(page, "layout", {"edge": EDGE, "slack": TOP_SLACK, "reach": TAP_REACH, "ends": ends,
                                  "minTile": min_tile})


def table_boxes(page: Page) -> dict[str, list[float]]:
    """The seats' and the line's boxes: a panel opens over the table, never pushing it."""
    return probe(page, "boxes")


def moved(before: dict, after: dict) -> list[str]:
    """The parts of the table whose box changed, with both boxes (x, y, width, height)."""
    return [f"{part} {before.get(part)} -> {after.get(part)}" for part in sorted(before.keys() | after.keys())
            if before.get(part) != after.get(part)]


def panel_name(page: Page, index: int) -> str:
    return probe(page, "panel", index)


def axe_in(page: Page, selector: str, index: int) -> list[str]:
    """axe's violations inside one element (a panel open), written as e2e.test_axe.violations writes them."""
    found = page.evaluate("""([sel, i]) => axe.run(document.querySelectorAll(sel)[i]).then(
        r => r.violations.map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map(
            n => n.target.join(' ') + ': ' + n.failureSummary.split('\\n').slice(1, 2).join(''))})))""",
                          [selector, index])
    return [f"{v['impact']} {v['id']}: {json.dumps(v['nodes'])}" for v in found]


def walk_with_tab(page: Page, presses: int = TABS) -> list[str]:
    """Tab through the page from its top: each place the focus lands that is wrong, once each."""
    page.evaluate("() => { document.activeElement?.blur(); window.scrollTo(0, 0); }")
    wrong: list[str] = []
    for _ in range(presses):
        page.keyboard.press("Tab")
        found = probe(page, "focus")
        if found and found not in wrong:
            wrong.append(found)
    page.evaluate("() => document.activeElement?.blur()")
    return wrong
