"""Moves sent over the websocket, as the page's ws-send buttons send them, against a real server.

Every message is untrusted: a refusal is shown to its sender alone, in #flash, and changes
nothing (no new version, nothing stored, nothing pushed to the others).
"""

import html
import json
import random
import re
import sqlite3
import time

import pytest
import simple_websocket

from helpers.pages import (
    connect_all,
    db_rows,
    flash_text,
    hand_texts,
    line_of,
    screen,
    seat_up,
    section,
    shown_now,
    turn_seat,
    wait_until,
)

FITS_BUTTON = re.compile(r'<button type="button" class="tile-btn fits" data-tile="[^"]+" ws-send '
                         r"hx-vals='([^']*)'")
HAND_VALUES = re.compile(r"<div id=\"hand\"[^>]*? hx-vals='([^']*)'")  # htmx merges them into each tile's


@pytest.fixture
def server(make_server):
    """A real server whose clock stays still: nothing moves but the players."""
    return make_server(START_CLOCK=False, PING_SECONDS=1)


def seated(server, variant="partnership", seats=4):
    """A full table whose players all have their websocket open at the current version."""
    url, players = seat_up(server, variant, seats)
    table = connect_all(server, url, players)
    for player in players:  # presence pushes carry the same version: wait until they are in too
        wait_until(lambda player=player: "offline" not in shown_now(player))
    return players, table



def refusal(player, since: int, timeout: float = 5.0) -> str:
    """The flash a refused move brought back to `player` (after its first `since` messages)."""
    def found():
        return next((m for m in player.messages[since:] if m.startswith('<div id="flash"')), None)
    with player.arrived:
        message = player.arrived.wait_for(found, timeout)
    assert message, f"no refusal among {player.messages[since:]}"
    return message


def opening(rnd) -> str:
    """A tile the seat to move may open the round with (the forced one, if there is one)."""
    return rnd.opening_tile.text if rnd.opening_tile else hand_texts(rnd, rnd.turn)[0]


def stored_moves(server) -> int:
    return db_rows(server.app, "SELECT count(*) FROM round_events")[0][0]


def stored_rows(server) -> tuple[int, int]:
    """The moves' events stored, and the action log's lines (everything else)."""
    return stored_moves(server), db_rows(server.app, "SELECT count(*) FROM actions")[0][0]


def test_a_move_sent_over_the_websocket_is_stored_and_reaches_every_seat(server):
    players, table = seated(server)
    rnd, version = table.match.round, table.version
    seat, tile = rnd.turn, opening(rnd)
    before = stored_moves(server)
    players[seat].send_move({"action": "play", "tile": tile, "end": "", "version": str(version)})
    for viewer in players:
        shown = screen(viewer, version + 1)  # the line's first tile: sent as the pieces that changed
        assert line_of(shown) == [tile] and turn_seat(shown) == (seat + 1) % 4
    assert stored_moves(server) == before + 1
    stored = db_rows(server.app, "SELECT data, at FROM round_events ORDER BY at DESC LIMIT 1")
    assert [(json.loads(data)["seat"], json.loads(data)["tile"], at > 0) for data, at in stored] == \
        [(seat, tile, True)]


