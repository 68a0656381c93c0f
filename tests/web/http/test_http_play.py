"""POST play / pass / draw / next-round: moves, and every refusal changes nothing."""

import random
import re

import pytest

from helpers import Browser, open_table, version_of
from helpers.pages import (
    choose_move,
    flash_text,
    hand_of,
    hand_texts,
    line_of,
    line_texts,
    live_table,
    page,
    play_until,
    playing,
    reveal_of,
    round_over,
    seat_panels,
    section,
    stable,
    turn_seat,
)

NAMES = ("Ana", "Bea", "Carl", "Dan")
DRAWN = re.compile(r'class="tile-btn[^"]*\bdrawn\b[^"]*" data-tile="([^"]+)"')  # the tile just drawn, marked


@pytest.fixture
def seeded(make_app):
    """An app whose deals come from a seeded generator, so that positions are reproducible."""
    return lambda seed: make_app(TABLES_OPTIONS={"rng": random.Random(seed)})


def snapshot(players, url) -> list[str]:
    """What every seat's page shows, without the countdowns."""
    pages = [page(p, url) for p in players]
    return [stable(section(html, "table") + section(html, "me")) for html in pages]


def assert_refused(players, url, seat, route, fields, status, words):
    """The action is refused with a readable message and every page stays as it was."""
    before = snapshot(players, url)
    response = players[seat].post(f"{url}/{route}", fields)
    body = response.get_data(as_text=True)
    assert response.status_code == status, body
    assert words.lower() in flash_text(body).lower(), flash_text(body)
    assert snapshot(players, url) == before
    return body


def test_t5_a_legal_play_is_answered_204_and_shown_on_the_page(app):
    url, players = open_table(app, names=NAMES)
    table = live_table(app, url)
    rnd = table.match.round
    seat, version = rnd.turn, table.version
    tile = rnd.hands[seat][0]  # P3: the opener of the first round may open with any tile
    response = players[seat].post(f"{url}/play", {"tile": tile.text, "end": "", "version": version})
    assert response.status_code == 204 and response.get_data() == b""
    for player in players:
        html = page(player, url)
        assert version_of(html) == version + 1
        assert line_of(html) == [tile.text]
        assert turn_seat(html) == (seat + 1) % 4
        assert f"placed {tile.text}" in html
    assert tile.text not in hand_of(page(players[seat], url))
    assert "6 tiles" in seat_panels(page(players[0], url))[seat][1]


def test_wrong_turn_is_refused(app):
    url, players = open_table(app, names=NAMES)
    table = live_table(app, url)
    rnd = table.match.round
    for seat in range(4):
        if seat == rnd.turn:
            continue
        fields = {"tile": rnd.hands[seat][0].text, "end": "", "version": table.version}
        assert_refused(players, url, seat, "play", fields, 409, "not your turn")
        assert_refused(players, url, seat, "pass", {"version": table.version}, 409, "not your turn")


def test_a_tile_not_in_hand_is_refused(app):
    url, players = open_table(app, names=NAMES)
    table = live_table(app, url)
    rnd = table.match.round
    seat = rnd.turn
    other = rnd.hands[(seat + 1) % 4][0].text
    body = assert_refused(players, url, seat, "play", {"tile": other, "end": "", "version": table.version},
                          409, "do not hold")
    assert other in flash_text(body)  # the tile the player named, nothing else


def test_t3_a_tile_that_does_not_fit_is_refused(seeded):
    app = seeded(3)
    url, players = open_table(app, names=NAMES)

    def misfit(table):
        rnd = table.match.round
        return playing(table) and rnd.left is not None and any(
            not rnd.fits(t) for t in rnd.hands[rnd.turn])

    table = play_until(app, url, players, random.Random(3), misfit)
    rnd = table.match.round
    tile = next(t for t in rnd.hands[rnd.turn] if not rnd.fits(t))
    for end in ("", "left", "right"):
        fields = {"tile": tile.text, "end": end, "version": table.version}
        assert_refused(players, url, rnd.turn, "play", fields, 409, "fits neither end")
    # The refused tile is not offered as a fitting tile either.
    html = page(players[rnd.turn], url)
    assert re.search(rf'<span class="tile-btn" data-tile="{tile.text}" id="h-{tile.text}" role="img"', html)


