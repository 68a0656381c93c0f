"""Refused and repeated moves in a real Chromium: what a player sees, moves made only by clicking.

To make a page miss a push, its websocket is routed through Playwright, which holds back the
table's pushes to it for a moment; elsewhere the frames a page sends and receives are watched.
"""

from __future__ import annotations

import json
import re
import time

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from helpers.panels import open_panel
from helpers.players import BLOCK_SEED, Player, Stats, seeded, sit_down, wait_first_push

pytestmark = pytest.mark.browser


class HeldPushes:
    """A page's websocket routed through Playwright, so the table's pushes to it can be held back.

    Set up before the page opens its websocket; what the page sends goes straight through.
    """

    def __init__(self, page: Page):
        self.holding = False  # while True, pushes of the table wait in `held`
        self.held: list[str] = []
        page.route_web_socket(re.compile(r"/t/[\w.-]+/ws$"), self._connect)

    def _connect(self, page_side: WebSocketRoute) -> None:
        self.page_side = page_side
        page_side.connect_to_server().on_message(self._from_server)

    def _from_server(self, message: str) -> None:
        if self.holding and 'id="version"' in message:  # a whole #table, or its changed pieces
            self.held.append(message)
        else:
            self.page_side.send(message)

    def release(self) -> None:
        """Deliver the held pushes, in order, and stop holding."""
        self.holding = False
        for message in self.held:
            self.page_side.send(message)
        self.held.clear()


def watching(open_page, frames: dict):
    """open_page, keeping every websocket frame each page sends and receives (frames[page])."""
    def open_(phone: bool = False) -> Page:
        page = open_page(phone=phone)
        sent, received = [], []
        frames[page] = {"sent": sent, "received": received}

        def watch(ws) -> None:
            ws.on("framesent", lambda payload: sent.append(payload))
            ws.on("framereceived", lambda payload: received.append(payload))

        page.on("websocket", watch)
        return page
    return open_


def server_version(server, page: Page) -> int:
    """The version of the table the page shows, as the server holds it."""
    return server.app.extensions["fichas"].tables.get(page.url.rsplit("/", 1)[-1]).version


def test_a_move_clicked_on_a_page_that_missed_a_push_is_refused_readably_then_the_page_catches_up(
        open_page, make_server):
    """A tile clicked on a tab that missed the last push is refused with a message; the tab then catches up.

    Two tabs of the seat whose turn it is (one browser, so one seat cookie): the pushes to the
    second tab are held back while the first tab places a tile. Holding a page's pushes while
    *another* player moves leaves nothing to click: that stale page shows the other's turn.
    """
    server = make_server(**seeded(BLOCK_SEED))  # Bea opens with 6-6
    ana, bea = sit_down(open_page, server, 2, variant="block", phones=())
    version = bea.version()
    second_tab = Player(bea.page.context.new_page(), bea.name, bea.seat)
    pushes = HeldPushes(second_tab.page)
    second_tab.page.goto(bea.page.url)
    second_tab.wait_connected()

    pushes.holding = True
    bea.move(Stats())  # the first tab places Bea's tile
    ana.wait_version(version + 1)
    line = ana.line()
    second_tab.move(Stats())  # the tile still glows on the second tab: click it there
    expect(second_tab.page.locator("#flash")).to_contain_text(
        "The table changed just before your move arrived")
    # Said out loud too: copied into the assertive region, outside every swapped part.
    expect(second_tab.page.locator("#alerts")).to_contain_text(
        "The table changed just before your move arrived")
    assert second_tab.version() == version  # it still shows the table before the move
    assert server_version(server, ana.page) == version + 1  # the click changed nothing
    assert ana.line() == line and len(ana.log()) == 1

    pushes.release()
    second_tab.wait_version(version + 1)
    assert second_tab.line() == line
    expect(second_tab.page.locator("#me .prompt")).to_contain_text("Waiting for your turn")
    expect(second_tab.page.locator("#me .tile-btn.fits")).to_have_count(0)


