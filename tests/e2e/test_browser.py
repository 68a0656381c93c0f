"""Real games in a real Chromium: people create, join and play only by clicking.

Every player has their own browser context (own cookies), some phone-sized. Deals are seeded
(the server's TABLES_OPTIONS rng) so that each path a person can take (a tile that fits both
ends, Pass, Draw) comes up; the players' choices are fixed too (helpers.players.Player.move).
"""

from __future__ import annotations

import itertools
import re

import pytest
from playwright.sync_api import expect

from helpers.players import (
    AUTO_NOTE,
    BLOCK_SEED,
    DRAW_SEED,
    ENDS_IN_SIGHT,
    PARTNERSHIP_SEED,
    Player,
    Stats,
    play_one_move,
    seeded,
    sit_down,
    tile_key,
)

pytestmark = pytest.mark.browser

OFFLINE = re.compile(r"\boffline\b")


def check_privacy(players: list[Player]) -> None:
    """Before the round ends each page shows its own hand and never another's (S2, views)."""
    hands = {p.seat: set(p.hand()) for p in players}
    for player in players:
        expect(player.page.locator(".reveal")).to_have_count(0)
        others = set().union(*(hands[s] for s in hands if s != player.seat))
        assert not hands[player.seat] & others, f"{player.name} shows another player's tile"
        line = set(player.line())
        # No domino drawn anywhere but the line and one's own hand, labelled or not.
        expect(player.page.locator("#table .domino")).to_have_count(len(line))
        expect(player.page.locator("#me .domino")).to_have_count(len(hands[player.seat]))
        shown = player.tiles_mentioned()
        leaked = shown - hands[player.seat] - line
        assert not leaked, f"{player.name}'s page mentions tiles it may not see: {sorted(leaked)}"


def check_line(players: list[Player]) -> None:
    """T3, T4: touching halves match and the line's outer halves are the two open ends."""
    for player in players:
        halves = player.line_halves()
        assert all(a[1] == b[0] for a, b in itertools.pairwise(halves)), f"{player.name} sees {halves}"
        assert player.open_ends() == (halves[0][0], halves[-1][1]), f"{player.name} sees {halves}"


def check_move(players: list[Player]) -> None:
    """After each move: nobody was played for (45-second turns), the line, and privacy."""
    expect(players[0].page.locator("#table .log .auto")).to_have_count(0)
    check_line(players)
    if not players[0].round_over():
        check_privacy(players)


def play_round(players: list[Player], stats: Stats) -> None:
    """Everyone plays by clicking until the round ends, with the checks after every move."""
    for _ in range(200):
        if play_one_move(players, stats) is None:
            return
        check_move(players)
    raise AssertionError(f"the round did not end: {stats.moves}")


def check_reveal(players: list[Player], final_hands: dict[int, list[str]]) -> None:
    """T9: every page shows the result and every seat's remaining hand face up."""
    for player in players:
        result = player.page.locator("#table .result")
        expect(result).to_be_visible()
        expect(result).to_contain_text(re.compile(r"placed their last tile|Blocked: nobody could place"))
        expect(player.page.locator("article.seat .reveal")).to_have_count(len(players))
        assert player.revealed_hands() == final_hands


def test_t9_four_players_play_a_round_by_clicking_and_see_all_hands_at_the_end(open_page, make_server):
    server = make_server(**seeded(PARTNERSHIP_SEED))
    players = sit_down(open_page, server, 4, target=50)

    hands = [p.hand() for p in players]  # P2: seven each, all 28 tiles, nobody sees another's
    assert [len(h) for h in hands] == [7, 7, 7, 7]
    assert len(set().union(*map(set, hands))) == 28
    check_privacy(players)
    for player in players:
        expect(player.page.locator("#version")).to_have_attribute("data-turn", "0")

    stats = Stats()
    final_hands = {}
    play_round(players, stats)
    for player in players:  # the same page still lists its own hand after the last move
        final_hands[player.seat] = player.hand()
    assert stats.both_ends >= 3 and stats.passes >= 1, f"the seeded deal no longer covers: {stats}"
    check_reveal(players, final_hands)
    for player in players:  # the move log numbers its entries from the round's first move
        latest = player.page.locator("#table ol.log li").first  # numbered by its move
        expect(latest).to_have_attribute("value", str(len(stats.moves)))
    assert sum(len(h) for h in final_hands.values()) + len(players[0].line()) == 28

    # T10: only the host may start the next round early; P4: the next seat opens it.
    for guest in players[1:]:
        expect(guest.page.get_by_role("button", name="Start the next round now")).to_have_count(0)
    players[0].press(players[0].page.get_by_role("button", name="Start the next round now"))
    for player in players:
        expect(player.page.locator("#table .result")).to_have_count(0)
        expect(player.page.locator("#hand [data-tile]")).to_have_count(7)
        expect(player.page.locator("#version")).to_have_attribute("data-turn", "1")
    check_privacy(players)


