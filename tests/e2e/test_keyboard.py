"""A round played with the keyboard only, and what a screen reader is told through it, in a real Chromium.

No mouse: each player's page moves focus to their first playable tile when their turn begins,
and they play with Enter, Space, Tab and the single-key shortcuts. Every sentence put into a
page's live region is recorded as it arrives (a MutationObserver added before the page loads).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from helpers.page_probes import LISTEN, speak
from helpers.players import (
    BLOCK_SEED,
    DRAW_SEED,
    Player,
    Stats,
    play_one_move,
    seeded,
    sit_down,
    tile_key,
    wait_first_push,
)

pytestmark = pytest.mark.browser

# What a screen reader hears, in each language: a move (name, then a play with its tile, a pass or a
# draw), one's own move, the round's result, a pass's numbers, the player's own turn, and the
# spectator's prompt.
HEARD = {
    "en": {"move": re.compile(r"^(\w+) (?:placed (\d-\d)|(passed)|drew a tile)"),
           "own": re.compile(r"^You (?:placed (\d-\d)|(passed)\.)"), "round": "Round 1 to",
           "passed": " passed: has no ", "turn": re.compile(r"^Your turn: (\d+ tiles? fits?|nothing fits)"),
           "watching": "You are watching"},
    "es": {"move": re.compile(r"^(\w+) (?:colocó el (\d-\d)|(pasó)|robó una ficha)"),
           "own": re.compile(r"^(?:Colocaste el (\d-\d)|(Pasaste)\.)"), "round": "Ronda 1 para",
           "passed": " pasó: no tiene ",
           "turn": re.compile(r"^Te toca: (te encajan? \d+ fichas?|no te encaja ninguna)"),
           "watching": "Estás mirando"},
}


def focused(page: Page) -> str:
    """What has focus, described: its tag and its data-tile, data-end or data-action."""
    return page.evaluate("""() => { const e = document.activeElement;
        const t = e.closest('[data-tile]');
        return e.tagName + ' ' + (t ? t.dataset.tile : e.dataset.end || e.dataset.action || e.id || ''); }""")


def keyboard_move(player: Player, n: int, both: list[str]) -> str:
    """The player's move with keys only, from where their page put the focus; returns what was done."""
    page = player.page
    me = page.locator("#me")
    expect(me).to_have_class(re.compile(r"\bmy-turn\b"))
    first = me.locator("#hand .tile-btn.fits").first
    if me.locator("#hand .tile-btn.fits").count():
        tile = tile_key(first.get_attribute("data-tile"))
        radio = first.locator("input")
        if radio.count():  # fits both ends: Enter or Space picks it, then an end by shortcut or Tab and Enter
            expect(radio).to_be_focused()
            page.keyboard.press("Space" if len(both) % 2 else "Enter")  # the first by Enter (it did nothing)
            expect(radio).to_be_checked()
            end = "left" if n % 2 else "right"
            if n % 3:
                page.keyboard.press("ArrowLeft" if end == "left" else "r")
            else:
                target = me.locator(f".choose-end button[data-end={end}]")
                for _ in range(30):
                    page.keyboard.press("Tab")
                    if target.evaluate("e => e === document.activeElement"):
                        break
                expect(target).to_be_focused()
                page.keyboard.press("Enter")
            both.append(tile)
            return f"play {tile}"
        expect(first).to_be_focused()
        if n % 2:  # its number in the hand, as a shortcut
            index = player.hand().index(tile)
            page.keyboard.press(str(index + 1))
        else:
            page.keyboard.press("Enter")
        return f"play {tile}"
    pass_ = me.locator("[data-action=pass]")
    expect(pass_).to_be_focused()
    page.keyboard.press("p" if n % 2 else "Enter")
    return "pass"


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_round_played_with_the_keyboard_only_is_announced_move_by_move(open_page, make_server, lang):
    """Two players play the seeded Block round with keys only; focus never falls to <body>; each
    page's live region says every move once, in order (one's own in one's own words: "You placed
    …"), whose turn it is, and the result, in the viewer's language (the Spanish round: every page
    in Spanish, the keys the same)."""
    words = HEARD[lang]
    server = make_server(**seeded(BLOCK_SEED))
    pages = []
    for _ in range(3):
        page = open_page()
        page.context.add_init_script(script=LISTEN)
        pages.append(page)
    ana, bea = Player(pages[0], "Ana"), Player(pages[1], "Bea")
    link = ana.create(server.url, "block", 2, 100)
    bea.join(link)
    players = [ana, bea]
    for player in players:
        player.wait_version(2)
        speak(player.page, link, lang)
        player.wait_version(2)
    watcher = pages[2]
    watcher.goto(link)
    speak(watcher, link, lang)
    expect(watcher.locator("#me .prompt")).to_contain_text(words["watching"])

    done: list[str] = []
    both: list[str] = []  # tiles that fitted both ends
    for n in range(60):
        version = ana.version()
        for player in players:
            player.wait_version(version)
        seat = ana.turn()
        if seat is None:
            break
        actor = players[seat]
        done.append(f"{actor.name} {keyboard_move(actor, n, both)}")
        for player in players:
            player.wait_version(version + 1)
            # Focus stays on the page's parts, never on <body> (item 3).
            assert focused(player.page) != "BODY ", f"{player.name}: focus fell to <body> after {done[-1]}"
    expect(ana.page.locator("#table .result")).to_be_visible()
    assert any(d.endswith("pass") for d in done), f"the seeded round no longer has a pass: {done}"
    assert sum(" play " in d for d in done) >= 5 and both, done

    for page, player in zip(pages, [*players, None], strict=True):
        expect(page.locator("#announcer")).to_contain_text(words["round"])
        heard = page.evaluate("window.heard")
        moves = []
        for sentence in heard:
            own = words["own"].match(sentence)
            m = words["move"].match(sentence)
            if own:
                assert player, f"a spectator heard {sentence!r}"
                did = f"play {tile_key(own.group(1))}" if own.group(1) else "pass"
                moves.append(f"{player.name} {did}")
                continue
            assert not (player and m and m.group(1) == player.name), f"{player.name} heard {sentence!r}"
            if m and m.group(2):
                moves.append(f"{m.group(1)} play {tile_key(m.group(2))}")
            elif m:
                moves.append(f"{m.group(1)} {'pass' if m.group(3) else 'draw'}")
        assert moves == done, f"announced {moves}, played {done}"  # each move once, in order
        assert sum(words["round"] in s for s in heard) == 1
        passes = [s for s in heard if words["passed"] in s]
        assert passes, heard
    for player in players:  # its own turn, with how many tiles fit, said to the player whose turn it was
        heard = player.page.evaluate("window.heard")
        assert any(words["turn"].match(s) for s in heard), heard
    assert not any(words["turn"].match(s) for s in watcher.evaluate("window.heard"))


