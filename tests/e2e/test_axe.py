"""axe-core, run in a real Chromium on every screen a person meets, at desktop and phone sizes: 0 violations.

axe.min.js is vendored (tests/e2e/vendor, axe-core 4, MPL-2.0, licence in its header and in
LICENSE-axe-core); it is added to each page as an init script, which the strict CSP does not block.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from helpers.page_probes import SIZES, with_axe
from helpers.players import BLOCK_SEED, Player, Stats, play_one_move, seeded

pytestmark = pytest.mark.browser

# Each axe pass takes seconds on a slow machine: with 45-second turns the table played a turn
# itself while the screens were checked (CI, session 16), and the test then pressed a stale turn.
LONG_TURN = 600


def violations(page: Page) -> list[str]:
    """axe's violations on the page as it is now, one line each (rule, impact, the first nodes)."""
    found = page.evaluate("() => axe.run(document).then(r => r.violations.map(v => ({id: v.id, "
                          "impact: v.impact, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': '"
                          " + n.failureSummary.split('\\n').slice(1, 2).join(''))})))")
    return [f"{v['impact']} {v['id']}: {json.dumps(v['nodes'])}" for v in found]


def check(page: Page, screen: str, problems: list[str]) -> None:
    """axe at each size on the page as it is; what it finds goes into problems, named by screen and size."""
    for size in SIZES:
        page.set_viewport_size(size)
        page.wait_for_timeout(50)  # layout settles (sticky parts, media queries)
        problems += [f"{screen} at {size['width']}x{size['height']}: {v}" for v in violations(page)]
    page.set_viewport_size(SIZES[0])


def test_axe_finds_nothing_on_any_screen(open_page, make_server):
    """Home (also with errors), waiting table, a round on your turn (a both-ends tile picked) and
    waiting, round end, match end, and a spectator: no axe violation at 1280x800 or 360x640."""
    server = make_server(TURN_SECONDS=LONG_TURN, **seeded(BLOCK_SEED))
    problems: list[str] = []

    home = with_axe(open_page())
    home.goto(server.url + "/")
    check(home, "home", problems)
    home.get_by_role("button", name="Open a table").click()  # no name given: the form comes back with errors
    expect(home.locator("[aria-invalid=true]").first).to_be_focused()
    check(home, "home with errors", problems)

    ana = Player(with_axe(open_page()), "Ana")
    link = ana.create(server.url, "block", 2, 50)
    check(ana.page, "waiting table", problems)
    bea = Player(with_axe(open_page()), "Bea")
    bea.join(link)
    players = [ana, bea]
    for player in players:
        player.wait_version(2)
    watcher = with_axe(open_page())
    watcher.goto(link)
    expect(watcher.locator("#me .prompt")).to_contain_text("You are watching")

    stats = Stats()
    both_seen = False
    for _ in range(60):  # the seeded round: a tile fits both ends at least once
        seat = ana.turn()
        if seat is None:
            break
        actor, other = players[seat], players[1 - seat]
        both = actor.page.locator("#hand label.tile-btn.fits")
        if not both_seen and both.count():
            check(actor.page, "mid-round, your turn", problems)
            check(other.page, "mid-round, waiting", problems)
            check(watcher, "spectator mid-round", problems)
            both.first.click()
            check(actor.page, "your turn, a both-ends tile picked", problems)
            both_seen = True
        play_one_move(players, stats)
    assert both_seen, f"the seeded deal no longer has a tile that fits both ends: {stats}"
    expect(ana.page.locator("#table .result")).to_be_visible()
    check(ana.page, "round end (host)", problems)
    check(bea.page, "round end", problems)
    check(watcher, "spectator, round end", problems)

    # A match to 50 takes many rounds: the scores are brought within a point of it, so the next round ends it.
    table = server.app.extensions["fichas"].tables.get(ana.page.url.rsplit("/", 1)[-1])
    table.match.scores[:] = [49] * len(table.match.scores)
    ana.page.get_by_role("button", name="Start the next round now").click()
    expect(ana.page.locator("#table .result")).to_have_count(0)
    while play_one_move(players, stats) is not None:
        pass
    expect(ana.page.locator("#table[data-phase=over]")).to_have_count(1)
    check(ana.page, "match end (host)", problems)
    check(bea.page, "match end", problems)
    check(watcher, "spectator, match end", problems)

    ana.page.get_by_role("button", name="New match, same seats").click()  # the sheet lists match 1
    for page in (ana.page, bea.page, watcher):
        expect(page.locator("#sheet .earlier")).to_contain_text("Match 1, won by")
        page.locator("#sheet summary").click()
    check(bea.page, "a new match, the sheet open", problems)
    check(watcher, "spectator, a new match, the sheet open", problems)

    assert not problems, "axe found:\n" + "\n".join(problems)


def test_form_errors_are_tied_to_their_fields(open_page, live_server):
    """A refused form marks each wrong field invalid, describes it by its error, and focuses the first."""
    page = open_page(live_server.url + "/")
    page.get_by_role("button", name="Open a table").click()
    name = page.get_by_label("Your name")
    expect(name).to_be_focused()
    expect(name).to_have_attribute("aria-invalid", "true")
    error = page.locator("#" + name.get_attribute("aria-describedby"))
    expect(error).to_have_text(re.compile(r"\S"))
    expect(name).to_have_accessible_description(error.inner_text())


def speak(page: Page, lang: str) -> None:
    """The page's viewer switches to `lang` (the switch's cookie) and the page is loaded again."""
    page.context.add_cookies([{"name": "lang", "value": lang, "url": page.url}])
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", lang)


@pytest.mark.parametrize("lang", ["es", "da"])
def test_axe_finds_nothing_in_spanish_or_danish(open_page, make_server, lang):
    """The same screens in Spanish and Danish (names, labels and headings are the catalogs'): home
    (also with errors), waiting table, a round on your turn and waiting, a spectator, round end."""
    server = make_server(TURN_SECONDS=LONG_TURN, **seeded(BLOCK_SEED))
    problems: list[str] = []

    home = with_axe(open_page())
    home.goto(server.url + "/")
    speak(home, lang)
    check(home, f"{lang} home", problems)
    home.locator("form.create button[type=submit]").click()  # no name given: errors
    expect(home.locator("[aria-invalid=true]").first).to_be_focused()
    check(home, f"{lang} home with errors", problems)

    ana = Player(with_axe(open_page()), "Ana")
    link = ana.create(server.url, "block", 2, 100)
    speak(ana.page, lang)
    check(ana.page, f"{lang} waiting table", problems)
    bea = Player(with_axe(open_page()), "Bea")
    bea.join(link)
    players = [ana, bea]
    for player in players:
        player.wait_version(2)
    speak(bea.page, lang)
    watcher = with_axe(open_page())
    watcher.goto(link)
    speak(watcher, lang)
    actor = players[ana.turn()]
    check(actor.page, f"{lang} a round, your turn", problems)
    check(players[1 - actor.seat].page, f"{lang} a round, waiting", problems)
    check(watcher, f"{lang} spectator", problems)

    for player in players:  # the round is played in English (the helpers press English buttons)
        speak(player.page, "en")
        player.wait_version(2)
    stats = Stats()
    while play_one_move(players, stats) is not None:
        pass
    for page in (ana.page, bea.page, watcher):
        speak(page, lang)
        expect(page.locator("#table .result")).to_be_visible()
    check(ana.page, f"{lang} round end (host)", problems)
    check(watcher, f"{lang} spectator, round end", problems)

    assert not problems, "axe found:\n" + "\n".join(problems)