def reopen(player: Player, players: list[Player]) -> None:
    """The player closes their tab; once everyone sees them gone, they open the link again."""
    url, context = player.page.url, player.page.context
    player.page.close()
    others = [p for p in players if p is not player]
    for other in others:
        expect(other.page.locator(f"article.seat[data-seat='{player.seat}']")).to_have_class(OFFLINE)
    player.page = context.new_page()
    player.page.goto(url)
    player.wait_connected()
    for other in others:
        expect(other.page.locator(f"article.seat[data-seat='{player.seat}']")).not_to_have_class(OFFLINE)


def test_s4_reload_or_reopen_mid_round_keeps_the_seat_the_hand_and_the_turn(open_page, make_server):
    # A turn shortened by time away must still be played by the test, after a reopen, on a slow machine.
    server = make_server(TURN_SECONDS=120, OFFLINE_SECONDS=60, **seeded(PARTNERSHIP_SEED))
    players = sit_down(open_page, server, 4, phones=(0, 2))
    stats = Stats()
    for _ in range(2):
        play_one_move(players, stats)
    turn = players[0].turn()
    mover, watcher = players[turn], players[(turn + 1) % 4]
    hands = {p.seat: p.hand() for p in players}

    mover.page.reload()  # in the middle of their own turn
    expect(mover.page.locator("main.play")).to_have_attribute("data-you", str(mover.seat))
    mover.wait_connected()
    assert mover.hand() == hands[mover.seat]
    expect(mover.page.locator("#me .prompt")).to_contain_text("Your turn")
    expect(mover.page.locator("#me .tile-btn.fits").first).to_be_visible()

    reopen(watcher, players)  # closing the tab and opening the link again is the same seat
    assert watcher.hand() == hands[watcher.seat]
    expect(watcher.page.locator("#me .prompt")).not_to_contain_text("Your turn")
    expect(watcher.page.locator("#version")).to_have_attribute("data-turn", str(mover.seat))

    play_one_move(players, stats)  # the reloaded page plays, and everyone sees it
    assert stats.moves[-1].startswith(mover.name)
    check_privacy(players)

    # S4: time away before one's turn costs nothing; time away during it is not given back.
    expect(watcher.page.locator("#me .prompt")).to_contain_text("Your turn")
    assert int(watcher.page.locator("#me .prompt .clock").inner_text()) > 60
    reopen(watcher, players)
    expect(watcher.page.locator("#me .prompt")).to_contain_text("Your turn")
    assert int(watcher.page.locator("#me .prompt .clock").inner_text()) <= 60
    play_one_move(players, stats)
    assert stats.moves[-1].startswith(watcher.name)
    check_privacy(players)


def test_d3_block_with_two_players_ends_blocked_and_reveals_both_hands(open_page, make_server):
    server = make_server(**seeded(BLOCK_SEED))
    players = sit_down(open_page, server, 2, variant="block", phones=(1,))
    assert [len(p.hand()) for p in players] == [7, 7]  # D1
    opening = re.search(r"opens with (\d-\d)", players[0].page.locator(".ends").inner_text()).group(1)

    stats = Stats()
    play_one_move(players, stats)
    for player in players:  # D2: the highest double opens; D4: a double lies across the line
        assert player.line() == [tile_key(opening)]
        expect(player.page.locator("#line .domino.cross")).to_have_count(1)
    check_privacy(players)
    play_round(players, stats)
    assert stats.passes >= 1 and stats.both_ends >= 1, f"the seeded deal no longer covers: {stats}"
    check_reveal(players, {p.seat: p.hand() for p in players})
    expect(players[0].page.locator(".result")).to_contain_text("Blocked: nobody could place")
    # D6 in numbers: what the others hold, less one's own (a player adding up the hands left sees why).
    how = players[0].page.locator(".result .how").inner_text()
    sums = re.search(r"hand \((\d+)\).* scores (\d+)\. That is (\d+) in the other hands less (\d+)", how)
    own, points, others, less = map(int, sums.groups())
    assert less == own and points == others - own, how