def test_s4_a_turn_cut_short_by_time_away_is_announced_with_the_seconds_really_left(open_page, make_server):
    """A player disconnected on their turn (no page open for the settle) has 5 seconds of it, counted
    from their going (S4): the page, back, says so, in words that count those seconds ("5 seconds
    left", or fewer), never the 10 of a full turn's end."""
    server = make_server(SETTLE_SECONDS=0.5, **seeded(BLOCK_SEED))  # 4.5 s left to read it back
    pages = [open_page(), open_page()]
    for page in pages:
        page.context.add_init_script(script=LISTEN)
    ana, bea = Player(pages[0], "Ana"), Player(pages[1], "Bea")
    link = ana.create(server.url, "block", 2, 100)
    bea.join(link)
    for player in (ana, bea):
        player.wait_version(2)
    mover, other = (ana, bea) if ana.turn() == 0 else (bea, ana)
    # Away until the table has seen the seat go (S4: the turn now ends 5 s later), then back. Not a
    # reload: the new page's socket may reach a busy server before the old one's close, and a seat
    # that always had a page open is not cut short.
    url = mover.page.url
    mover.page.goto("about:blank")
    other.page.locator(f"article.seat[data-seat='{mover.seat}'].offline").wait_for()  # at once: 5 s run
    mover.page.goto(url)
    # Its prompt says why the turn is so short (read at once: the turn lasts 5 s).
    expect(mover.page.locator("#prompt")).to_contain_text(
        "You were disconnected during this turn: the turn was cut to 5 seconds.")
    expect(mover.page.locator("#me .clock.late")).to_be_visible()
    expect(mover.page.locator("#announcer")).to_contain_text(re.compile(r"[1-5] seconds? left on your clock"))
    heard = mover.page.evaluate("window.heard")
    assert not any("10 seconds" in sentence for sentence in heard)
    # Back on its turn, the page says so, and why it is short, before the seconds left (it said only those).
    turn = [i for i, s in enumerate(heard) if "the turn was cut to 5 seconds. Your turn:" in s]
    left = [i for i, s in enumerate(heard) if "left on your clock" in s]
    assert len(turn) == 1 and turn[0] < left[0], heard