def test_the_glowing_tiles_send_exactly_what_the_server_accepts(make_server):
    """What a click sends is the button's hx-vals (and #hand's) plus the version: replay a whole round."""
    # Seed 2 deals a round in which, with these choices, a turn must choose an end and one must pass.
    server = make_server(START_CLOCK=False, PING_SECONDS=1, TABLES_OPTIONS={"rng": random.Random(2)})
    players, table = seated(server, "block", 2)
    start = table.match.round.number
    used = set()
    while table.match.round.number == start and not table.match.round.over:
        rnd, version = table.match.round, table.version
        player = players[rnd.turn]
        me = section(screen(player, version), "me")  # #me as folded from its pieces
        inherited = json.loads(html.unescape(HAND_VALUES.search(me).group(1)))
        choices = [{**inherited, **json.loads(html.unescape(v))} for v in FITS_BUTTON.findall(me)]
        both = re.findall(r'<label class="tile-btn fits" data-tile="([^"]+)"', me)
        if choices:
            values = choices[0]
        elif both:  # fits both ends: its radio is chosen, then an end of the line is tapped
            values = {"action": "play", "end": "left", "tile": both[0]}
            used.add("both ends")
        else:
            values = {"action": "pass"}
            used.add("pass")
        assert values["action"] == "play" or not rnd.can_place(rnd.turn)
        player.send_move({**values, "version": str(version)})
        for viewer in players:
            viewer.wait_version(version + 1)
        assert table.version == version + 1
    assert table.match.round.over or table.match.round.number > start
    assert used == {"both ends", "pass"}, f"seed 2 no longer covers both paths: {used}"


def forged(table) -> dict[str, dict]:
    """Bad messages from the seat whose turn it is, each with the reason it must be refused."""
    rnd, version = table.match.round, str(table.version)
    other = (rnd.turn + 1) % 4
    return {
        "stale version": {"action": "play", "tile": opening(rnd), "end": "", "version": "0"},
        "no version": {"action": "play", "tile": opening(rnd), "end": ""},
        "version not a number": {"action": "play", "tile": opening(rnd), "version": "x"},
        "version a list": {"action": "play", "tile": opening(rnd), "version": [1]},
        "a tile of another hand": {"action": "play", "tile": hand_texts(rnd, other)[0], "end": "",
                                   "version": version},
        "not a tile": {"action": "play", "tile": "9-9", "end": "", "version": version},
        "a tile that is a list": {"action": "play", "tile": ["6-6"], "version": version},
        "an end that is a number": {"action": "play", "tile": opening(rnd), "end": 1,
                                    "version": version},
        "an unknown end": {"action": "play", "tile": opening(rnd), "end": "middle",
                           "version": version},
        "an unknown action": {"action": "win", "version": version},
        "no action": {"tile": opening(rnd), "version": version},
        "pass at the opening": {"action": "pass", "version": version},
        "draw in Partnership": {"action": "draw", "version": version},
        "next round while playing": {"action": "next_round", "version": version},
    }


CASES = ["stale version", "no version", "version not a number", "version a list", "a tile of another hand",
         "not a tile", "a tile that is a list", "an end that is a number", "an unknown end",
         "an unknown action", "no action", "pass at the opening", "draw in Partnership",
         "next round while playing"]


@pytest.mark.parametrize("case", CASES)
def test_a_bad_move_is_refused_to_its_sender_alone_and_changes_nothing(server, case):
    players, table = seated(server)
    rnd, version = table.match.round, table.version
    player = players[rnd.turn]
    hands = [hand_texts(rnd, s) for s in range(4)]
    stored, seen = stored_rows(server), [len(p.messages) for p in players]
    player.send_move(forged(table)[case])
    message = refusal(player, seen[rnd.turn])
    assert 'hx-swap-oob="innerHTML"' in message and flash_text(message)
    # No other hand leaks through the refusal, whatever tile was named (3-5: the format's example).
    shown = message.replace("write it like 3-5", "")
    for seat, hand in enumerate(hands):
        if seat != rnd.turn:
            assert not any(t in shown for t in hand if t != forged(table)[case].get("tile"))
    time.sleep(0.2)
    assert table.version == version and stored_rows(server) == stored
    assert [hand_texts(table.match.round, s) for s in range(4)] == hands
    for seat, other in enumerate(players):
        if seat != rnd.turn:
            assert len(other.messages) == seen[seat], f"seat {seat} was told about a refused move"