def test_a_quick_double_click_on_a_tile_places_it_once_and_shows_no_error(open_page, make_server):
    """A double click on a glowing tile sends the move twice, places it once and shows no error."""
    server = make_server(**seeded(BLOCK_SEED))  # Bea opens with 6-6
    frames = {}  # watched, not routed: a routed socket opens late and wipes the name typed to join
    players = sit_down(watching(open_page, frames), server, 2, variant="block", phones=())
    ana, bea = players
    version = bea.version()
    tile = bea.page.locator("#me button.tile-btn.fits")
    expect(tile).to_have_count(1)

    tile.dblclick()
    for player in players:
        player.wait_version(version + 1)
        assert player.version() == version + 1
        assert player.line() == ["6-6"]
    assert server_version(server, bea.page) == version + 1
    expect(bea.page.locator("#flash")).to_be_empty()
    sent = [json.loads(m) for m in frames[bea.page]["sent"]]
    sent = [(m["action"], m["tile"], m["version"]) for m in sent]
    assert sent == [("play", "6-6", str(version))] * 2, "the double click did not send the move twice"

    ana.move(Stats())  # the game goes on: the next move is the next version, by the next player
    for player in players:
        player.wait_version(version + 2)
    assert server_version(server, bea.page) == version + 2
    assert [entry.split()[0] for entry in ana.log()] == ["Ana", "Bea"]
    refusals = [m for m in frames[bea.page]["received"] if "flash-error" in m]
    assert not refusals, f"Bea's page was sent a refusal: {refusals}"


def test_a_name_being_typed_survives_someone_else_taking_a_seat(open_page, make_server):
    """Another guest joining redraws the join form ("Take seat 3"); the name being typed stays."""
    server = make_server()
    ana = Player(open_page(), "Ana")
    link = ana.create(server.url, variant="block", seats=3)
    carl_page = open_page(link)
    carl_page.locator("#me form.join input[name=name]").fill("Carl")
    Player(open_page(), "Bea").join(link)
    take = carl_page.get_by_role("button", name="Take seat 3")
    expect(take).to_be_visible()  # the push reached Carl's page and redrew the form
    expect(carl_page.locator("#me form.join input[name=name]")).to_have_value("Carl")
    take.click()
    expect(carl_page.locator("main.play")).to_have_attribute("data-you", "2")
    expect(carl_page.locator("article.seat[data-seat='2'] h3")).to_contain_text("Carl")


class DeadLine:
    """A page's websocket routed through Playwright whose connection can go silent both ways, as
    a phone's does when it changes networks: the browser still thinks it is open."""

    def __init__(self, page: Page):
        self.connections = 0
        self.dead: set[int] = set()  # numbers of the connections gone silent
        page.route_web_socket(re.compile(r"/t/[\w.-]+/ws$"), self._connect)

    def cut(self) -> None:
        """Silence the current connection (later ones work)."""
        self.dead.add(self.connections)

    def _connect(self, page_side: WebSocketRoute) -> None:
        self.connections += 1
        number, server_side = self.connections, page_side.connect_to_server()
        page_side.on_message(lambda message: number in self.dead or server_side.send(message))
        server_side.on_message(lambda message: number in self.dead or page_side.send(message))


def test_a_move_into_a_dead_connection_reconnects_and_the_move_can_be_made_again(open_page, make_server):
    """No answer to a move within seconds: the page reconnects by itself and the tile works again."""
    server = make_server(**seeded(BLOCK_SEED))  # Bea opens with 6-6
    ana, bea = sit_down(open_page, server, 2, variant="block", phones=())
    version = bea.version()
    line = DeadLine(bea.page)
    bea.page.reload()  # its websocket now goes through the route
    bea.wait_connected()
    wait_first_push(bea.page)  # the reloaded HTML may show the seat connected before the new socket opens
    assert line.connections == 1

    line.cut()
    bea.page.locator("#me button.tile-btn.fits").click()  # lost on the way
    for _ in range(100):  # the page gives the move 4 s for an answer, then reconnects
        if line.connections == 2:
            break
        bea.page.wait_for_timeout(100)
    assert line.connections == 2, "the page did not reconnect"
    assert server_version(server, ana.page) == version  # the lost move changed nothing
    expect(bea.page.locator("#connection")).to_be_hidden()

    bea.page.locator("#me button.tile-btn.fits").click()
    for player in (ana, bea):
        player.wait_version(version + 1)
        assert player.line() == ["6-6"]