def test_the_clocks_last_seconds_are_said_once_a_turn_however_many_tiles_are_drawn(open_page, make_server):
    """"10 seconds left on your clock" was said again after each tile drawn in those seconds (each draw
    changed what says the turn): once a turn, and again on the next turn."""
    server = make_server(TURN_SECONDS=13, **seeded(DRAW_SEED))
    pages = [open_page(), open_page()]
    for page in pages:
        page.context.add_init_script(script=LISTEN)
    ana, bea = Player(pages[0], "Ana"), Player(pages[1], "Bea")
    bea.join(ana.create(server.url, "draw", 2, 100))
    players, stats = [ana, bea], Stats()
    for player in players:
        player.wait_version(2)
    for _ in range(30):  # moves as Player.move makes them, until the one to play must draw
        version = ana.version()
        for player in players:
            player.wait_version(version)
        mover = players[ana.turn()]
        if mover.page.locator("#me [data-action=draw]").count():
            break
        mover.move(stats)
        for player in players:  # the move reached both pages (read before, a page's own turn was stale)
            player.wait_version(version + 1)
    else:
        pytest.fail("nobody had to draw")
    page = mover.page
    expect(page.locator("#me .clock.late")).to_be_visible()
    expect(page.locator("#announcer")).to_contain_text("seconds left on your clock")
    draws = 0
    while page.locator("#me [data-action=draw]").count() and draws < 3:
        version = mover.version()
        mover.press(page.locator("#me [data-action=draw]"))
        mover.wait_version(version + 1)
        draws += 1
    page.wait_for_timeout(1200)  # the page looks at its clock twice a second
    heard = page.evaluate("window.heard")
    assert sum("left on your clock" in s for s in heard) == 1, heard
    assert draws >= 1


# Counts every change inside the page's live regions (text or nodes), as a screen reader notices them.
WATCH_LIVE = """() => { window.liveChanges = [];
  const regions = document.querySelectorAll('[aria-live], [role=status], [role=alert], [role=log]');
  const observer = new MutationObserver(records => records.forEach(r => window.liveChanges.push(
    (r.target.closest ? r.target : r.target.parentElement).closest('[aria-live], [role]').id)));
  regions.forEach(region => observer.observe(region, {childList: true, subtree: true, characterData: true}));
  return regions.length; }"""


def test_the_pause_between_rounds_counts_down_without_being_read_out(open_page, make_server):
    """A round's result stays on screen with the next round's countdown; no live region changes as
    it counts (a screen reader read "30, 30, 30, 29…" for the whole pause), while the seconds shown
    still fall."""
    server = make_server(**seeded(BLOCK_SEED), PAUSE_SECONDS=30)
    players = sit_down(open_page, server, 2, variant="block", phones=())
    stats = Stats()
    while play_one_move(players, stats):
        pass
    page = players[1].page
    clock = page.locator("#result .clock")
    expect(clock).to_be_visible()
    assert page.evaluate(WATCH_LIVE) >= 2  # the announcer and the alerts, at least
    first = int(clock.inner_text())
    page.wait_for_timeout(2600)
    assert int(clock.inner_text()) < first  # it counts down on screen
    assert page.evaluate("window.liveChanges") == []