def test_t3_a_tile_that_fits_both_ends_needs_an_end(seeded):
    app = seeded(5)
    url, players = open_table(app, names=NAMES)

    def choice(table):
        rnd = table.match.round
        return playing(table) and rnd.left is not None and rnd.left != rnd.right and any(
            rnd.ends_for(t) == ("left", "right") for t in rnd.hands[rnd.turn])

    table = play_until(app, url, players, random.Random(5), choice)
    rnd = table.match.round
    seat = rnd.turn
    tile = next(t for t in rnd.hands[seat] if rnd.ends_for(t) == ("left", "right"))
    html = page(players[seat], url)
    # The page asks which end: the tile is a radio, and both ends of the line are targets.
    assert re.search(rf'<label class="tile-btn fits" data-tile="{tile.text}" id="h-{tile.text}">'
                     rf'<input type="radio" name="tile" '
                     rf'value="{tile.text}">', html)
    assert 'data-end="left"' in html and 'data-end="right"' in html
    assert_refused(players, url, seat, "play", {"tile": tile.text, "end": "", "version": table.version},
                   409, "choose left or right")
    left_before = rnd.left
    response = players[seat].post(f"{url}/play", {"tile": tile.text, "end": "left", "version": table.version})
    assert response.status_code == 204
    html = page(players[seat], url)
    assert line_of(html)[0] == tile.text
    assert f"placed {tile.text} on the left" in html
    assert rnd.left == tile.other(left_before)


def test_t3_the_wrong_end_is_refused(seeded):
    app = seeded(7)
    url, players = open_table(app, names=NAMES)

    def one_end(table):
        rnd = table.match.round
        return playing(table) and rnd.left is not None and rnd.left != rnd.right and any(
            len(rnd.ends_for(t)) == 1 for t in rnd.hands[rnd.turn])

    table = play_until(app, url, players, random.Random(7), one_end)
    rnd = table.match.round
    tile = next(t for t in rnd.hands[rnd.turn] if len(rnd.ends_for(t)) == 1)
    wrong = "right" if rnd.ends_for(tile) == ("left",) else "left"
    fields = {"tile": tile.text, "end": wrong, "version": table.version}
    assert_refused(players, url, rnd.turn, "play", fields, 409, f"does not fit the {wrong} end")


@pytest.mark.parametrize("tile", ["7-7", "3_5", "3-5-1", "35", "", "x" * 300, "<script>alert(1)</script>"])
def test_a_forged_tile_text_is_refused(app, tile):
    url, players = open_table(app, names=NAMES)
    table = live_table(app, url)
    seat = table.match.round.turn
    body = assert_refused(players, url, seat, "play", {"tile": tile, "end": "", "version": table.version},
                          400, "not a tile")
    assert "<script>" not in body


@pytest.mark.parametrize("end", ["middle", "LEFT", "0", "left "])
def test_a_forged_end_is_refused(app, end):
    url, players = open_table(app, names=NAMES)
    table = live_table(app, url)
    rnd = table.match.round
    fields = {"tile": rnd.hands[rnd.turn][0].text, "end": end, "version": table.version}
    assert_refused(players, url, rnd.turn, "play", fields, 400, "left or right")


@pytest.mark.parametrize("version", [None, "", "abc", "1.5", "9" * 400, "9" * 19, "-0", "\u0663", "1_0"])
def test_a_missing_or_malformed_version_is_refused(app, version):
    url, players = open_table(app, names=NAMES)
    table = live_table(app, url)
    rnd = table.match.round
    fields = {"tile": rnd.hands[rnd.turn][0].text, "end": ""}
    if version is not None:
        fields["version"] = version
    # Digits only, as pages write it, and fewer than 19: no table gets that far.
    assert_refused(players, url, rnd.turn, "play", fields, 400, "version")


