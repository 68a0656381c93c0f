"""People at a table in a real browser: create, join and play only by clicking.

Shared by the browser tests and by screenshot.py. Every helper works through what a person
sees and clicks (forms, glowing tiles, end targets, Pass and Draw buttons); nothing here
posts to the server directly.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from playwright.sync_api import Locator, Page, expect

from helpers.panels import open_panel

AUTO_NOTE = "(played by the table: time ran out)"
# A tile written "a-b" anywhere in a page's markup (not inside a longer word or number).
TILE_TEXT = re.compile(r"(?<![\w-])([0-6])-([0-6])(?![\w-])")


def tile_key(text: str) -> str:
    """A tile in canonical "low-high" form, whatever order it was written in."""
    a, b = sorted(int(n) for n in text.split("-"))
    return f"{a}-{b}"


@dataclass
class Player:
    """One person: their page (its own browser context) and the seat it holds."""

    page: Page
    name: str
    seat: int | None = None
    phone: bool = False  # taps (touch events) instead of mouse clicks
    picked: Callable[[Player], None] | None = None  # run once a tile that fits both ends is picked

    # -- what the page shows ---------------------------------------------------

    def hand(self) -> list[str]:
        """The tiles of this player's own hand, in the order shown."""
        return [tile_key(t) for t in self.page.locator("#hand [data-tile]").evaluate_all(
            "els => els.map(e => e.dataset.tile)")]

    def line(self) -> list[str]:
        """The tiles placed on the line, left to right."""
        return [tile_key(t) for t in self.page.locator("#line [data-tile]").evaluate_all(
            "els => els.map(e => e.dataset.tile)")]

    def line_halves(self) -> list[tuple[int, int]]:
        """The line's tiles as drawn, left to right, each as (left or top half, other half)."""
        labels = self.page.locator("#line .domino").evaluate_all(
            "els => els.map(e => e.getAttribute('aria-label'))")
        return [(int(label[0]), int(label[-1])) for label in labels]

    def open_ends(self) -> tuple[int, int] | None:
        """The two open end numbers the table states, None before the first tile."""
        numbers = [int(t) for t in self.page.locator("#table .ends b").all_inner_texts() if t.isdigit()]
        return (numbers[0], numbers[1]) if numbers else None

    def version(self) -> int:
        return int(self.page.locator("#table").get_attribute("data-version"))

    def turn(self) -> int | None:
        """The seat whose turn the shared panel shows (CSS reads it from the stamp), None between rounds."""
        turn = self.page.locator("#version").get_attribute("data-turn")
        return int(turn) if turn else None

    def round_over(self) -> bool:
        return self.page.locator("#table .result").count() > 0

    def tiles_mentioned(self) -> set[str]:
        """Every tile written anywhere in this page's table and own panel (markup included)."""
        table_id = self.page.url.rstrip("/").rsplit("/", 1)[-1]
        markup = self.page.locator("#table").evaluate("e => e.outerHTML")
        markup += self.page.locator("#me").evaluate("e => e.outerHTML")
        markup = markup.replace(table_id, "")  # the id is random text and may contain "3-5"
        return {f"{min(a, b)}-{max(a, b)}" for a, b in TILE_TEXT.findall(markup)}

    def revealed_hands(self) -> dict[int, list[str]]:
        """At round end: each seat's hand as shown face up (T9)."""
        hands = {}
        for seat_panel in self.page.locator("article.seat").all():
            seat = int(seat_panel.get_attribute("data-seat"))
            reveal = seat_panel.locator(".reveal")
            if reveal.count():
                hands[seat] = [tile_key(t) for t in reveal.locator(".domino").evaluate_all(
                    "els => els.map(e => e.getAttribute('aria-label'))")]
        return hands

    def log(self) -> list[str]:
        # The log is in a panel (Moves) that may be closed: its text, not its rendering.
        return [" ".join(t.split()) for t in self.page.locator("#table ol.log li").all_text_contents()]

    # -- waiting ---------------------------------------------------------------

    def wait_version(self, version: int) -> None:
        """Until this page shows the table at `version` or later (pushed by the websocket)."""
        self.page.wait_for_function(
            "v => Number(document.querySelector('#table')?.dataset.version) >= v", arg=version)

    def wait_connected(self) -> None:
        """Until this player's own seat shows them connected (their websocket is open)."""
        seat = self.page.locator(f"article.seat[data-seat='{self.seat}']")
        expect(seat.locator(".you-badge")).to_be_visible()
        expect(seat).not_to_have_class(re.compile(r"\boffline\b"))

    # -- acting ----------------------------------------------------------------

    def press(self, target: Locator) -> None:
        """Click, or tap on a phone."""
        if self.phone:
            target.tap()
        else:
            target.click()

    def create(self, base_url: str, variant: str = "partnership", seats: int = 4,
               target: int = 100, chat: str | None = None) -> str:
        """Open a table from the home page (its chat rule `chat`: None, the game's); returns the link."""
        page = self.page
        page.goto(base_url + "/")
        page.get_by_label("Your name").fill(self.name)
        page.locator(f"input[name=variant][value={variant}]").check()
        page.locator("select[name=seats]").select_option(str(seats))
        page.locator("select[name=target]").select_option(str(target))
        if chat is not None:
            page.locator("select[name=chat]").select_option(chat)
        self.press(page.get_by_role("button", name="Open a table"))
        page.wait_for_url(re.compile(r"/t/[\w.-]+$"))  # a shard's ids have a dot
        self.seat = 0
        self.wait_connected()
        return page.locator("#share-link").input_value()

    def join(self, link: str) -> int:
        """Open the shared link and take the next seat; returns the seat."""
        page = self.page
        page.goto(link)
        take = page.locator("#me form.join button")
        seat = int(re.search(r"\d+", take.inner_text()).group()) - 1
        page.locator("#me form.join input[name=name]").fill(self.name)
        self.press(take)
        expect(page.locator("main.play")).to_have_attribute("data-you", str(seat))
        self.seat = seat
        self.wait_connected()
        return seat

    def move(self, stats: Stats) -> str:
        """Make this player's move by clicking; returns what was done. It goes by what the page marks
        (classes, data-action, the prompt's data-mine on one's turn), not by its words: any language."""
        me = self.page.locator("#me")
        expect(me.locator("#prompt[data-mine]")).to_have_count(1)
        both = me.locator("label.tile-btn.fits")
        single = me.locator("button.tile-btn.fits")
        draw = me.locator("#actions [data-action=draw]")
        pass_ = me.locator("#actions [data-action=pass]")
        if both.count() or single.count():  # T6, D3: no passing or drawing while a tile fits
            expect(draw).to_have_count(0)
            expect(pass_).to_have_count(0)
        if both.count():  # fits both ends: pick the tile, then an end (alternating the two ways)
            tile = tile_key(both.first.get_attribute("data-tile"))
            self.press(both.first)
            if self.picked:  # a look at the page with the end still to choose (tests/e2e/test_one_screen.py)
                expect(me.locator("#choose-end")).to_be_visible()
                self.picked(self)
            stats.both_ends += 1
            end = "left" if stats.both_ends % 2 else "right"
            if stats.both_ends % 3:
                target = self.page.locator(f"#line .end-target[data-end={end}]")
            else:
                target = me.locator(".choose-end button").nth(0 if end == "left" else 1)
            expect(target).to_be_visible()
            self.press(target)
            stats.placed += 1
            return f"play {tile} {end}"
        if single.count():
            tile = tile_key(single.first.get_attribute("data-tile"))
            self.press(single.first)
            stats.placed += 1
            return f"play {tile}"
        if draw.count():
            expect(pass_).to_have_count(0)  # D3: pass only once the boneyard is empty
            self.press(draw)
            stats.draws += 1
            return "draw"
        expect(pass_).to_be_visible()
        self.press(pass_)
        stats.passes += 1
        return "pass"


