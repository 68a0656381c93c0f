"""Fichas on a small phone, in every language, measured on the real page in Chromium.

Every control is big enough for a finger (at least TAP_PX tall; the line's ends have a tap area
larger than what is drawn), none covers another, the header's link shows enough of itself to be
recognised, a name is shown whole beside its badges, and the hand's panel hides the felt only
when it must. Spanish has the longest words ("Copiar enlace", "Sonido desactivado", "anfitrión").
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from helpers.chromium import TIMEOUT_MS, close_within
from helpers.page_probes import speak
from helpers.panels import open_panel
from helpers.players import BLOCK_SEED, ENDS_IN_SIGHT, Player, Stats, play_one_move, seat_players, seeded

pytestmark = pytest.mark.browser

PHONES = {"360x640": (360, 640), "390x844": (390, 844)}  # width, height
TAP_PX = 40  # a finger's tap target, at the least (Material asks 48 dp, Apple 44 pt)
LINK_PX = 112  # the link field: some fourteen characters, the start of the address (the site)
HEADER = "#share-link, .share-waiting .copy, #menu > summary"  # while seats are free
MENU = "#menu-share-link, #menu .copy, #sound, #menu .langs a"  # the table's menu, open
BOXES = """sel => [...document.querySelectorAll(sel)].map(e => { const r = e.getBoundingClientRect();
  return {name: e.id || e.className || e.textContent, x: r.x, y: r.y, w: r.width, h: r.height}; })"""


def overlap(a: dict, b: dict) -> bool:
    """Whether two boxes share more than a pixel's edge."""
    return (min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"]) > 1
            and min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"]) > 1)


@pytest.fixture
def phones(chromium, make_server):
    """Make Players on phones of one size (width, height), each in a browser context of its own;
    the contexts close before the server stops."""
    made = []

    def make(width: int, height: int, names: tuple[str, ...]) -> list[Player]:
        players = []
        for name in names:
            context = chromium.new_context(viewport={"width": width, "height": height}, is_mobile=True,
                                           has_touch=True)
            context.set_default_timeout(TIMEOUT_MS)
            made.append(context)
            players.append(Player(context.new_page(), name, phone=True))
        return players
    yield make
    for context in made:
        close_within(context)


@pytest.mark.parametrize("lang", ["en", "es", "da"])
@pytest.mark.parametrize("size", list(PHONES))
def test_a_hosts_header_on_a_phone_covers_nothing_and_every_control_can_be_tapped(phones, make_server,
                                                                                  size, lang):
    """A host waiting for friends has one thing to do: copy the link. At 360 px the Sound button
    covered the Copy button ("Co…" in Spanish) and the link was 10 px wide."""
    server = make_server()
    [host] = phones(*PHONES[size], ("Ana",))
    link = host.create(server.url, "block", 2, 100)
    speak(host.page, link, lang)
    page = host.page
    width = PHONES[size][0]
    for controls, count in ((HEADER, 3), (MENU, 6)):  # the link, Copy, Menu; then what the menu holds
        if controls == MENU:
            open_panel(page)
        boxes = page.evaluate(BOXES, controls)
        assert len(boxes) == count, boxes
        for b in boxes:
            assert b["x"] >= 0 and b["x"] + b["w"] <= width, ("off the screen", b)
            assert b["h"] >= TAP_PX, ("too small to tap", b)
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                assert not overlap(a, b), ("one over another", a, b)
        assert boxes[0]["w"] >= LINK_PX, ("the link is too narrow to read", boxes[0])
    for copy in (page.locator(".share-waiting .copy"), page.locator("#menu .copy")):  # words fit, none cut
        assert copy.evaluate("e => e.scrollWidth <= e.clientWidth"), copy.inner_text()


def test_a_phone_held_sideways_shows_the_table_and_the_hand_on_one_screen(phones, make_server):
    """640x360: the hand panel, pinned over the page, hid three quarters of the screen (issue 42: one
    screen). Now nothing scrolls, and the panel and the felt share the screen without covering each other."""
    server = make_server()
    players = phones(640, 360, ("Ana", "Bea"))
    link = players[0].create(server.url, "block", 2, 100)
    players[1].join(link)
    for player in players:
        player.wait_version(2)
        page = player.page
        assert page.evaluate("document.scrollingElement.scrollHeight") <= 360
        me, felt = (page.evaluate(BOXES, sel)[0] for sel in ("#me", "#table .felt"))
        assert me["y"] >= 0 and me["y"] + me["h"] <= 360, me
        assert not overlap(me, felt), (me, felt)


# Each seat's name, and whether it is cut (an ellipsis) or a badge of it breaks inside a word.
NAMES_SHOWN = """() => [...document.querySelectorAll("article.seat h3")].map(h => {
  const name = h.querySelector(".name"), badges = [...h.querySelectorAll(".host, .you-badge")]
    .filter(b => getComputedStyle(b).display !== "none");
  const lines = b => b.getBoundingClientRect().height / parseFloat(getComputedStyle(b).fontSize);
  const boxes = [name, ...badges].map(b => b.getBoundingClientRect());
  return {name: name.textContent, cut: name.scrollWidth > name.clientWidth,
          broken: badges.some(b => b.getClientRects().length > 1 || lines(b) > 1.6),
          glued: boxes.slice(1).some((b, i) => Math.abs(b.top - boxes[i].top) < 4
                                               && b.left - boxes[i].right < 2)};
})"""


@pytest.mark.parametrize("lang", ["es", "da"])
def test_a_short_name_is_shown_whole_beside_its_badges_on_a_phone(phones, make_server, lang):
    """390x844, four seats: "Ana, anfitrión" in the narrow top row showed "A…" beside a badge broken
    in two ("anfitrió / n"). A short name is shown whole; a badge that does not fit goes below it."""
    server = make_server()
    players = phones(390, 844, ("Ana", "Bea", "Carl", "Dan"))
    link = players[0].create(server.url, "partnership", 4, 100)
    for player in players[1:]:
        player.join(link)
    for player in players:
        player.wait_version(4)
        speak(player.page, link, lang)
        player.wait_version(4)
        shown = player.page.evaluate(NAMES_SHOWN)
        assert len(shown) == 4, shown
        assert not any(seat["cut"] or seat["broken"] or seat["glued"] for seat in shown), (player.name, shown)



def test_long_names_that_begin_alike_are_shown_whole_on_a_phone(phones, make_server):
    """360x640, four seats: "Maximilian Alexander-Ros" and "Maximilian Alexander-Roy" both read
    "Maxim…" in the narrow top row, and no one could tell them apart. A long name wraps, never cut."""
    server = make_server()
    names = ("Maximilian Alexander-Ros", "Bea", "Maximilian Alexander-Roy", "Dan")
    players = phones(*PHONES["360x640"], names)
    link = players[0].create(server.url, "partnership", 4, 100)
    for player in players[1:]:
        player.join(link)
    for player in players:
        player.wait_version(4)
        shown = player.page.evaluate(NAMES_SHOWN)
        assert sorted(seat["name"] for seat in shown) == sorted(names), shown
        assert not any(seat["cut"] or seat["broken"] or seat["glued"] for seat in shown), (player.name, shown)
        assert player.page.evaluate("document.documentElement.scrollWidth") <= 360

# What a finger at each of the four points 20 px from the target's centre (left, right, up, down) lands
# on: all on the target, its tap area is at least 40 px square, whatever its drawn size.
TAP_AREA = """e => { e.scrollIntoView({block: "center", inline: "center"});
  const r = e.getBoundingClientRect(), x = r.x + r.width / 2, y = r.y + r.height / 2;
  return [[x - 20, y], [x + 20, y], [x, y - 20], [x, y + 20]].map(([px, py]) => {
    const hit = document.elementFromPoint(px, py);
    return hit && e.contains(hit) ? "target" : hit && `${hit.tagName}#${hit.id}.${hit.className}`; }); }"""


def test_the_ends_to_tap_for_a_tile_that_fits_both_are_big_enough_for_a_finger(phones, make_server):
    """360x640: the glowing ends were drawn 30x14 px (the line's grid sizes them), and the panel grown
    to show the choice hid them; they come back in sight, and their tap area is larger than what is
    drawn (the line does not move for it)."""
    server = make_server(**seeded(BLOCK_SEED))  # Bea opens with 6-6; a tile later fits both ends
    players = phones(360, 640, ("Ana", "Bea"))
    seat_players(server.url, players, "block", 100)
    stats = Stats()
    for _ in range(30):
        turn = players[0].turn()
        assert turn is not None, "the round ended before a tile fitted both ends"
        page = players[turn].page
        both = page.locator("#me label.tile-btn.fits")
        if both.count():
            break
        play_one_move(players, stats)
    else:
        raise AssertionError(f"the seeded deal no longer has a tile that fits both ends: {stats}")
    # As the turn began focus went to a tile that fits (for a keyboard); to a finger a ring round it
    # looked like a tile chosen for them.
    focused = page.locator("#hand .tile-btn:focus-within")
    expect(focused).to_have_count(1)
    assert focused.evaluate("e => getComputedStyle(e).outlineStyle") == "none"
    both.first.tap()
    # The panel grows to show the choice: the ends to tap are scrolled back into sight above it.
    page.wait_for_function(ENDS_IN_SIGHT, polling=100)
    for end in ("left", "right"):
        target = page.locator(f"#line .end-target[data-end={end}]")
        expect(target).to_have_css("pointer-events", "auto")
        landed = target.evaluate(TAP_AREA)
        assert landed == ["target"] * 4, (end, target.bounding_box(), landed)


# Every control a finger may need (buttons, menus, the folding parts, the labels of boxes to tick)
# smaller than TAP_PX: the tiles and the line's ends are sized by the felt (their own tests), and a
# link inside a sentence is read as a part of it.
SMALL_CONTROLS = """tap => [...document.querySelectorAll(
    "button:not(.tile-btn):not(.end-target), select, summary, .brand, label:has(input[type=checkbox]),"
    + " label:has(input[type=radio]), input:not([type=hidden]):not([type=checkbox]):not([type=radio])")]
  .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== "hidden")
  .map(e => [e.tagName, e.textContent.trim().slice(0, 30), Math.round(e.getBoundingClientRect().height)])
  .filter(([, , height]) => height < tap)"""


@pytest.mark.parametrize("size", [(360, 640), (640, 360)])
def test_every_control_on_a_small_phone_is_big_enough_for_a_finger(phones, make_server, size):
    """360x640: the home page's form, and a table in play with its folding parts (the score sheet,
    the private link back to one's seat, the keyboard shortcuts) were 13-37 px tall. Held sideways
    (640x360) the phone got a desktop's: "Keyboard shortcuts" 20 px, its switch 16."""
    server = make_server()
    players = phones(*size, ("Ana", "Bea"))
    players[0].page.goto(server.url + "/")
    assert players[0].page.evaluate(SMALL_CONTROLS, TAP_PX) == []
    seat_players(server.url, players, "draw", 100)
    for player in players:
        player.wait_version(2)
        for folded in player.page.locator("details").all():  # open: what they hold is measured too
            folded.evaluate("d => { d.open = true; }")
        assert player.page.evaluate(SMALL_CONTROLS, TAP_PX) == [], player.name


@pytest.mark.parametrize("lang", ["en", "da"])
def test_a_rounds_end_on_a_phone_leaves_the_line_in_sight_and_the_sheet_whole(phones, make_server, lang):
    """The result box, pinned at the top, took half the screen on a phone: the line and the hands
    shown could not be seen whole beside it. It scrolls away now. The sheet's headers were cut with
    an ellipsis ("1 blo…", "María José de l…"), the whole name only in a tooltip, which a phone cannot
    show: they wrap now. Danish says "blokeret"."""
    server = make_server(**seeded(BLOCK_SEED))  # the round blocks
    players = phones(*PHONES["390x844"], ("María José de las Nieves", "Bartholomew Fitzgerald J"))
    seat_players(server.url, players, "block", 100)
    stats = Stats()
    while play_one_move(players, stats):
        pass
    page = players[0].page
    speak(page, server.url, lang)
    expect(page.locator("#table .result")).to_be_visible()
    page.evaluate("document.getElementById('line').scrollIntoView({block: 'start'})")
    result, line = (page.evaluate(BOXES, sel)[0] for sel in ("#table .result", "#line"))
    assert not overlap(result, line), (result, line)
    page.locator("#sheet summary").click()
    cells = page.locator(".sheet-table th")
    expect(cells.first).to_be_visible()
    cut = page.evaluate("""() => [...document.querySelectorAll('.sheet-table th, .sheet-table th *')]
        .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)""")
    assert cut == [], cut
    blocked = page.locator(".sheet-table tbody th small")
    expect(blocked).to_have_text({"en": "blocked", "da": "blokeret"}[lang])
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


# For each tile named in the sentences of `sel` ("6-4"), whether it ends up on more than one line
# when the sentence is laid out at every width from 120 px to the page's own.
SPLIT_TILE_NAMES = r"""sel => {
  const split = [];
  for (const box of document.querySelectorAll(sel)) {
    const full = box.getBoundingClientRect().width;
    for (let w = 120; w <= full; w += 2) {
      box.style.width = w + "px";
      const walk = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
      for (let t = walk.nextNode(); t; t = walk.nextNode()) {
        for (const m of t.data.matchAll(/\d-\d/g)) {
          const r = document.createRange();
          r.setStart(t, m.index); r.setEnd(t, m.index + 3);
          const tops = new Set([...r.getClientRects()].map(c => Math.round(c.top)));
          if (tops.size > 1) split.push([box.id || box.className, w, t.data]);
        }
      }
    }
    box.style.width = "";
  }
  return split.slice(0, 5);
}"""


def test_a_tiles_name_in_a_sentence_is_never_split_across_lines(phones, make_server):
    """320x568: "Open the round with 6-" then "6." on the next line. The prompt, the felt's facts and
    the log keep a tile's name whole, however narrow the sentence."""
    server = make_server(**seeded(BLOCK_SEED))  # Bea opens with 6-6
    players = phones(320, 568, ("Ana", "Bea"))
    seat_players(server.url, players, "block", 100)
    opener = players[1].page
    expect(opener.locator("#prompt")).to_contain_text("6-6")
    assert opener.evaluate(SPLIT_TILE_NAMES, "#prompt, #ends") == []
    play_one_move(players, Stats())
    for player in players:
        expect(player.page.locator("#log li")).to_have_count(1)
        assert player.page.evaluate(SPLIT_TILE_NAMES, "#log li") == []


def test_a_small_phone_in_spanish_shows_the_badges_apart_and_the_empty_sheet_whole(phones, make_server):
    """320x568, Spanish: "anfitrióntú" (the badges run together under the name) and "Todavía no ha
    terminado ningun…" (the empty score sheet's only line, cut)."""
    server = make_server()
    players = phones(320, 568, ("Ana", "Bea"))
    link = seat_players(server.url, players, "block", 100)
    host = players[0]
    speak(host.page, link, "es")
    host.wait_version(2)
    assert not any(seat["glued"] or seat["cut"] for seat in host.page.evaluate(NAMES_SHOWN))
    host.page.locator("#sheet summary").click()
    empty = host.page.locator(".sheet-empty")
    expect(empty).to_contain_text("Todavía no ha terminado ninguna ronda.")
    assert empty.evaluate("e => e.scrollWidth <= e.clientWidth && getComputedStyle(e).whiteSpace == 'normal'")


@pytest.mark.parametrize("width", [320, 360])
def test_three_players_names_are_not_broken_on_a_phone(phones, make_server, width):
    """Block for three: the two others sat in a third of the phone each, the seat across empty, and
    "Bartolome / o", "Christoff / er" were broken mid-word. They share the top row now."""
    server = make_server()
    names = ("Ana", "Bartolomeo", "Christoffer")
    players = phones(width, 640, names)
    seat_players(server.url, players, "block", 100)
    for player in players:
        player.wait_version(3)
        lines = player.page.evaluate("""() => [...document.querySelectorAll("article.seat .name")]
            .map(n => [n.textContent, new Set([...n.getClientRects()].map(r => Math.round(r.top))).size])""")
        assert sorted(name for name, _ in lines) == sorted(names), lines
        assert all(count == 1 for _, count in lines), (player.name, lines)
        assert player.page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("size", [(320, 568), (360, 640), (640, 360)])
def test_a_friend_opening_the_link_on_a_phone_sees_where_to_join_without_scrolling(open_page, make_server,
                                                                                  size):
    """The first screen a friend sees: before the match the felt is empty, and the name form (the one
    thing to do) stays in sight at the bottom, not under the empty seats."""
    server = make_server(**seeded(BLOCK_SEED))
    link = Player(open_page(), "Ana").create(server.url, "partnership", 4, 100)
    page = open_page(phone=True)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(link)
    for control in (page.get_by_label("Your name"), page.get_by_role("button", name="Take seat 2")):
        box = control.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= size[1], (size, box)
    assert page.evaluate("document.documentElement.scrollTop") == 0


WIDER = """() => [...document.querySelectorAll("body *")].filter(e => {
  const r = e.getBoundingClientRect(); return r.width > 0 && (r.right > innerWidth + 1 || r.left < -1); })
  .map(e => [e.id || e.className || e.tagName, e.textContent.slice(0, 20), e.getBoundingClientRect().x])"""


def test_a_phone_zoomed_to_200_percent_scrolls_nothing_sideways_and_cuts_no_points(phones, make_server):
    """An iPhone SE at 200 % page zoom is 187 CSS px wide: the name field was 242 px (the page scrolled
    sideways and the join button left the screen), seats broke names mid-letter three to a row, and
    the score sheet showed each round's points as "+…" (play-test)."""
    server = make_server(**seeded(BLOCK_SEED), PAUSE_SECONDS=300)
    players = phones(187, 333, ("Ana", "Bea", "Carl", "Dora"))
    seat_players(server.url, players, "partnership", 100)
    for player in players:
        player.wait_version(4)
        assert player.page.evaluate(WIDER) == [], player.name
        lines = player.page.evaluate("""() => [...document.querySelectorAll("article.seat .name")]
            .map(n => [n.textContent, new Set([...n.getClientRects()].map(r => Math.round(r.top))).size])""")
        assert all(count == 1 for _, count in lines), (player.name, lines)
    stats = Stats()
    while play_one_move(players, stats) is not None:
        pass
    page = players[1].page
    page.locator("#sheet summary").tap()
    assert page.evaluate(WIDER) == []
    cells = page.locator("#sheet tbody td").evaluate_all(
        "els => els.map(e => [e.textContent, e.scrollWidth > e.clientWidth])")
    assert cells and not any(cut for _, cut in cells), cells
    records = page.locator(".records a").evaluate_all("els => els.map(e => e.getBoundingClientRect().height)")
    assert records and min(records) >= TAP_PX, records  # the records' links were 16 px tall