def test_d3_draw_with_two_players_draws_by_clicking(open_page, make_server):
    server = make_server(**seeded(DRAW_SEED))
    players = sit_down(open_page, server, 2, variant="draw", target=50, phones=(0,))
    players[0].page.set_viewport_size({"width": 568, "height": 320})  # a small phone held sideways
    stats = Stats()
    told = 0  # draws after which the drawer's turn went on, and it was told the tile
    for _ in range(100):
        seat = players[0].turn()
        if seat is None:
            break  # the round is over
        drawer, other = players[seat], players[1 - seat]
        boneyard = int(re.search(r"boneyard (\d+)", drawer.page.locator(".ends").inner_text()).group(1))
        hand = drawer.hand()
        play_one_move(players, stats)
        if stats.moves[-1].endswith("draw"):  # D3: one tile from the boneyard, seen by its drawer only
            assert len(drawer.hand()) == len(hand) + 1
            new = (set(drawer.hand()) - set(hand)).pop()
            expect(other.page.locator(f"article.seat[data-seat='{seat}'] .count")).to_have_text(
                f"{len(hand) + 1} tiles")
            for player in players:
                expect(player.page.locator(".ends")).to_contain_text(f"boneyard {boneyard - 1}")
            assert new not in other.tiles_mentioned()
            if drawer.page.locator("#me.my-turn").count():  # still its turn: it is told what it drew
                said = re.search(r"You drew (\d-\d)\.", drawer.page.locator("#prompt").inner_text())
                assert said and tile_key(said.group(1)) == new, drawer.page.locator("#prompt").inner_text()
                announced = drawer.page.locator("#announce-me").text_content()
                assert f"You drew {said.group(1)}." in announced, announced
                # The drawer hears its own words only; the other hears the table's.
                expect(other.page.locator("#announcer")).to_contain_text(f"{drawer.name} drew a tile")
                assert f"{drawer.name} drew a tile" not in drawer.page.locator("#announcer").text_content()
                marked = drawer.page.locator("#hand .drawn")  # and sees it marked in the hand
                expect(marked).to_have_count(1)
                assert tile_key(marked.get_attribute("data-tile")) == new
                if not told:  # it drops in, unless the player asked for less motion
                    assert marked.evaluate("e => getComputedStyle(e).animationName") == "draw-in"
                    drawer.page.emulate_media(reduced_motion="reduce")
                    assert marked.evaluate("e => getComputedStyle(e).animationName") == "none"
                    drawer.page.emulate_media(reduced_motion="no-preference")
                if drawer is players[0]:  # the hand grew over the line: its ends come back in sight
                    drawer.page.wait_for_function(ENDS_IN_SIGHT, polling=100)
                told += 1
        if not drawer.page.locator("#me.my-turn").count():  # the mark lasts while the turn does
            expect(drawer.page.locator("#hand .drawn")).to_have_count(0)
        check_move(players)
    assert stats.draws >= 1 and told >= 1, f"the seeded deal no longer needs a draw: {stats}"
    check_reveal(players, {p.seat: p.hand() for p in players})


def test_s4_table_plays_for_a_player_who_closed_their_page(open_page, make_server):
    server = make_server(TURN_SECONDS=30, OFFLINE_SECONDS=1, GRACE_SECONDS=0, PING_SECONDS=2,
                         **seeded(PARTNERSHIP_SEED))
    players = sit_down(open_page, server, 4)
    opener = players[players[0].turn()]
    gone = players[(opener.seat + 1) % 4]
    others = [p for p in players if p is not gone]
    hand = gone.hand()
    gone.page.context.close()

    for player in others:  # the seat is shown disconnected to everyone still there
        seat = player.page.locator(f"article.seat[data-seat='{gone.seat}']")
        expect(seat).to_have_class(OFFLINE)
        expect(seat.locator(".presence")).to_have_text("disconnected")

    stats = Stats()
    opening = opener.move(stats)  # "play a-b": the line's ends are then a and b
    left, right = (int(n) for n in opening.split()[1].split("-"))
    # S3: after the offline time the table places the first fitting tile of the displayed hand,
    # on the first end where it fits (left, then right), or passes.
    for player in others:
        expect(player.page.locator("#table ol.log li").first).to_contain_text(AUTO_NOTE)
    log = others[0].log()
    assert not any(AUTO_NOTE in entry for entry in log[1:]), log
    first_fit = next(((t, end) for t in hand for end, n in (("left", left), ("right", right))
                      if str(n) in t.split("-")), None)
    assert log[0].startswith(gone.name), log
    if first_fit is None:
        assert " passed on " in log[0], log
    else:
        placed = re.search(r"placed (\d-\d) on the (left|right)", log[0])
        assert placed and (tile_key(placed.group(1)), placed.group(2)) == first_fit, (log[0], hand)
    nxt = players[(gone.seat + 1) % 4]
    expect(nxt.page.locator("#me .prompt")).to_contain_text("Your turn")
    for player in others:
        expect(player.page.locator(f"article.seat[data-seat='{gone.seat}']")).to_have_class(
            OFFLINE)


def test_s3_turn_clock_counts_down_without_a_reload(open_page, make_server):
    server = make_server(**seeded(BLOCK_SEED))
    players = sit_down(open_page, server, 2, variant="block", phones=())
    for player in players:
        page = player.page
        page.evaluate("window.fichasNoReload = true")
        seat = player.turn()
        clock = page.locator(f"#seat-{seat} .clock")
        start = int(clock.inner_text())
        assert 10 <= start <= 45  # a loaded machine may take many seconds to seat both and get here
        page.wait_for_function(  # within the pages' default timeout (10 s)
            "([s, start]) => Number(document.querySelector(`#seat-${s} .clock`).textContent) <= start - 2",
            arg=[seat, start])
        assert page.evaluate("window.fichasNoReload") is True
    mine = players[players[0].turn()].page.locator("#me .prompt .clock")
    expect(mine).to_have_text(re.compile(r"^\d+$"))
    assert int(mine.inner_text()) < 45