@dataclass
class Stats:
    """What the players did in a game, to check that each path was used."""

    placed: int = 0
    both_ends: int = 0
    passes: int = 0
    draws: int = 0
    moves: list[str] = field(default_factory=list)


def seat_players(base_url: str, players: list[Player], variant: str = "partnership",
                 target: int = 100, chat: str | None = None) -> str:
    """The first player opens a table, the others join by its link in turn; returns the link."""
    link = players[0].create(base_url, variant, len(players), target, chat)
    for player in players[1:]:
        player.join(link)
    assert [p.seat for p in players] == list(range(len(players)))
    return link


def wait_first_push(page: Page) -> None:
    """Until the page's websocket has brought its first push (during a round's play): the page's HTML
    already shows the table and its version, but its #unseen is empty until that push fills it."""
    expect(page.locator("#unseen")).not_to_be_empty()


def pump_until(page: Page, done: Callable[[], bool], seconds: float = 10) -> bool:
    """Waits (at most `seconds`) until done(): Playwright's handlers (routes, exposed functions,
    events) run only while the test waits on Playwright, so a plain loop would never see them."""
    deadline = time.monotonic() + seconds
    while not done() and time.monotonic() < deadline:
        page.wait_for_timeout(20)
    return done()


def play_one_move(players: list[Player], stats: Stats) -> Player | None:
    """The player whose turn it is moves; waits until everyone sees the result. None: round over."""
    version = players[0].version()
    for player in players:
        player.wait_version(version)
    seat = players[0].turn()
    if seat is None:
        return None
    actor = players[seat]
    stats.moves.append(f"{actor.name}: {actor.move(stats)}")
    for player in players:
        player.wait_version(version + 1)
    return actor


