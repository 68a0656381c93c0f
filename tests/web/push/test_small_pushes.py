"""Small pushes: during a round a page gets only what changed, and what it then shows is the whole table."""

from __future__ import annotations

import json
import random
import time

import pytest

from game.views import LOG_SHOWN
from helpers import swaps, version_of
from helpers.pages import seat_up, section, stable, twin, wait_until

STAMP = '<input type="hidden" id="version"'


def shown(messages) -> str:
    """#table and #me as a page shows them after these pushes, without countdowns or push numbers."""
    page = swaps.fold(messages)
    return stable(section(page, "table") + section(page, "me"))


def fresh_view(server, viewer) -> str:
    """What a page opened now shows: a new tab of the same browser gets the whole table at once."""
    tab = twin(server, viewer)
    tab.connect()
    try:
        return shown([tab.wait_for(lambda m: m.lstrip().startswith('<section id="table"'))])
    finally:
        tab.close()


def move(table, players, url, rng) -> None:
    """The player to act makes a legal move over HTTP (the host starts the next round)."""
    with table.lock:
        phase, version, rnd = table.phase, table.version, table.match.round
    if phase != "playing":
        assert players[0].post(f"{url}/next-round", {"version": version}).status_code == 204
        return
    seat = rnd.turn
    moves = rnd.playable(seat)
    if moves:
        tile, end = rng.choice(moves)
        values = {"tile": tile.text, "end": end or "", "version": version}
        response = players[seat].post(f"{url}/play", values)
    elif rnd.must_draw(seat):
        response = players[seat].post(f"{url}/draw", {"version": version})
    else:
        response = players[seat].post(f"{url}/pass", {"version": version})
    assert response.status_code == 204, response.text


@pytest.mark.slow  # whole rounds over real websockets, page by page
@pytest.mark.parametrize(("variant", "seats", "seed"), [("partnership", 4, 5), ("draw", 3, 6)])
def test_a_page_built_from_small_pushes_shows_the_whole_table(make_server, variant, seats, seed):
    # A page opened afresh at every step: more handshakes a second than a client may make (guard/limits.py)
    # on a quick machine, which is not what this test is about.
    server = make_server(START_CLOCK=False, PING_SECONDS=1, TABLES_OPTIONS={"rng": random.Random(seed)},
                         CONNECTS_PER_SECOND=0)
    url, players = seat_up(server, variant, seats)
    spectator = server.player()
    spectator.url = url
    viewers = [*players, spectator]
    for viewer in viewers:
        viewer.connect()
    table = server.app.extensions["fichas"].tables.get(url.rsplit("/", 1)[1])
    rng = random.Random(seed)
    rounds_seen = set()
    for step in range(70):
        move(table, players, url, rng)
        with table.lock:
            version, over = table.version, table.match.over
            rounds_seen.add(table.match.round.number)
        for viewer in viewers:
            viewer.wait_version(version)
        # One viewer a step (each in turn) is compared with a page opened afresh.
        viewer = viewers[step % len(viewers)]
        with viewer.arrived:
            messages = list(viewer.messages)
        assert shown(messages) == fresh_view(server, viewer), f"step {step}, viewer {step % len(viewers)}"
        if over:
            break
    assert len(rounds_seen) >= 2  # round boundaries were crossed
    for viewer in viewers:
        with viewer.arrived:
            messages = list(viewer.messages)
        small = [m for m in messages if m.startswith(STAMP)]
        whole = [m for m in messages if m.lstrip().startswith('<section id="table"')]
        # The whole table once, as the page connected: rounds' ends and new deals come in pieces too.
        assert len(whole) == 1 and len(small) > 1, "every push after the first sends only what changed"
        playing = [m for m in whole if 'data-phase="playing"' in m]
        assert sum(map(len, small)) / len(small) < sum(map(len, playing)) / len(playing)


class Clock:
    """The tables' clock, moved by the test."""

    def __init__(self):
        self.at = 1_000_000.0

    def __call__(self) -> float:
        return self.at


def test_a_turn_played_by_the_table_with_many_draws_reaches_every_page(make_server):
    """In Draw a timed-out turn is every tile drawn, then the play: more moves than the log shows."""
    clock = Clock()
    server = make_server(START_CLOCK=False, TABLES_OPTIONS={"rng": random.Random(8), "now": clock})
    url, players = seat_up(server, "draw", 2, ("Ana", "Bea"))
    spectator = server.player()
    spectator.url = url
    viewers = [*players, spectator]
    for viewer in viewers:
        viewer.connect()
    tables = server.app.extensions["fichas"].tables
    table = tables.get(url.rsplit("/", 1)[1])
    rng = random.Random(8)
    for _ in range(9):  # seed 8: then the seat to play must draw 13 tiles before one fits
        move(table, players, url, rng)
    with table.lock:
        rnd = table.match.round
        assert len(rnd.check_auto(rnd.turn)) > LOG_SHOWN + 1, "the seeded deal no longer makes a long turn"
    clock.at += 3600
    assert tables.expire(table.id)
    for viewer in viewers:
        viewer.wait_version(table.version)
        with viewer.arrived:
            messages = list(viewer.messages)
        assert messages[-1].startswith(STAMP)  # a push of changed pieces...
        assert shown(messages) == fresh_view(server, viewer)  # ...that leaves the page as a fresh one