@pytest.mark.parametrize("raw", ["hello", "[1, 2]", "null", "42", '"play"', "{", "[" * 2000 + "]" * 2000])
def test_a_message_that_is_not_a_move_is_refused(server, raw):
    players, table = seated(server)
    player, version = players[table.match.round.turn], table.version
    since = len(player.messages)
    player.socket.send(raw)
    assert "not a move" in flash_text(refusal(player, since))
    assert table.version == version


def test_a_move_from_another_seat_is_refused(server):
    players, table = seated(server)
    rnd, version = table.match.round, table.version
    wrong = (rnd.turn + 1) % 4
    since = len(players[wrong].messages)
    players[wrong].send_move({"action": "play", "tile": hand_texts(rnd, wrong)[0], "end": "",
                              "version": str(version)})
    assert "turn" in flash_text(refusal(players[wrong], since)).lower()
    assert table.version == version


def test_a_spectator_cannot_move(server):
    players, table = seated(server)
    watcher = server.player()
    watcher.url = players[0].url
    watcher.connect()
    watcher.wait_version(table.version)
    rnd, version = table.match.round, table.version
    since = len(watcher.messages)
    watcher.send_move({"action": "play", "tile": opening(rnd), "end": "", "version": str(version)})
    assert "seated" in flash_text(refusal(watcher, since))
    assert table.version == version


def test_a_giant_message_closes_that_socket_and_changes_nothing(server):
    players, table = seated(server)
    rnd, version = table.match.round, table.version
    player = players[rnd.turn]
    padding = "x" * 5000
    player.send_move({"action": "play", "tile": opening(rnd), "end": "", "version": str(version),
                      "padding": padding})
    wait_until(lambda: not table.connected(rnd.turn), timeout=5)
    with pytest.raises((simple_websocket.ConnectionClosed, OSError)):  # closed, or already gone
        for _ in range(200):  # up to 10 s for the client to notice, on a loaded machine
            player.send_move({"action": "pass", "version": str(version)})
            time.sleep(0.05)
    assert table.version == version and table.match.round.line == []


def test_a_double_click_plays_once_and_shows_no_error(server):
    players, table = seated(server)
    rnd, version = table.match.round, table.version
    player = players[rnd.turn]
    move = {"action": "play", "tile": opening(rnd), "end": "", "version": str(version)}
    since = len(player.messages)
    player.send_move(move)
    player.send_move(move)
    player.wait_version(version + 1)
    answer = refusal(player, since)  # waited for: the second click is answered after the push
    assert table.version == version + 1 and len(table.match.round.line) == 1
    assert "flash-error" not in answer  # answered, with no error
    # A real mistake after it is still explained.
    since = len(player.messages)
    player.send_move({"action": "pass", "version": str(version + 1)})
    assert "turn" in flash_text(refusal(player, since))


@pytest.mark.parametrize("version", ["Infinity", "1e999", "12", "[1]", "{}", "true"])
def test_a_version_that_is_not_text_is_refused(server, version):
    players, table = seated(server)
    player, before = players[table.match.round.turn], table.version
    since = len(player.messages)
    player.socket.send('{"action": "pass", "version": ' + version + "}")
    assert "written as text" in flash_text(refusal(player, since))
    assert table.version == before


def test_a_failure_on_our_side_is_explained_and_the_page_can_go_on(server, monkeypatch):
    players, table = seated(server)
    rnd, version = table.match.round, table.version
    player = players[rnd.turn]
    store = server.app.extensions["fichas"].tables.store
    real_commit = store.commit

    def failing_commit(*args, **kwargs):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(store, "commit", failing_commit)
    move = {"action": "play", "tile": opening(rnd), "end": "", "version": str(version)}
    since = len(player.messages)
    player.send_move(move)
    assert "went wrong on our side" in flash_text(refusal(player, since))
    assert table.version == version and table.match.round.line == []  # as stored: nothing happened
    monkeypatch.setattr(store, "commit", real_commit)
    player.send_move(move)
    player.wait_version(version + 1)  # the same socket still works