def test_a_stale_version_is_refused_with_a_fresh_render(app):
    url, players = open_table(app, names=NAMES)
    table = live_table(app, url)
    rnd = table.match.round
    seat, version = rnd.turn, table.version
    move = {"tile": rnd.hands[seat][0].text, "end": "", "version": version}
    assert players[seat].post(f"{url}/play", move).status_code == 204
    # A double click sends the same move again: refused, with the table as it is now.
    body = assert_refused(players, url, seat, "play", move, 409, "table changed")
    assert version_of(section(body, "table")) == version + 1
    assert line_of(body) == [move["tile"]]
    assert hand_of(body) == hand_texts(rnd, seat)
    assert f'name="version" value="{version + 1}"' in body
    # A stale tab of the next seat: its fresh render carries its own hand, and only that.
    nxt = rnd.turn
    stale = {"tile": rnd.playable(nxt)[0][0].text if rnd.playable(nxt) else "0-0", "end": "left",
             "version": version}
    body = assert_refused(players, url, nxt, "play", stale, 409, "table changed")
    assert hand_of(body) == hand_texts(rnd, nxt)
    fresh = page(players[nxt], url)
    assert version_of(section(body, "table")) == version_of(fresh)
    assert line_of(body) == line_of(fresh) and turn_seat(body) == turn_seat(fresh)


def test_an_action_without_csrf_token_is_refused_and_changes_nothing(app, new_browser):
    url, players = open_table(app, names=NAMES)
    table = live_table(app, url)
    rnd = table.match.round
    seat = rnd.turn
    move = {"tile": rnd.hands[seat][0].text, "end": "", "version": table.version}
    before = snapshot(players, url)
    for route in ("play", "pass", "draw", "next-round"):
        response = players[seat].post(f"{url}/{route}", move, csrf=False)
        assert response.status_code == 403, route
        assert "open the page again" in flash_text(response.get_data(as_text=True))
    other = new_browser()
    response = players[seat].client.post(f"{url}/play", data=move, headers={"X-CSRF-Token": other.csrf})
    assert response.status_code == 403
    response = players[seat].client.post(f"{url}/play", data={**move, "csrf_token": "nope"})
    assert response.status_code == 403
    assert snapshot(players, url) == before and table.version == move["version"]


def test_t6_pass_only_when_nothing_fits(seeded):
    app = seeded(11)
    url, players = open_table(app, names=NAMES)
    table = live_table(app, url)
    rnd = table.match.round
    assert_refused(players, url, rnd.turn, "pass", {"version": table.version}, 409, "cannot pass")
    assert_refused(players, url, rnd.turn, "draw", {"version": table.version}, 409, "nobody draws")
    html = page(players[rnd.turn], url)
    assert ">Pass</button>" not in html and "Draw a tile" not in html

    def stuck(table):
        return playing(table) and table.match.round.must_pass(table.match.round.turn)

    table = play_until(app, url, players, random.Random(11), stuck)
    rnd = table.match.round
    seat, ends = rnd.turn, (rnd.left, rnd.right)
    html = page(players[seat], url)
    assert ">Pass</button>" in html and "Nothing fits: pass." in html
    assert 'class="tile-btn fits"' not in html
    assert players[seat].post(f"{url}/pass", {"version": table.version}).status_code == 204
    # T7: everyone sees the pass and what it says about the hand.
    html = page(players[(seat + 1) % 4], url)
    assert f"passed on {ends[0]} and {ends[1]}" in html
    numbers = rnd.known_missing(seat)
    assert set(ends) <= set(numbers)
    assert "Has no " + ", ".join(map(str, numbers)) + "</p>" in seat_panels(html)[seat][1]