def test_a_waiting_host_hears_each_seat_taken_and_the_last_to_join_hears_the_start(open_page, make_server):
    """Before the match nothing moves on the felt: what a waiting host hears is each seat taken and
    how many are still awaited, then the first round's start. The player whose seat filled the table
    lands on a new page: it says how the round began and whose turn it is (once)."""
    server = make_server()
    pages = [open_page() for _ in range(3)]
    for page in pages:
        page.context.add_init_script(script=LISTEN)
    ana, bea, carl = (Player(page, name) for page, name in zip(pages, ("Ana", "Bea", "Carl"), strict=True))
    link = ana.create(server.url, "block", 3, 100)
    bea.join(link)
    carl.join(link)  # at once: Bea's page, just loaded, heard the start twice (the push, then its load)
    expect(ana.page.locator("#announcer")).to_contain_text("Round 1 begins")
    heard = ana.page.evaluate("window.heard")
    assert heard.count("Bea took a seat. Waiting for 1 more player.") == 1, heard
    bea.page.wait_for_timeout(700)
    heard = bea.page.evaluate("window.heard")
    assert sum("Round 1 begins" in sentence for sentence in heard) == 1, heard
    expect(carl.page.locator("#announcer")).to_contain_text(re.compile(r"Round 1 begins: \w+ opens"))
    expect(carl.page.locator("#announcer")).to_contain_text(re.compile(r"\w+ to play\."))
    carl.page.wait_for_timeout(700)  # the page's own whole table comes over its websocket meanwhile
    heard = carl.page.evaluate("window.heard")
    assert sum("Round 1 begins" in sentence for sentence in heard) == 1, heard


def test_one_who_takes_a_seat_hears_it_taken(open_page, make_server):
    """A join sends the page to the table as the seat taken: a new page, read and not said, where
    the joiner heard nothing of it while everyone else heard "Bea took a seat."."""
    server = make_server()
    pages = [open_page() for _ in range(2)]
    for page in pages:
        page.context.add_init_script(script=LISTEN)
    ana, bea = Player(pages[0], "Ana"), Player(pages[1], "Bea")
    bea.join(ana.create(server.url, "block", 3, 100))
    said = "Share the link: the match starts when 1 more player joins."
    expect(bea.page.locator("#announcer")).to_contain_text(said)
    bea.page.reload()  # once: a page opened later is read, not said
    bea.page.wait_for_timeout(700)
    assert bea.page.evaluate("window.heard") == []


def test_a_seat_lost_a_while_is_said_and_so_is_its_return_but_not_a_reload(open_page, make_server):
    """A seat's connection lost shows on the felt: a screen reader heard nothing of it until the table
    played for that seat. Said once it lasts 3 s (a reload's moment away is not), and when it is back."""
    server = make_server(**seeded(BLOCK_SEED), PAUSE_SECONDS=300)
    pages = [open_page(), open_page()]
    pages[0].context.add_init_script(script=LISTEN)
    ana, bea = Player(pages[0], "Ana"), Player(pages[1], "Bea")
    link = ana.create(server.url, "block", 2, 100)
    bea.join(link)
    ana.wait_version(2)
    ana.page.wait_for_timeout(700)  # the page's first state read
    bea.page.reload()  # a moment away
    bea.wait_connected()
    ana.page.wait_for_timeout(3500)
    assert not [s for s in ana.page.evaluate("window.heard") if s.startswith("Bea:")]
    url = bea.page.url
    bea.page.goto("about:blank")  # away for good, until it comes back
    expect(ana.page.locator("#announcer")).to_contain_text("Bea: disconnected.", timeout=8000)
    bea.page.goto(url)
    expect(ana.page.locator("#announcer")).to_contain_text("Bea: connected.")
    heard = [s for s in ana.page.evaluate("window.heard") if s.startswith("Bea:")]
    assert heard == ["Bea: disconnected.", "Bea: connected."], heard


def test_after_a_click_the_panel_that_takes_the_focus_shows_no_ring_but_a_key_brings_it_back(open_page,
                                                                                              make_server):
    """A tile clicked goes from the hand, and #me takes its focus (for keyboards): Chromium ringed the
    whole panel in thick blue after every click or tap."""
    server = make_server(**seeded(BLOCK_SEED))  # Bea opens with 6-6
    _, bea = sit_down(open_page, server, 2, variant="block", phones=())
    page, version = bea.page, bea.version()
    wait_first_push(page)
    page.locator("#me button.tile-btn.fits").click()
    bea.wait_version(version + 1)
    expect(page.locator("#me")).to_be_focused()
    outline = "getComputedStyle(document.getElementById('me')).outlineStyle"
    page.wait_for_function(f"{outline} === 'none'")
    page.keyboard.press("Shift")  # a keyboard user: the ring shows where the focus is
    page.wait_for_function(f"{outline} === 'solid'")
