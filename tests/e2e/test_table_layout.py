"""The table as people see it, at 1280x800 and on a 360x640 phone (issue 10, items 1-4 and 9).

Seats round the felt from each viewer's point of view, the line as a chain that fits and never
moves, the last tile marked, the title on your turn, the countdown bar, and the result in sight
at a round's end. Everything is measured on the real page (bounding boxes against the viewport).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from helpers.chromium import close_within
from helpers.panels import open_panel
from helpers.players import (
    BLOCK_SEED,
    DRAW_SEED,
    NAMES,
    PARTNERSHIP_SEED,
    Player,
    Stats,
    play_one_move,
    seat_players,
    seeded,
)

pytestmark = pytest.mark.browser

SIZES = {
    "1280x800": {"viewport": {"width": 1280, "height": 800}},
    "360x640": {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True},
}
MIN_TILE = {"1280x800": 44, "360x640": 28}  # a line tile's long side, in CSS pixels
TURN_TITLE = "● Your turn — Fichas"
ENABLED = "s => [...s.options].filter(o => !o.disabled).map(o => o.value)"  # a select's choices
# The unseen panel's counts less what the page itself shows (line and own hand): all 0 if right.
UNSEEN = """() => [...Array(7).keys()].map(n => {
  const shown = [...document.querySelectorAll("#line [data-tile], #hand [data-tile]")]
    .filter(e => e.dataset.tile.split("-").includes(String(n))).length;
  const cell = document.querySelector(`#unseen .unseen-counts > div:nth-child(${n + 1}) dd`);
  return Number(cell.textContent) - (7 - shown); })"""
# Each tile's centre relative to the opening tile's, in quarter-tiles (the line's box on the stamp, fw, over
# #line's width), once the animations are over: the line zooms out as it grows (issue 42), so places are
# compared in its own units. Centres: a tile's margin and border do not scale exactly with it.
BOXES = """els => { document.getAnimations().forEach(a => a.finish());
  const q = document.getElementById("line").getBoundingClientRect().width
    / Number(document.getElementById("version").className.match(/fw(\\d+)/)[1]);
  const mid = e => { const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; };
  const [ox, oy] = mid(document.getElementById("t-o"));
  return els.map(e => { const [x, y] = mid(e); return [e.id, (x - ox) / q, (y - oy) / q]; }); }"""


def sized(chromium, size: str):
    """open_page for one screen size: a new browser context (one person) a page."""
    contexts = []

    def open_(url: str | None = None):
        context = chromium.new_context(**SIZES[size])
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        if url:
            page.goto(url)
        return page
    return open_, contexts


@pytest.fixture
def people(chromium, make_server):
    """Make Players at one screen size; their contexts close before the server stops."""
    made = []

    def make(size: str, count: int) -> list[Player]:
        open_, contexts = sized(chromium, size)
        made.extend(contexts)
        phone = size == "360x640"
        return [Player(open_(), NAMES[seat], phone=phone) for seat in range(count)]
    yield make
    for context in made:
        close_within(context)


def box(page, selector: str) -> dict:
    """The element's box once it is on the page. A push may swap it out between the wait and the
    measure (a spectator's arrival pushes the whole table): then it is waited for again."""
    found = None
    for _ in range(5):
        page.locator(selector).wait_for(state="visible")
        found = page.locator(selector).bounding_box()
        if found:
            break
    assert found, selector
    return found


def centre(b: dict) -> tuple[float, float]:
    return b["x"] + b["width"] / 2, b["y"] + b["height"] / 2


def check_seats_round_the_felt(page, bottom: int, seats: int = 4) -> None:
    """`bottom` sits below the felt; then clockwise in playing order: left, across, right."""
    felt = box(page, "#table .felt")
    seat = {s: box(page, f"article.seat[data-seat='{s}']") for s in range(seats)}
    left, across, right = (bottom + 1) % 4, (bottom + 2) % 4, (bottom + 3) % 4
    assert seat[bottom]["y"] >= felt["y"] + felt["height"] - 1, "own seat below the felt"
    assert seat[across]["y"] + seat[across]["height"] <= felt["y"] + 1, "partner across, above the felt"
    assert centre(seat[left])[0] < centre(seat[across])[0] < centre(seat[right])[0]
    assert centre(seat[left])[0] < centre(felt)[0] < centre(seat[right])[0]


def line_boxes(page) -> dict[str, tuple]:
    """Every tile of the line: its id and its box relative to the line."""
    return {b[0]: tuple(b[1:]) for b in page.locator("#line .domino").evaluate_all(BOXES)}


def in_viewport_and_clear(page, selector: str) -> None:
    """The element is wholly inside the viewport and not under the sticky hand panel."""
    size = page.viewport_size
    b = box(page, selector)
    assert b["y"] >= 0 and b["y"] + b["height"] <= size["height"], (selector, b, size)
    assert b["x"] >= 0 and b["x"] + b["width"] <= size["width"], (selector, b, size)
    me = box(page, "#me")
    assert b["y"] + b["height"] <= me["y"] or b["y"] >= me["y"] + me["height"], (selector, b, me)


@pytest.mark.parametrize("size", list(SIZES))
def test_a_round_seen_round_the_table_chain_last_tile_title_and_result(people, make_server, size):
    # 60 s turns: the first turn, after all the checks below under load, must not be played by the table.
    server = make_server(TURN_SECONDS=60, **seeded(PARTNERSHIP_SEED))
    players = people(size, 4)
    seat_players(server.url, players, "partnership", 100)
    for player in players:
        player.wait_version(4)
        # The last seat's connect is pushed after version 4 (no new version) and resizes its seat.
        expect(player.page.locator("article.seat.offline")).to_have_count(0)

    # 1. Each player: their own seat at the bottom, the partner across, opponents left and right.
    for player in players:
        check_seats_round_the_felt(player.page, player.seat)
    watcher = Player(sized_page(people, size), "Eve")
    watcher.page.goto(players[0].page.url)
    expect(watcher.page.locator("#me .prompt")).to_contain_text("You are watching")
    check_seats_round_the_felt(watcher.page, 0)  # a spectator sees the host's seat at the bottom

    # 3. The countdown is a bar that shrinks, for every viewer (60 s turns: a twentieth each 3 s).
    seat = watcher.turn()
    bar = watcher.page.locator(f"#seat-{seat} .timer .fill")
    first = bar.bounding_box()["width"]
    watcher.page.wait_for_function(
        "([s, w]) => document.querySelector(`#seat-${s} .timer .fill`).getBoundingClientRect().width < w - 5",
        arg=[seat, first])

    stats = Stats()
    seen: dict[str, tuple] = {}
    for _ in range(40):
        turn = players[0].turn()
        if turn is None:
            break
        actor = players[turn]
        expect(actor.page).to_have_title(TURN_TITLE)  # 3. the tab says it is your turn...
        if actor.page.locator("#end-left").count():  # ...the open ends in sight, clear of the hand
            for end in ("#end-left", "#end-right"):
                in_viewport_and_clear(actor.page, end)
        for other in players:
            if other is not actor:
                expect(other.page).not_to_have_title(TURN_TITLE)
        play_one_move(players, stats)
        if not players[0].round_over():
            expect(actor.page).not_to_have_title(TURN_TITLE)  # ...and stops saying so once you moved
        move = stats.moves[-1].split(": ")[1]
        for player in (players[0], players[1], watcher):
            if move.startswith("play"):  # 2. the tile just placed is marked, on every screen
                expect(player.page.locator("#line .domino.last")).to_have_attribute(
                    "data-tile", move.split()[1])
            expect(player.page.locator("#line .domino.last")).to_have_count(1)
            if not players[0].round_over():  # 6. each number's tiles not yet seen, kept current
                assert player.page.evaluate(UNSEEN) == [0] * 7, (player.name, stats.moves)
        # 2. A tile once placed never moves: the same id, the same place in the line (in its own units).
        now = line_boxes(players[0].page)
        for key, place in seen.items():
            moved = [abs(a - b) for a, b in zip(now[key], place, strict=True)]
            assert max(moved) < 0.05, (key, place, now[key])
        seen = now
    assert players[0].round_over() and len(seen) >= 20, stats.moves

    # 2. The whole line fits without scrolling sideways, with tiles large enough to read.
    for player in (*players, watcher):
        page = player.page
        assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
        felt = box(page, "#line")
        tiles = page.locator("#line .domino").evaluate_all(
            "els => els.map(e => { const r = e.getBoundingClientRect(); "
            "return [r.x, r.right, r.width, r.height]; })")
        for b in tiles:
            assert felt["x"] - 1 <= b[0] and b[1] <= felt["x"] + felt["width"] + 1, (b, felt)
            assert max(b[2], b[3]) + 2 >= MIN_TILE[size], b  # + the margin between tiles

    # 4. Every viewer sees who won, how and the points, and the match score, without scrolling.
    for player in (*players, watcher):
        result = player.page.locator("#table .result")
        expect(result).to_contain_text(re.compile(r"Round 1 to .+: \+\d+"))
        expect(result).to_contain_text(re.compile(r"placed their last tile|Blocked: nobody could place"))
        expect(result).to_contain_text("Match score")
        in_viewport_and_clear(player.page, "#table .result")
    host_button = players[0].page.get_by_role("button", name="Start the next round now")
    expect(host_button).to_be_in_viewport()  # the host's action is always in sight
    expect(players[0].page.locator("#table .result .for-host")).to_be_visible()  # and speaks to the host
    expect(players[1].page.locator("#table .result .for-host")).to_be_hidden()


def sized_page(people, size: str):
    """One more person's page at `size`."""
    return people(size, 1)[0].page


def test_d4_doubles_lie_across_and_both_ends_are_targets_that_do_not_move_the_line(people, make_server):
    server = make_server(**seeded(BLOCK_SEED))  # Bea opens with 6-6; a tile later fits both ends
    players = people("1280x800", 2)
    seat_players(server.url, players, "block", 100)
    stats = Stats()
    play_one_move(players, stats)
    for player in players:  # D4: the opening double lies across the line
        double = player.page.locator("#line .domino.cross")
        expect(double).to_have_count(1)
        b = double.bounding_box()
        assert b["height"] > b["width"] * 1.5
    for _ in range(30):
        turn = players[0].turn()
        if turn is None:
            break
        me = players[turn].page.locator("#me")
        both = me.locator("label.tile-btn.fits")
        if both.count():
            page = players[turn].page
            before = line_boxes(page)
            targets = page.locator("#line .end-target")
            expect(targets).to_have_count(2)
            target_boxes = [t.bounding_box() for t in targets.all()]
            version = players[turn].version()
            both.first.click()  # choosing the tile lights the ends up; nothing moves
            expect(page.locator("#line .end-target[data-end=left]")).to_have_css("pointer-events", "auto")
            assert line_boxes(page) == before
            assert [t.bounding_box() for t in targets.all()] == target_boxes
            page.locator("#line .end-target[data-end=right]").click()
            for player in players:
                player.wait_version(version + 1)
            stats.both_ends += 1
            break
        play_one_move(players, stats)
    assert stats.both_ends == 1, f"the seeded deal no longer has a tile that fits both ends: {stats}"


def test_the_headers_link_invites_friends_while_seats_are_free_and_then_names_the_table(people, make_server):
    """The header is outside #table, which pushes redraw: a page loaded while the table filled kept
    "Invite friends with this link" for the whole match, and one loaded later read "This table's link".
    A spectator is told so at the top of the page."""
    host, guest, visitor = people("1280x800", 3)
    link = host.create(make_server().url, "block", 2, 100)
    label = host.page.locator(".share-waiting label")  # in the header while seats are free
    expect(label).to_have_text("Invite friends with this link", use_inner_text=True)
    visitor.page.goto(link)  # come to take a seat, not to watch: not told "Watching"
    expect(visitor.page.locator("#me form.join")).to_be_visible()
    expect(visitor.page.locator(".watching")).to_be_hidden()
    guest.join(link)
    for player in (host, guest):
        player.wait_version(2)
        expect(player.page.locator(".share-waiting")).to_be_hidden()  # in play: the link is in the menu
        open_panel(player.page)
        label = player.page.locator("#menu .share label")
        expect(label).to_have_text("This table's link", use_inner_text=True)
        expect(player.page.locator(".watching")).to_have_count(0)
    # Too late for a seat: told at the top, in sight on a phone (its own words are at the page's foot).
    visitor.wait_version(2)
    expect(visitor.page.locator(".watching")).to_be_visible()
    expect(visitor.page.locator(".watching")).to_be_in_viewport()


def test_on_a_phone_the_facts_over_the_felt_keep_whose_turn_it_is_with_the_longest_names(people, make_server):
    """24-character names (the most a seat takes), Draw on a 360 px phone: the facts over the felt
    (two lines at most) still end with whose turn it is, in full; before the first tile the opener,
    who is then to play, is named once (named twice, "… to play" was cut off)."""
    server = make_server(**seeded(DRAW_SEED))
    players = people("360x640", 2)
    players[0].name, players[1].name = "Guadalupe Ximénez Ortega", "Maximiliana Wolfeschlege"
    seat_players(server.url, players, "draw", 100)
    stats = Stats()
    for moved in range(3):
        for player in players:
            player.wait_version(2 + moved)
            ends = player.page.locator("#ends")
            text = ends.inner_text()
            turn = players[player.turn()].name
            to_play = ends.locator(".to-play")
            assert turn in to_play.inner_text(), text
            assert text.count(turn) == 1 or moved, text  # the opener, once
            clipped = ends.evaluate("e => e.scrollHeight > e.clientHeight + 1")
            assert not clipped, f"{player.name}'s page cuts off: {text}"
        play_one_move(players, stats)


# Each seat's name's words drawn on two lines or more though the seat is wide enough for them on one
# (a word wider than the seat must be cut somewhere; hyphens: auto does it with a hyphen, where the
# browser has the language's hyphenation).
WORDS_CUT = """() => [...document.querySelectorAll('#table .seat .name')].flatMap(name => {
  const text = name.firstChild, line = name.closest('h3').clientWidth, cut = [];
  for (const found of text.data.matchAll(/\\S+/g)) {
    const range = document.createRange();
    range.setStart(text, found.index); range.setEnd(text, found.index + found[0].length);
    const rects = [...range.getClientRects()];
    const width = rects.reduce((sum, r) => sum + r.width, 0);
    if (new Set(rects.map(r => Math.round(r.top))).size > 1 && width <= line) cut.push(found[0]);
  }
  return cut; })"""


def test_on_a_phone_long_names_in_the_seats_wrap_between_words(people, make_server):
    """Partnership on a 360 px phone: the three seats across the top are a third of the screen each.
    Their names wrap between words ("Guadalupe / Ximénez"), never inside one that fits the seat
    ("Guadalup / e": the dot beside the name took its width)."""
    server = make_server()
    players = people("360x640", 4)
    for player, name in zip(players, ("Guadalupe Ximénez", "Christopher Alexander", "María José Fernández",
                                      "Søren Kierkegaard"), strict=True):
        player.name = name
    seat_players(server.url, players, "partnership", 100)
    for player in players:
        player.wait_version(4)
        assert player.page.evaluate(WORDS_CUT) == [], player.name
        assert player.page.evaluate("document.documentElement.scrollWidth") <= 360


def test_copy_link_copies_the_link_or_says_plainly_that_it_did_not(people, make_server):
    """Copied: the clipboard holds the table's link, the button and a screen reader say so, and the
    field lets go of the focus it took (a phone showed it ringed all match). Not copied (a browser
    that refuses): the button says so (it said "Copied!" regardless) and the link is left selected."""
    server = make_server()
    host = people("360x640", 1)[0]
    page = host.page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    link = host.create(server.url, "block", 2, 100)
    copy = page.locator(".share-waiting button.copy")  # the header's, while seats are free
    host.press(copy)
    expect(copy).to_have_text("Copied!")
    assert page.evaluate("navigator.clipboard.readText()") == link
    assert page.evaluate("document.activeElement.id") != "share-link"
    expect(page.locator("#announcer")).to_contain_text("Copied!")
    expect(copy).to_have_text("Copy link", timeout=4000)
    # A double click copies twice but says "Copied!" once (a screen reader heard it twice).
    said = page.locator("#announcer p").count()
    copy.dblclick()
    expect(copy).to_have_text("Copied!")
    page.wait_for_timeout(300)
    assert page.locator("#announcer p").all_inner_texts()[said:] == ["Copied!"]
    expect(copy).to_have_text("Copy link", timeout=4000)

    page.evaluate("""() => { navigator.clipboard.writeText = () => Promise.reject(new Error("refused"));
                             document.execCommand = () => false; }""")
    host.press(copy)
    expect(copy).to_have_text("Not copied")  # short: the phone's header keeps the link in sight
    expect(page.locator("#announcer")).to_contain_text("Not copied: the link is selected, copy it by hand.")
    assert page.evaluate("""() => { const e = document.activeElement;
        return e.id === "share-link" && e.selectionStart === 0 && e.selectionEnd === e.value.length; }""")
    assert page.locator("#share-link").bounding_box()["width"] >= 120
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_the_smaller_points_of_issue_10(people, make_server, chromium):
    server = make_server()
    # The home form: each radio button on its label's line; Partnership is played by 4 only.
    host, guest = people("360x640", 2)
    page = host.page
    page.goto(server.url + "/")
    for choice in page.locator(".create label.choice").all():
        radio, words = choice.locator("input").bounding_box(), choice.locator("span").bounding_box()
        assert radio["x"] + radio["width"] <= words["x"] and abs(radio["y"] - words["y"]) < 12
    seats = page.locator("select[name=seats]")
    page.locator("input[name=variant][value=partnership]").check()
    assert seats.evaluate(ENABLED) == ["4"]
    expect(page.locator("#seats-hint")).to_be_visible()
    expect(seats).to_have_attribute("aria-describedby", "seats-hint")
    page.locator("input[name=variant][value=block]").check()
    assert seats.evaluate(ENABLED) == ["2", "3", "4"]
    # Partnership's hint (always 4 players) no longer says so under Block's choice (a play-test).
    expect(page.locator("#seats-hint")).to_be_hidden()
    assert seats.get_attribute("aria-describedby") is None

    # Two long names on a 360 px phone: nothing sticks out sideways.
    host.name, guest.name = "Maximiliana Wolfeschlege", "Bartholomew Fitzwilliams"
    link = seat_players(server.url, [host, guest], "block", 100)
    for player in (host, guest):
        player.wait_version(2)
        assert player.page.evaluate("document.documentElement.scrollWidth") <= 360
        expect(player.page.locator("#table")).not_to_contain_text("(T7)")
    # "Copied!" for a moment, then the button offers to copy again (in the menu during play).
    open_panel(host.page)
    copy = host.page.locator("#menu button.copy")
    copy.tap()
    expect(copy).to_have_text("Copied!")
    expect(copy).to_have_text("Copy link", timeout=4000)
    # A spectator is not asked to invite friends to play.
    watcher = people("360x640", 1)[0].page
    watcher.goto(link)
    expect(watcher.locator("#menu .share label")).to_have_text("This table's link")
    assert "(T7)" not in watcher.content()
    # Revealed hands come later; sound is off until turned on, and the choice is remembered.
    sound = host.page.locator("#sound")  # in the menu, open
    expect(sound).to_have_attribute("aria-pressed", "false")
    sound.tap()
    expect(sound).to_have_attribute("aria-pressed", "true")
    host.page.reload()
    open_panel(host.page)
    expect(host.page.locator("#sound")).to_have_attribute("aria-pressed", "true")
    expect(host.page.locator("#sound")).to_have_text("Sound on")


HIDE = ("v => { Object.defineProperty(document, 'hidden', {value: v, configurable: true}); "
        "document.dispatchEvent(new Event('visibilitychange')); }")  # the tab hidden (True) or shown again


@pytest.mark.parametrize(("seed", "variant", "seats", "moves", "said"), [
    (PARTNERSHIP_SEED, "partnership", 4, 2, "2 moves while you were away."),
    # The round's number changes only at the next deal: a round that ended (its result on the table,
    # the pause running) is not a count of moves.
    (BLOCK_SEED, "block", 2, None, "A round ended while you were away: the result is below."),
])
def test_a_page_back_from_the_background_says_what_it_missed(people, make_server, seed, variant, seats, moves,
                                                             said):
    server = make_server(**seeded(seed))
    players = people("360x640", seats)
    seat_players(server.url, players, variant, 100)
    away = players[-1]
    away.wait_version(seats)
    away.page.evaluate(HIDE, True)
    stats = Stats()
    for _ in range(moves or 1000):  # None: until the round is over
        if not play_one_move(players, stats):
            break
    away.page.evaluate(HIDE, False)
    expect(away.page.locator("#away")).to_be_visible()
    expect(away.page.locator("#away")).to_have_text(said)


def test_a_page_hidden_through_the_pause_counts_the_next_rounds_moves(people, make_server):
    """A phone locked on a round's result and picked up in the next round is told the moves of the
    round begun since, not again that a round ended (it saw that result)."""
    server = make_server(**seeded(BLOCK_SEED), PAUSE_SECONDS=3)  # the result seen, even on a slow machine
    players = people("360x640", 2)
    seat_players(server.url, players, "block", 100)
    stats = Stats()
    while play_one_move(players, stats):
        pass
    away = players[-1]
    expect(away.page.locator("#table")).to_have_attribute("data-phase", "pause")
    away.page.evaluate(HIDE, True)
    for player in players:  # the next round deals itself after the pause
        expect(player.page.locator("#table")).to_have_attribute("data-round", "2")
    play_one_move(players, stats)
    away.page.evaluate(HIDE, False)
    expect(away.page.locator("#away")).to_be_visible()
    expect(away.page.locator("#away")).to_have_text("1 move while you were away.")


def test_a_page_back_as_the_match_ended_or_a_new_one_began_says_so(people, make_server):
    """Back from the background with the match over: told the match ended (not a round); and with a
    new match begun: told that (rounds and moves count afresh in it, and the page said nothing)."""
    server = make_server(**seeded(BLOCK_SEED))
    players = people("360x640", 2)
    seat_players(server.url, players, "block", 50)
    host, away = players
    away.wait_version(2)
    table = server.app.extensions["fichas"].tables.get(host.page.url.rsplit("/", 1)[-1])
    table.match.scores[:] = [49] * len(table.match.scores)  # this round ends the match
    away.page.evaluate(HIDE, True)
    stats = Stats()
    while play_one_move(players, stats):
        pass
    away.page.evaluate(HIDE, False)
    expect(away.page.locator("#away")).to_be_visible()
    expect(away.page.locator("#away")).to_have_text(
        "The match ended while you were away: the result is below.")
    away.page.evaluate(HIDE, True)
    host.page.get_by_role("button", name="New match, same seats").click()
    expect(away.page.locator("#table")).to_have_attribute("data-match", "2")
    away.page.evaluate(HIDE, False)
    expect(away.page.locator("#away")).to_have_text("A new match began while you were away.")


def test_a_host_back_from_the_background_as_the_match_begins_is_not_told_a_round_ended(people, make_server):
    """The host shares the link, leaves for a chat app while friends join, and comes back to round 1
    begun: nothing was missed (the page said "A round ended while you were away")."""
    server = make_server(**seeded(BLOCK_SEED))
    host, guest = people("360x640", 2)
    link = host.create(server.url, "block", 2, 100)
    host.page.evaluate(HIDE, True)
    guest.join(link)
    host.wait_version(2)
    host.page.evaluate(HIDE, False)
    host.page.wait_for_timeout(800)  # past the moment it would say so (not `expect`: it hides by itself)
    assert not host.page.locator("#away").is_visible(), host.page.locator("#away").text_content()


def test_a_page_opened_again_says_what_it_missed(people, make_server):
    """A player who closes the table's page and opens the link again is told how many moves were
    made meanwhile, as a page back from the background is; a reload that missed nothing says nothing."""
    server = make_server(**seeded(PARTNERSHIP_SEED))
    players = people("360x640", 4)
    seat_players(server.url, players, "partnership", 100)
    for player in players:
        player.wait_version(4)
    away = players[(players[0].turn() + 3) % 4]  # not to play in the two moves made without it, nor next
    others = [player for player in players if player is not away]
    url, context = away.page.url, away.page.context
    away.page.close()
    stats = Stats()
    for _ in range(2):
        version = others[0].version()
        players[others[0].turn()].move(stats)
        for player in others:
            player.wait_version(version + 1)
    away.page = context.new_page()
    away.page.goto(url)
    expect(away.page.locator("#away")).to_be_visible()
    expect(away.page.locator("#away")).to_have_text("2 moves while you were away.")
    expect(away.page.locator("#announcer")).to_contain_text("2 moves while you were away.")  # said once
    away.page.reload()
    away.page.wait_for_timeout(800)  # past the moment it would say so (not `expect`: it hides by itself)
    assert not away.page.locator("#away").is_visible(), away.page.locator("#away").text_content()


def test_a_move_made_just_after_the_page_opened_was_not_missed(people, make_server):
    """Bea's join fills the table and reloads her page (it was open on the table: what it showed is
    kept); she opens the round at once: her page said "1 move while you were away." of her own move."""
    server = make_server(**seeded(BLOCK_SEED))  # Bea opens with 6-6
    ana, bea = people("360x640", 2)
    link = ana.create(server.url, "block", 2, 100)
    bea.page.goto(link)  # looking at the table before taking the seat
    bea.join(link)
    bea.page.locator("#hand [data-tile='6-6']").click()
    expect(bea.page.locator("#log li")).to_have_count(1)
    bea.page.wait_for_timeout(800)  # past the moment it would say so (not `expect`: it hides by itself)
    assert not bea.page.locator("#away").is_visible(), bea.page.locator("#away").text_content()


def test_revealed_hands_are_as_large_as_the_hand(people, make_server):
    server = make_server(**seeded(BLOCK_SEED))
    players = people("1280x800", 2)
    seat_players(server.url, players, "block", 100)
    hand_tile = None
    stats = Stats()
    for _ in range(60):
        if hand_tile is None and players[0].page.locator("#hand .domino").count():
            hand_tile = players[0].page.locator("#hand .domino").first.bounding_box()
        if play_one_move(players, stats) is None:
            break
    revealed = players[1].page.locator("article.seat .reveal .domino").first.bounding_box()
    assert abs(revealed["width"] - hand_tile["width"]) < 1
    assert abs(revealed["height"] - hand_tile["height"]) < 1


def test_in_forced_colours_the_tiles_keep_their_pips_and_what_glows_is_outlined(people, make_server):
    server = make_server(**seeded(BLOCK_SEED))
    players = people("1280x800", 2)
    seat_players(server.url, players, "block", 100)
    play_one_move(players, Stats())  # a tile on the line, and the other seat to play
    page = next(p.page for p in players if p.page.locator("#me.my-turn").count())
    page.emulate_media(forced_colors="active")
    assert page.evaluate("matchMedia('(forced-colors: active)').matches")
    pips = page.eval_on_selector_all("#hand .h:not(.p0), #line .h:not(.p0), .backs",
                                     "els => els.map(e => getComputedStyle(e).backgroundImage)")
    assert len(pips) > 3 and all("gradient" in b for b in pips)  # High Contrast would leave blank tiles
    for marked in (f"#seat-{players[0].turn()}", "#line .last", "#hand .tile-btn.fits", "#me.my-turn"):
        assert page.eval_on_selector(marked, "e => getComputedStyle(e).outlineStyle") != "none", marked
    # The tile with the keyboard's focus still stands out from the other tiles that fit.
    page.locator("#hand .tile-btn.fits").first.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    focused = page.evaluate("""() => { const e = document.activeElement.closest('.tile-btn');
        return e && e.matches(':focus-visible, :has(:focus-visible)')
            && getComputedStyle(e).outlineColor; }""")
    others = page.eval_on_selector_all("#hand .tile-btn.fits:not(:focus-within)",
                                       "els => els.map(e => getComputedStyle(e).outlineColor)")
    assert focused and focused not in others


def overlap(a: dict, b: dict) -> float:
    """The height two boxes share."""
    return max(0.0, min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"]))


@pytest.mark.parametrize("zoomed", [{"width": 640, "height": 400}, {"width": 320, "height": 200}])
def test_a_desktop_zoomed_to_200_or_400_percent_can_see_the_felt_at_a_rounds_end(people, make_server, zoomed):
    server = make_server(**seeded(BLOCK_SEED))
    players = people("1280x800", 2)
    seat_players(server.url, players, "block", 100)
    stats = Stats()
    while play_one_move(players, stats) is not None:
        pass
    host = players[0].page  # with "Start the next round now" in the panel
    host.set_viewport_size(zoomed)  # what 1280x800 at 200 % (or 400 %) gives in CSS pixels
    expect(host.locator("#table .result")).to_be_visible()
    expect(host.locator("#me .actions button").first).to_be_visible()
    for part in ("#line", "article.seat[data-seat='1'] .reveal"):
        host.locator(part).scroll_into_view_if_needed()
        seen = box(host, part)
        visible = min(seen["height"], zoomed["height"])  # as much of it as the screen can hold
        covered = overlap(seen, box(host, "#table .result")) + overlap(seen, box(host, "#me"))
        assert covered < 0.1 * visible, (part, seen, box(host, "#table .result"), box(host, "#me"))