class Outage:
    """A page's websocket routed through Playwright that can be cut, and kept from reconnecting, as
    when the server is down (closed with `code`: 1011, after which htmx tries again; 1000 or 1001, a
    proxy going away cleanly, which htmx leaves to the page)."""

    def __init__(self, page: Page, code: int = 1011):
        self.down, self.current, self.refused, self.code = False, None, 0, code
        page.route_web_socket(re.compile(r"/t/[\w.-]+/ws$"), self._connect)

    def start(self) -> None:
        self.down = True
        self.current.close(code=self.code)

    def _connect(self, page_side: WebSocketRoute) -> None:
        if self.down:
            self.refused += 1
            page_side.close(code=self.code)
            return
        self.current = page_side
        page_side.connect_to_server()


def test_while_the_connection_is_down_the_page_says_so_in_sight_and_sends_no_move(open_page, make_server):
    server = make_server(**seeded(BLOCK_SEED))  # Bea opens with 6-6
    ana, bea = sit_down(open_page, server, 2, variant="block", phones=())
    page, version = bea.page, bea.version()
    outage = Outage(page)
    page.reload()  # its websocket now goes through the route
    bea.wait_connected()
    wait_first_push(page)
    banner, alerts = page.locator("#connection"), page.locator("#alerts")
    page.locator("#me button.tile-btn.fits").scroll_into_view_if_needed()  # down at the hand
    expect(banner).to_be_hidden()

    outage.start()
    expect(banner).to_be_visible()
    expect(banner).to_be_in_viewport()  # pinned: seen wherever the page is scrolled
    expect(alerts).to_contain_text("Reconnecting")
    expect(page.locator("article.seat .dot").first).to_have_css("background-color", "rgb(170, 170, 170)")
    # Nobody is said to be connected: the page cannot know (the dots' words were "connected").
    expect(page.get_by_role("img", name="connected")).to_have_count(0)
    expect(page.locator("article.seat .dot[title]")).to_have_count(0)  # nor a tooltip that says so
    page.locator("#me button.tile-btn.fits").click()  # not sent: htmx would play it on reconnection
    page.wait_for_timeout(300)

    outage.down = False  # the server is back: htmx's next try connects
    expect(banner).to_be_hidden(timeout=30_000)
    expect(alerts).to_contain_text("Connected again.")
    wait_first_push(page)
    expect(page.get_by_role("img", name="connected")).to_have_count(2)
    page.wait_for_timeout(500)
    assert server_version(server, ana.page) == version  # the tap made while down was never played
    page.locator("#me button.tile-btn.fits").click()
    for player in (ana, bea):
        player.wait_version(version + 1)
        assert player.line() == ["6-6"]


@pytest.mark.parametrize("code", [1000, 1001])
def test_a_clean_close_from_a_proxy_is_tried_again_until_the_table_is_back(open_page, make_server, code):
    """htmx tries again only after 1006, 1011, 1012 and 1013: a close with 1000 or 1001 (a proxy or
    a server going away cleanly) left the page on "Reconnecting…" until it was reloaded."""
    server = make_server(**seeded(BLOCK_SEED))  # Bea opens with 6-6
    ana, bea = sit_down(open_page, server, 2, variant="block", phones=())
    page, version = bea.page, bea.version()
    outage = Outage(page, code)
    page.reload()
    bea.wait_connected()
    wait_first_push(page)
    outage.start()
    expect(page.locator("#connection")).to_be_visible()
    expect(page.locator("#alerts")).to_contain_text("Reconnecting")
    for _ in range(100):  # its first try closes cleanly too: it goes on (routes run while Playwright waits)
        if outage.refused:
            break
        page.wait_for_timeout(100)
    assert outage.refused, "the page did not try again"
    outage.down = False
    expect(page.locator("#connection")).to_be_hidden(timeout=30_000)
    expect(page.locator("#alerts")).to_contain_text("Connected again.")
    wait_first_push(page)
    page.locator("#me button.tile-btn.fits").click()
    for player in (ana, bea):
        player.wait_version(version + 1)
        assert player.line() == ["6-6"]