def test_t7_a_pass_on_one_number_is_logged_with_that_number_once(seeded):
    """Both open ends the same number: the log says "passed on 6", not "passed on 6 and 6"."""
    app = seeded(3)
    url, players = open_table(app, variant="block", seats=2, names=NAMES[:2])

    def stuck_on_one_number(table):
        rnd = table.match.round
        return playing(table) and rnd.left == rnd.right and rnd.must_pass(rnd.turn)

    table = play_until(app, url, players, random.Random(5), stuck_on_one_number)
    rnd = table.match.round
    seat, number = rnd.turn, rnd.left
    assert players[seat].post(f"{url}/pass", {"version": table.version}).status_code == 204
    log = re.search(r'id="log"[^>]*>(.*?)</ol>', page(players[1 - seat], url), re.S).group(1)
    assert f"passed on {number}</li>" in log, log
    assert f"passed on {number} and {number}" not in log


def test_d3_draw_until_a_tile_fits(seeded):
    app = seeded(13)
    url, players = open_table(app, "draw", 2, names=("Ana", "Bea"))

    def must_draw(table):
        return playing(table) and table.match.round.must_draw(table.match.round.turn)

    table = play_until(app, url, players, random.Random(13), must_draw)
    rnd = table.match.round
    seat = rnd.turn
    html = page(players[seat], url)
    assert "Draw a tile" in html and ">Pass</button>" not in html
    assert_refused(players, url, seat, "pass", {"version": table.version}, 409, "draw from the boneyard")
    boneyard, count = len(rnd.boneyard), len(rnd.hands[seat])
    assert f"boneyard {boneyard}" in html
    drawn = rnd.boneyard[0].text
    assert players[seat].post(f"{url}/draw", {"version": table.version}).status_code == 204
    html = page(players[seat], url)
    assert hand_of(html)[-1] == drawn and len(hand_of(html)) == count + 1
    assert f"boneyard {boneyard - 1}" in html
    other = page(players[1 - seat], url)
    assert "drew a tile" in other and drawn not in hand_of(other)
    assert f"{count + 1} tiles" in seat_panels(other)[seat][1]
    # The drawer sees the tile marked in the hand while the turn lasts; nobody else sees a mark.
    assert DRAWN.findall(html) == [drawn]
    assert not DRAWN.findall(other) and not DRAWN.findall(page(Browser(app), url))
    rng = random.Random(13)
    while live_table(app, url).match.round.turn == seat:  # draws until a tile fits, then plays it
        _, route, fields = choose_move(table, rng)
        assert players[seat].post(f"{url}/{route}", fields).status_code == 204
    assert not DRAWN.findall(page(players[seat], url))


def test_d3_no_draw_in_block(seeded):
    app = seeded(17)
    url, players = open_table(app, "block", 2, names=("Ana", "Bea"))
    table = play_until(app, url, players, random.Random(17),
                       lambda t: playing(t) and t.match.round.must_pass(t.match.round.turn))
    rnd = table.match.round
    assert_refused(players, url, rnd.turn, "draw", {"version": table.version}, 409, "nobody draws")
    assert players[rnd.turn].post(f"{url}/pass", {"version": table.version}).status_code == 204


def test_d2_the_forced_opening_tile_is_named_and_enforced(seeded):
    app = seeded(19)
    url, players = open_table(app, "block", 3, names=("Ana", "Bea", "Carl"))
    table = live_table(app, url)
    rnd = table.match.round
    opener, forced = rnd.turn, rnd.opening_tile.text
    # A tile's name in a sentence is kept on one line (a 320 px phone broke "6-" from "6").
    one_line = f'<b class="tn">{forced}</b>'
    for player in players:
        assert f"{NAMES[opener]} opens with {one_line}" in page(player, url)
    other = next(t.text for t in rnd.hands[opener] if t.text != forced)
    assert_refused(players, url, opener, "play", {"tile": other, "end": "", "version": table.version},
                   409, f"opened with {forced}")
    html = page(players[opener], url)
    assert f"Open the round with {one_line}." in html
    assert re.findall(r'class="tile-btn fits" data-tile="([^"]+)"', html) == [forced]


