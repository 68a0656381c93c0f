"""Issue 43 on the production command (gunicorn, one gevent worker) and Debian's Chromium: a reload
on one's own turn costs nothing (S4's 3-second settle), a page frozen by the browser keeps its seat
and catches up on thaw, and an absent host's choices pass to the acting host (T13)."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from helpers.page_probes import LISTEN, freeze, thaw
from helpers.players import Player, Stats, seat_players
from helpers.shards import Shard

pytestmark = pytest.mark.browser

# Records the fewest seconds the page ever showed on the clock of seat `window.watched` (-1: none).
WATCH = """window.fewest = {};
setInterval(function () {
  document.querySelectorAll(".clock-line:not([hidden]) .clock").forEach(function (el) {
    var seat = el.closest(".clock-line").id.slice(6), shown = Number(el.textContent);
    if (!el.textContent) return;
    if (!(seat in window.fewest) || shown < window.fewest[seat]) window.fewest[seat] = shown;
  });
}, 50);"""


@pytest.fixture(scope="module")
def production(tmp_path_factory):
    """The README's production command with the rules' own times (S3, S4 and its settle)."""
    shard = Shard("p", tmp_path_factory.mktemp("presence"), FICHAS_TABLES_PER_MINUTE="600",
                  FICHAS_PING_SECONDS="5")
    try:
        yield shard.start()
    finally:
        shard.stop()


@pytest.fixture(scope="module")
def production_t13(tmp_path_factory):
    """The production command with T13's wait short (the clock's unit tests check the 60 s) and a long
    pause, so that the round waits for whoever may start it."""
    shard = Shard("h", tmp_path_factory.mktemp("presence-t13"), FICHAS_TABLES_PER_MINUTE="600",
                  FICHAS_HOST_AWAY_SECONDS="4", FICHAS_PAUSE_SECONDS="600", FICHAS_TURN_SECONDS="1")
    try:
        yield shard.start()
    finally:
        shard.stop()


def two_seated(url: str, open_page) -> tuple[Player, Player]:
    """Ana and Bea at a Block table for two, its first round dealt; returns (to move, the other)."""
    ana, bea = Player(open_page(), "Ana"), Player(open_page(), "Bea")
    for player in (ana, bea):
        player.page.context.add_init_script(script=WATCH)
    seat_players(url, [ana, bea], "block")
    for player in (ana, bea):
        player.wait_version(2)
    return (ana, bea) if ana.turn() == 0 else (bea, ana)


def fewest_seconds(player: Player, seat: int) -> int:
    return player.page.evaluate("s => window.fewest[s]", str(seat))


def test_s4_a_reload_in_the_first_second_of_ones_turn_keeps_the_turn(production, open_page):
    mover, other = two_seated(production.url, open_page)
    started = time.monotonic()
    mover.page.reload()  # in the first second of the turn (the deal)
    expect(mover.page.locator("#me.my-turn")).to_be_visible()
    mover.wait_connected()
    assert time.monotonic() - started < 5
    version = mover.version()
    done = mover.move(Stats())
    other.wait_version(version + 1)
    assert "played by the table" not in " ".join(other.log()), (done, other.log())  # the move is the player's
    assert fewest_seconds(other, mover.seat) >= 40, other.page.evaluate("window.fewest")
    assert not other.page.locator(f"article.seat[data-seat='{mover.seat}']").get_attribute("class").count(
        "offline")


def test_s4_a_page_frozen_15_seconds_at_the_start_of_its_turn_keeps_it_and_catches_up(production, open_page):
    mover, other = two_seated(production.url, open_page)
    version = mover.version()
    cdp = freeze(mover)
    time.sleep(15)
    # Meanwhile the others saw the turn run on: never cut to S4's 5 s, nor played by the table.
    assert fewest_seconds(other, mover.seat) >= 28, other.page.evaluate("window.fewest")
    assert other.version() == version and other.turn() == mover.seat
    thaw(cdp)
    thawed = time.monotonic()
    # Within a second the page shows its turn with the time really left (about 30 s, never 45).
    mover.page.wait_for_function(
        "() => { const c = document.querySelector('#prompt .clock');"
        " return document.querySelector('#me.my-turn') && c && Number(c.textContent) <= 31; }", timeout=1000)
    assert time.monotonic() - thawed < 1.5
    assert int(mover.page.locator("#prompt .clock").inner_text()) >= 25
    done = mover.move(Stats())
    other.wait_version(version + 1)
    assert "played by the table" not in " ".join(other.log()), done


def test_s4_a_page_thawed_after_a_move_shows_the_current_clock_and_what_it_missed(production, open_page):
    """Frozen while the other plays: the push of its own turn waits in the browser, with the time left
    when it was sent. Thawed, the page asks for the table: its clock shows the time left now."""
    mover, frozen = two_seated(production.url, open_page)
    version = mover.version()
    cdp = freeze(frozen)
    mover.move(Stats())  # now the frozen page's turn
    mover.wait_version(version + 1)
    time.sleep(10)
    thaw(cdp)
    frozen.page.wait_for_function(
        "() => { const c = document.querySelector('#prompt .clock');"
        " return document.querySelector('#me.my-turn') && c && Number(c.textContent) <= 36; }", timeout=1000)
    expect(frozen.page.locator("#away")).to_have_text("1 move while you were away.", timeout=2000)


@pytest.fixture(scope="module")
def production_short_turns(tmp_path_factory):
    """The production command with 4-second turns: the table plays for a page frozen on its turn."""
    shard = Shard("s", tmp_path_factory.mktemp("presence-short"), FICHAS_TABLES_PER_MINUTE="600",
                  FICHAS_TURN_SECONDS="4")
    try:
        yield shard.start()
    finally:
        shard.stop()


def test_s3_a_page_thawed_after_the_table_played_for_it_says_so(production_short_turns, open_page):
    """Frozen past its turn's end (its socket alive: no disconnection), the table played for it (S3);
    thawed, the page says what it missed and that the table moved for it."""
    players = [Player(open_page(), name) for name in ("Ana", "Bea", "Cai")]
    seat_players(production_short_turns.url, players, "block", target=500)
    for player in players:
        player.wait_version(3)
    frozen = players[players[0].turn()]
    cdp = freeze(frozen)
    time.sleep(6)  # its turn ran out at 4 s; the next seat's runs until 8 s
    thaw(cdp)
    expect(frozen.page.locator("#away")).to_have_text(
        "1 move while you were away. Your time ran out: the table made your move.", timeout=2000)


def post_from(player: Player, path: str, fields: dict) -> int:
    """A form posted from the player's page (its cookie and CSRF token); the answer's status."""
    return player.page.evaluate(
        """([path, fields]) => { const body = new FormData();
             for (const [k, v] of Object.entries(fields)) body.append(k, v);
             body.append("csrf_token", document.querySelector("meta[name=csrf-token]").content);
             return fetch(location.pathname + path, {method: "POST", body: body}).then(r => r.status); }""",
        [path, fields])


def test_t13_the_acting_host_starts_the_next_round_and_hands_a_seat_over_nobody_else(production_t13,
                                                                                     open_page):
    names = ["Ana", "Bea", "Cai", "Dan"]
    players = [Player(open_page(), name) for name in names]
    players[1].page.context.add_init_script(script=LISTEN)
    link = seat_players(production_t13.url, players, "block", target=500)  # no round ends the match
    host, acting, other, leaving = players
    # The table plays every turn after 1 s: the round ends by itself, and waits for the host.
    expect(host.page.get_by_role("button", name="Start the next round now")).to_be_visible(timeout=120_000)
    for player in (acting, other):
        expect(player.page.get_by_role("button", name="Start the next round now")).to_have_count(0)
    # Dan leaves, Zoe asks for his seat; then the host closes the table's page.
    leaving.page.close()
    zoe = Player(open_page(link), "Zoe")
    zoe.page.locator("#ask-name").fill("Zoe")
    zoe.page.get_by_role("button", name="Ask for a seat").click()
    expect(host.page.get_by_role("button", name="Give Dan's seat to Zoe")).to_be_visible()
    host_context = host.page.context
    host.page.close()
    # Within T13's wait the host's choices stay the host's ...
    time.sleep(1)
    expect(acting.page.get_by_role("button", name="Start the next round now")).to_have_count(0)
    # ... then Bea, the first seat after the host with a page open, stands in; Cai does not.
    expect(acting.page.get_by_role("button", name="Start the next round now")).to_be_visible(timeout=8000)
    expect(acting.page.locator("#prompt")).to_contain_text("Ana, the host, is away: you stand in.")
    heard = acting.page.evaluate("window.heard")  # and a screen reader is told
    told = "Ana, the host, is away: you stand in. Start the next round"
    assert any(sentence.startswith(told) for sentence in heard), heard
    expect(other.page.get_by_role("button", name="Start the next round now")).to_have_count(0)
    expect(other.page.locator("#prompt")).to_contain_text(  # the others are told who stands in
        "Ana, the host, is away: Bea stands in and can start the next round.")
    version = str(other.version())
    assert post_from(other, "/next-round", {"version": version}) == 403
    assert post_from(other, "/hand-over", {"version": version, "seat": "3", "ask": "x"}) == 403
    acting.page.get_by_role("button", name="Give Dan's seat to Zoe").click()
    expect(zoe.page.locator("main.play")).to_have_attribute("data-you", "3")
    # The host back: both choices are the host's again.
    host.page = host_context.new_page()
    host.page.goto(link)
    expect(host.page.get_by_role("button", name="Start the next round now")).to_be_visible()
    expect(acting.page.get_by_role("button", name="Start the next round now")).to_have_count(0)
    version = str(acting.version())
    assert post_from(acting, "/next-round", {"version": version}) == 403
    assert post_from(acting, "/hand-over", {"version": version, "seat": "3", "ask": "x"}) == 403
    host.page.get_by_role("button", name="Start the next round now").click()
    expect(acting.page.locator("#table")).to_have_attribute("data-phase", "playing")