def test_a_proxy_that_lets_the_page_in_and_closes_at_once_is_tried_ever_more_slowly(open_page, make_server):
    """A socket that opens and is closed cleanly at once, again and again (a proxy draining its
    connections), must not make the page reconnect every second for as long as it lasts."""
    server = make_server(**seeded(BLOCK_SEED))
    _, bea = sit_down(open_page, server, 2, variant="block", phones=())
    page, opened = bea.page, []

    def flap(page_side: WebSocketRoute) -> None:
        opened.append(page_side)
        if len(opened) == 1:  # the page's first socket works
            page_side.connect_to_server()
            return
        table = page_side.connect_to_server()  # in, its whole table sent, and out

        def forward_and_close(message) -> None:
            page_side.send(message)
            page_side.close(code=1001)
        table.on_message(forward_and_close)

    page.route_web_socket(re.compile(r"/t/[\w.-]+/ws$"), flap)
    page.reload()
    bea.wait_connected()
    wait_first_push(page)
    opened[0].close(code=1001)
    page.wait_for_timeout(12_000)
    # Pauses of 0.5-1, 1-2, 2-4 and 4-8 s: at most five tries in 12 s (a pause that started again at
    # each open made ten to twenty).
    assert 2 <= len(opened) - 1 <= 5, len(opened) - 1


def test_after_a_long_outage_a_page_is_back_within_seconds_of_the_server(open_page, make_server):
    """htmx's waits between tries doubled up to 64 s: after a 20 s outage, pages came back up to 45 s
    after the server, past the restart's grace, and the table played their turns (restart test). The
    waits stay random, so that a restarted server's pages do not all come back at once, but under 8 s."""
    server = make_server(**seeded(BLOCK_SEED))
    _, bea = sit_down(open_page, server, 2, variant="block", phones=())
    page = bea.page
    outage = Outage(page)
    page.reload()
    bea.wait_connected()
    wait_first_push(page)
    outage.start()
    expect(page.locator("#connection")).to_be_visible()
    waits = page.evaluate("[...Array(3000).keys()].map(n => htmx.config.wsReconnectDelay(1 + n % 12))")
    assert max(waits) <= 8000 and max(waits) > 7000 and min(waits) < 500  # spread, and never long
    page.wait_for_timeout(16_000)  # the server is down long enough for htmx's own waits to reach 16-32 s
    tries = outage.refused
    outage.down = False
    back = time.monotonic()
    expect(page.locator("#connection")).to_be_hidden(timeout=20_000)
    assert time.monotonic() - back < 9, (tries, time.monotonic() - back)
    expect(page.locator("#alerts")).to_contain_text("Connected again.")


def test_a_move_lost_as_the_connection_died_is_said_once_the_page_is_back(open_page, make_server):
    """A move sent as the server stopped never reached the table: the page came back with the tile in
    the hand and not a word (restart test). It now says so, and the move can be made again."""
    server = make_server(**seeded(BLOCK_SEED))  # Bea opens with 6-6
    ana, bea = sit_down(open_page, server, 2, variant="block", phones=())
    page, version, dropped = bea.page, bea.version(), []

    def connect(page_side: WebSocketRoute) -> None:
        table = page_side.connect_to_server()

        def forward(message) -> None:
            if not dropped and '"action"' in str(message) and "play" in str(message):
                dropped.append(message)  # lost on its way: the connection dies with it
                page_side.close(code=1011)
                table.close()
                return
            table.send(message)
        page_side.on_message(forward)

    page.route_web_socket(re.compile(r"/t/[\w.-]+/ws$"), connect)
    page.reload()
    bea.wait_connected()
    wait_first_push(page)
    page.locator("#me button.tile-btn.fits").click()
    told = "Your last move did not reach the table: make it again."
    expect(page.locator("#flash")).to_contain_text(told, timeout=15_000)
    expect(page.locator("#alerts")).to_contain_text(told)  # said too
    assert dropped and server_version(server, ana.page) == version
    page.locator("#me button.tile-btn.fits").click()  # and made again
    for player in (ana, bea):
        player.wait_version(version + 1)
        assert player.line() == ["6-6"]
    expect(page.locator("#flash")).not_to_contain_text(told)