# Whether the line's two open ends are in the viewport, clear of the viewer's panel (#me).
ENDS_IN_SIGHT = """() => { const box = id => document.getElementById(id).getBoundingClientRect();
  return ["end-left", "end-right"].every(id => box(id).top >= 0 && box(id).bottom <= box("me").top); }"""


# -- seated tables shared by several browser tests -------------------------------------------------

NAMES = ("Ana", "Bea", "Carl", "Dan")
# Seeds whose first deal, played with Player.move's choices, uses the paths named.
PARTNERSHIP_SEED = 4  # Ana opens; a tile fits both ends 5 times; 4 passes; 28 moves
BLOCK_SEED = 3  # Bea opens with 6-6; tiles fit both ends twice, 2 passes, the round blocks
DRAW_SEED = 2  # Bea opens with 3-3; 4 draws from the boneyard
SEAT_BACK_SEED = 1  # the Block deal two_at_block plays


def play_round(players: list[Player]) -> None:
    """Play moves by clicking until the round ends (at most 200)."""
    stats = Stats()
    for _ in range(200):
        if play_one_move(players, stats) is None:
            return
    raise AssertionError("the round did not end")


def seeded(seed: int) -> dict:
    """Server settings that deal from a seeded generator."""
    return {"TABLES_OPTIONS": {"rng": random.Random(seed)}}


def sit_down(open_page, server, seats: int, variant: str = "partnership", target: int = 100,
             phones=(1, 3)) -> list[Player]:
    """Seat `seats` people (those at `phones` on phone-sized screens) at a new table."""
    players = [Player(open_page(phone=seat in phones), NAMES[seat], phone=seat in phones)
               for seat in range(seats)]
    seat_players(server.url, players, variant, target)
    for player in players:
        player.wait_version(seats)  # one version per join
    return players


def two_at_block(open_page, make_server) -> tuple[object, list[Player], str]:
    """Ana (desktop) and Bea (phone) seated at a Block table, long pause; returns (server, players, link)."""
    server = make_server(TABLES_OPTIONS={"rng": random.Random(SEAT_BACK_SEED)}, PAUSE_SECONDS=300)
    players = [Player(open_page(), NAMES[0]), Player(open_page(phone=True), NAMES[1], phone=True)]
    link = seat_players(server.url, players, "block", 100)
    for player in players:
        player.wait_version(2)
    return server, players, link


def private_link(player: Player) -> str:
    """What a player sees when they open their private link (copyable)."""
    page = player.page
    open_panel(page)  # the private link is in the table's menu
    page.locator("#seat-link summary").click()
    page.get_by_role("button", name="Show my link").click()
    field = page.locator("#seat-link-input")
    expect(field).to_be_visible()
    return field.input_value()