def test_t9_round_end_reveals_hands(seeded):
    app = seeded(23)
    url, players = open_table(app, names=NAMES)
    table = play_until(app, url, players, random.Random(23), round_over)
    rnd = table.match.round
    result = rnd.result
    for viewer in players:
        html = page(viewer, url)
        assert 'data-phase="pause"' in html or 'data-phase="over"' in html
        for seat in range(4):
            assert reveal_of(html, seat) == set(hand_texts(rnd, seat)), seat
            points = sum(t.points for t in rnd.hands[seat])
            assert f"{points} pts" in seat_panels(html)[seat][1]
        assert turn_seat(html) is None
        assert f"+{result.points}" in html
        assert ("placed their last tile" if result.reason == "domino" else "Blocked") in html
        assert 'class="end-target"' not in html and 'class="tile-btn fits"' not in html


def test_t9_spectator_sees_the_reveal_too(seeded):
    app = seeded(29)
    url, players = open_table(app, "block", 3, names=("Ana", "Bea", "Carl"))
    table = play_until(app, url, players, random.Random(29), round_over)
    html = page(Browser(app), url)
    for seat in range(3):
        assert reveal_of(html, seat) == set(hand_texts(table.match.round, seat))
    assert 'id="hand"' not in html


def test_t10_pause_shows_a_countdown_and_the_host_button(seeded):
    app = seeded(31)
    url, players = open_table(app, "draw", 2, target=500, names=("Ana", "Bea"))
    table = play_until(app, url, players, random.Random(31), round_over)
    assert table.phase == "pause"
    for seat, player in enumerate(players):
        html = page(player, url)
        countdown = re.search(r'Next round in <span class="clock" data-remaining-ms="(\d+)">(\d+)</span> s',
                              html)
        assert countdown and 20_000 < int(countdown.group(1)) <= 30_000
        assert int(countdown.group(2)) == -(-int(countdown.group(1)) // 1000)  # whole seconds, rounded up
        assert ("Start the next round now" in html) == (seat == 0)
    # In Danish the abbreviation has its own full stop, and the sentence takes no second one.
    players[1].client.set_cookie("lang", "da")
    danish = page(players[1], url)
    countdown = re.search(r'Næste runde om <span class="clock"[^>]*>\d+</span> (sek\.+)', danish)
    assert countdown and countdown.group(1) == "sek.", countdown


def test_t10_host_starts_next_round_early(seeded):
    app = seeded(37)
    url, players = open_table(app, target=500, names=NAMES)
    table = play_until(app, url, players, random.Random(37), round_over)
    assert table.phase == "pause"
    version = table.version
    opener = table.match.round.opener
    assert_refused(players, url, 1, "next-round", {"version": version}, 403, "only the host")
    assert_refused(players, url, 0, "next-round", {"version": version - 1}, 409, "table changed")
    assert players[0].post(f"{url}/next-round", {"version": version}).status_code == 204
    rnd = table.match.round
    for seat, player in enumerate(players):
        html = page(player, url)
        assert version_of(html) == version + 1 and "Round 2" in html
        assert hand_of(html) == hand_texts(rnd, seat) and len(hand_of(html)) == 7
        assert turn_seat(html) == (opener + 1) % 4  # P4
        assert "reveal" not in section(html, "table")
    # A second click of the same button is stale; and no next round while one is played.
    assert_refused(players, url, 0, "next-round", {"version": version}, 409, "table changed")
    assert_refused(players, url, 0, "next-round", {"version": version + 1}, 409, "once this one is over")


def test_actions_between_rounds_are_refused(seeded):
    app = seeded(41)
    url, players = open_table(app, "block", 2, names=("Ana", "Bea"))
    table = play_until(app, url, players, random.Random(41), round_over)
    rnd = table.match.round
    tile = (rnd.hands[0] or rnd.hands[1])[0].text
    for seat in (0, 1):
        assert_refused(players, url, seat, "play", {"tile": tile, "end": "", "version": table.version},
                       409, "over")
        assert_refused(players, url, seat, "pass", {"version": table.version}, 409, "over")


def test_no_move_before_the_match_starts(app, new_browser):
    host = new_browser()
    url = host.client.post("/tables", data={"name": "Ana", "variant": "block", "seats": 2, "target": 100,
                                            "csrf_token": host.csrf}).headers["Location"]
    for route, fields in (("play", {"tile": "6-6", "version": "1"}), ("pass", {"version": "1"}),
                          ("draw", {"version": "1"}), ("next-round", {"version": "1"})):
        response = host.post(f"{url}/{route}", fields)
        assert response.status_code == 409, route
        assert version_of(page(host, url)) == 1


def test_t11_match_end_shows_winner_and_host_starts_a_new_match(seeded):
    app = seeded(43)
    url, players = open_table(app, "block", 2, target=50, names=("Ana", "Bea"))
    table = play_until(app, url, players, random.Random(43), lambda t: t.phase == "over")
    match = table.match
    winner, scores = match.winner, match.scores
    assert scores[winner] >= 50
    for player in players:
        html = page(player, url)
        assert f"{NAMES[winner]} wins the match!" in html
        assert f"Final score: Ana {scores[0]}, Bea {scores[1]} (target 50)." in html
        assert "Next round in" not in html
    assert "New match, same seats" in page(players[0], url)
    assert "New match, same seats" not in page(players[1], url)
    assert_refused(players, url, 1, "next-round", {"version": table.version}, 403, "only the host")
    assert players[0].post(f"{url}/next-round", {"version": table.version}).status_code == 204
    html = page(players[1], url)
    assert 'data-phase="playing"' in html and "Round 1" in html
    assert re.search(r"Ana <b>0</b>", html) and re.search(r"Bea <b>0</b>", html)
    assert hand_of(html) == hand_texts(table.match.round, 1)


def test_a_giant_action_payload_is_refused(app):
    url, players = open_table(app, names=NAMES)
    table = live_table(app, url)
    seat = table.match.round.turn
    before = snapshot(players, url)
    giant = {"tile": "x" * (17 * 1024), "version": table.version}
    response = players[seat].post(f"{url}/play", giant)
    assert response.status_code == 413
    assert "too large" in flash_text(response.get_data(as_text=True))
    response = players[seat].client.post(f"{url}/play", data={**giant, "csrf_token": players[seat].csrf})
    assert response.status_code == 413
    assert snapshot(players, url) == before


def test_get_on_an_action_url_is_not_allowed(app):
    url, players = open_table(app, "block", 2, names=("Ana", "Bea"))
    for route in ("play", "pass", "draw", "next-round", "join"):
        assert players[0].get(f"{url}/{route}").status_code == 405


def test_own_hand_marks_exactly_the_fitting_tiles(seeded):
    app = seeded(47)
    url, players = open_table(app, names=NAMES)
    rng = random.Random(47)
    for _ in range(12):
        table = live_table(app, url)
        if not playing(table):
            break
        rnd = table.match.round
        for seat, player in enumerate(players):
            html = page(player, url)
            fits = set(re.findall(r'class="tile-btn fits" data-tile="([^"]+)"', html))
            expected = {t.text for t in rnd.hands[seat] if rnd.fits(t)} if seat == rnd.turn else set()
            assert fits == expected
            assert line_of(html) == line_texts(rnd)
        play_until(app, url, players, rng, lambda t, v=table.version: t.version > v)


def test_a_spectator_is_told_what_it_watches_between_rounds_and_once_the_match_is_over(app):
    """It was told "hands are shown when a round ends" while they were shown, and an old table's
    visitor found no way on (a play-test)."""
    url, players = open_table(app, "block", 2, 50, names=("Ana", "Bea"))
    watcher = Browser(app)

    def prompt() -> str:
        return re.search(r'<p class="prompt">(.*?)</p>', section(page(watcher, url), "me"), re.S).group(1)

    assert "hands are shown when a round ends" in prompt()
    rng = random.Random(3)
    play_until(app, url, players, rng, lambda table: table.phase == "pause")
    assert prompt() == "You are watching."  # (its seats have no page open: they may be asked for)
    play_until(app, url, players, rng, lambda table: table.phase == "over")
    over = prompt()
    assert over.startswith("You are watching. This match is over.")
    assert '<a href="/">Open a new table</a>' in over