def test_the_one_who_loses_the_race_for_the_last_seat_is_told_why(open_page, make_server):
    """Two friends press "Take seat 2" at once: the push of the other's join replaces the form (and
    its #flash) before the refusal comes back; it is shown and said all the same."""
    server = make_server(**seeded(BLOCK_SEED))
    ana = Player(open_page(), "Ana")
    link = ana.create(server.url, "block", 2, 100)
    bea, cai = open_page(), open_page()
    for page, name in ((bea, "Bea"), (cai, "Cai")):
        page.goto(link)
        page.locator("#me form.join input[name=name]").fill(name)
    held = []  # Cai's request, held until Bea's join has reached Cai's page
    cai.route(re.compile(r"/join$"), lambda route: held.append(route))
    cai.locator("#me form.join button").click()
    bea.locator("#me form.join button").click()
    expect(bea.locator("main.play")).to_have_attribute("data-you", "1")
    expect(cai.locator("#me form.join")).to_have_count(0)  # the push took the form away
    assert len(held) == 1
    held[0].continue_()
    expect(cai.locator("#flash")).to_contain_text("Every seat is taken: you can watch this table.")
    expect(cai.locator("#alerts")).to_contain_text("Every seat is taken")
    assert not cai.locator("[aria-invalid]").count()  # not the name's fault


def test_a_missing_name_is_refused_in_the_page_s_language_and_said(open_page, make_server):
    """The browser's own "Please fill out this field." bubble spoke the browser's language: the
    server's refusal speaks the page's, and the name field is described by it."""
    server = make_server(**seeded(BLOCK_SEED))
    link = Player(open_page(), "Ana").create(server.url, "block", 2, 100)
    friend = open_page()
    friend.goto(link)
    open_panel(friend)  # the languages are in the table's menu
    friend.get_by_role("link", name="ES").click()  # Español: in place, once its answer is in
    expect(friend.locator("html")).to_have_attribute("lang", "es")
    friend.locator("#me form.join button").click()
    expect(friend.locator("#flash")).to_have_text("Escribe tu nombre.")
    expect(friend.locator("#alerts")).to_contain_text("Escribe tu nombre.")
    expect(friend.locator("#join-name")).to_have_attribute("aria-describedby", "flash")
    # Marked and focused, as the home page's form does (an accessibility audit: focus stayed on the button).
    expect(friend.locator("#join-name")).to_have_attribute("aria-invalid", "true")
    expect(friend.locator("#join-name")).to_be_focused()
    expect(friend.locator("main.play")).to_have_attribute("data-you", "")
    friend.keyboard.type("Bea")
    expect(friend.locator("#join-name")).not_to_have_attribute("aria-invalid", "true")


def test_a_name_with_emoji_is_taken_whole_and_too_long_a_name_is_refused_not_cut(open_page, make_server):
    """A browser's maxlength counts UTF-16 units, eleven for a family emoji: a field as long as the
    server's 24 characters cut a name it takes inside an emoji as it was pasted. The field holds any
    name the server takes; one too long is refused with a message, the field keeping it."""
    server = make_server(**seeded(BLOCK_SEED))
    link = Player(open_page(), "Ana").create(server.url, "block", 3, 100)
    family = "\U0001F468\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466"  # seven characters
    name = "Zoë " + family * 2  # 18 characters, 26 UTF-16 units
    friend = open_page()
    friend.goto(link)
    field = friend.locator("#join-name")
    field.focus()
    friend.keyboard.insert_text("x" * 25)  # pasted
    friend.locator("#me form.join button").click()
    expect(friend.locator("#flash")).to_have_text("A name has at most 24 characters.")
    expect(field).to_have_value("x" * 25)
    field.fill("")
    field.focus()
    friend.keyboard.insert_text(name)
    expect(field).to_have_value(name)
    friend.locator("#me form.join button").click()
    expect(friend.locator("main.play")).to_have_attribute("data-you", "1")
    expect(friend.locator("#table article.seat[data-seat='1'] .name")).to_have_text(name)