def two_connected(make_server):
    """A Block table of two whose pages are connected, on a server whose clock stays still."""
    server = make_server(START_CLOCK=False)
    url, players = seat_up(server, "block", 2, ("Ana", "Bea"))
    for player in players:
        player.connect()
    table = server.app.extensions["fichas"].tables.get(url.rsplit("/", 1)[1])
    wait_until(lambda: all(table.connected(seat) for seat in range(2)))  # each page has had its whole table
    return url, players, table


def test_a_page_that_asks_gets_the_whole_table(make_server):
    url, players, table = two_connected(make_server)
    rng = random.Random(1)
    for _ in range(3):
        move(table, players, url, rng)
    players[1].wait_version(table.version)
    wait_until(lambda: players[1].latest().startswith(STAMP))
    count = len(players[1].messages)
    # Asked four times before anything changed: answered once (a page cannot make the table render
    # for it in a loop).
    for _ in range(4):
        players[1].socket.send('{"action":"refresh"}')
    wait_until(lambda: len(players[1].messages) > count)
    answer = players[1].messages[count]
    assert answer.lstrip().startswith('<section id="table"') and version_of(answer) == table.version
    assert shown(players[1].messages) == shown([answer])
    time.sleep(0.3)  # the other three asks are read and let go
    move(table, players, url, rng)
    players[1].wait_version(table.version)
    later = players[1].messages[count + 1:]
    assert len(later) == 1 and later[0].startswith(STAMP), later


def test_a_page_switching_language_in_place_gets_its_pushes_in_it(make_server):
    """static/fichas.js switches language over the open socket (a reload on one's own turn cut it to
    5 s): it gets the table whole in the new language (its clocks and counts), and later pushes."""
    url, players, table = two_connected(make_server)
    rng = random.Random(1)
    move(table, players, url, rng)
    players[1].wait_version(table.version)
    count = len(players[1].messages)
    for lang in ("es", "da", "es", "xx"):  # back and forth, then no language of this server
        players[1].socket.send(json.dumps({"action": "language", "lang": lang}, separators=(",", ":")))
    wait_until(lambda: any(m.startswith('<div id="flash"') for m in players[1].messages[count:]))
    time.sleep(0.3)
    answers = players[1].messages[count:]  # the table whole in each language; then the refusal, in Spanish
    wholes = [a for a in answers if a.lstrip().startswith('<section id="table"')]
    refusals = [a for a in answers if a.startswith('<div id="flash"')]
    assert len(wholes) == 3 and "Ronda 1" in wholes[0] and "Runde 1" in wholes[1], answers
    assert wholes[2] == wholes[0]  # kept from the first: back and forth renders nothing twice
    assert len(refusals) == 1 and "Ese mensaje no es una jugada" in refusals[0], answers
    players[1].socket.send(json.dumps({"action": "language", "lang": "es"}, separators=(",", ":")))
    time.sleep(0.3)
    assert len(players[1].messages) == count + len(answers)  # the language it speaks already: nothing
    move(table, players, url, rng)
    players[1].wait_version(table.version)
    pushed = players[1].messages[-1]
    assert pushed.startswith(STAMP) and "Le toca a " in pushed, pushed  # "Ana colocó el 1-6 … Le toca a Bea."
    assert " to play." in players[0].messages[-1]  # the other page: still English


def test_the_host_coming_and_going_mid_round_leaves_the_player_to_move_its_hand(make_server):
    """The host's presence was part of every #me's frame: the host's page closing sent the player to
    move a whole #me, whose new hand wiped the tile being chosen (an accessibility audit). It shows
    in #me between rounds only, where whoever may start the next one is told so."""
    server = make_server(START_CLOCK=False, HOST_AWAY_SECONDS=0)  # T13: the host gone is stood in for at once
    url, players = seat_up(server, "block", 3, ("Ana", "Bea", "Cai"))
    for player in players:
        player.connect()
    table = server.app.extensions["fichas"].tables.get(url.rsplit("/", 1)[1])
    wait_until(lambda: all(table.connected(seat) for seat in range(3)))
    rng = random.Random(2)
    while table.match.round.turn == 0:
        move(table, players, url, rng)
    mover = players[table.match.round.turn]
    mover.wait_version(table.version)
    for going in (True, False):
        count = len(mover.messages)
        if going:
            players[0].close()
        else:
            players[0].connect()
        wait_until(lambda going=going, count=count:
                   table.connected(0) is not going and len(mover.messages) > count)
        time.sleep(0.2)  # every push of it
        pushed = "".join(mover.messages[count:])
        assert 'id="me"' not in pushed and 'id="hand"' not in pushed and 'id="h-' not in pushed, pushed
    while table.phase == "playing":  # to the round's end, then the host away again
        move(table, players, url, rng)
    mover.wait_version(table.version)
    assert "Start the next round now" not in shown(mover.messages)
    players[0].close()
    # T13: the first seat after the host with a page open stands in (Bea), whoever moved last.
    wait_until(lambda: "Start the next round now" in shown(players[1].messages))
