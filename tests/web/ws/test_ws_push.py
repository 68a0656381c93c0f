"""The websocket against a real server: pushes to every viewer, refreshes, origin, presence, size."""

import random
import re

import pytest
import simple_websocket

from helpers import version_of
from helpers.pages import (
    cookie_header,
    hand_of,
    hand_texts,
    handshake_status,
    line_of,
    play_until,
    screen,
    seat_panels,
    seat_up,
    shown_now,
    table_id,
    turn_seat,
    twin,
    wait_new,
    wait_until,
)

NAMES = ("Ana", "Bea", "Carl", "Dan")


@pytest.fixture
def server(make_server):
    """A real server whose clock stays still: these tests are about pushes, not timeouts.

    The test client (simple_websocket.Client) leaves a message that arrives in the same read as
    the handshake's answer unprocessed until more data comes; a ping each second bounds that
    delay (browsers do not have this problem).
    """
    return make_server(START_CLOCK=False, PING_SECONDS=1)


def live(server, url):
    return server.app.extensions["fichas"].tables.get(table_id(url))



def online(message: str, seat: int) -> bool:
    classes, inner = seat_panels(message)[seat]
    return "offline" not in classes and "disconnected" not in inner


def test_a_move_reaches_every_seat_and_spectator(server):
    url, players = seat_up(server)
    spectator = server.player()
    spectator.url = url
    for viewer in (*players, spectator):
        viewer.connect()
    table = live(server, url)
    rnd = table.match.round
    seat, version = rnd.turn, table.version
    for viewer in (*players, spectator):
        viewer.wait_version(version)
    tile = rnd.hands[seat][0].text
    response = players[seat].post(f"{url}/play", {"tile": tile, "end": "", "version": version})
    assert response.status_code == 204
    for viewer_seat, viewer in enumerate(players):
        message = viewer.wait_version(version + 1)  # the line's first tile: sent as the pieces that changed
        assert version_of(message) == version + 1 and f"placed {tile}" in message
        shown = screen(viewer, version + 1)
        assert line_of(shown) == [tile] and turn_seat(shown) == (seat + 1) % 4
        assert hand_of(shown) == hand_texts(rnd, viewer_seat)
    shown = screen(spectator, version + 1)
    assert line_of(shown) == [tile] and hand_of(shown) is None and "You are watching" in shown


def test_connecting_gives_a_full_refresh_at_the_current_version(server):
    url, players = seat_up(server, "block", 3, NAMES[:3])
    table = live(server, url)
    rnd = table.match.round
    seat = rnd.turn
    assert players[seat].post(f"{url}/play", {"tile": rnd.opening_tile.text, "end": "",
                                              "version": table.version}).status_code == 204
    for viewer_seat, player in enumerate(players):
        player.connect()
        first = player.wait_for(lambda m: True)
        assert version_of(first) == table.version
        assert hand_of(first) == hand_texts(rnd, viewer_seat)
        assert line_of(first) == [rnd.opening_tile.text]


def test_a_reconnecting_tab_catches_up_with_what_it_missed(server):
    url, players = seat_up(server, "draw", 2, NAMES[:2])
    for player in players:
        player.connect()
    table = live(server, url)
    players[1].wait_version(table.version)
    players[1].close()
    wait_until(lambda: not table.connected(1))
    rnd = table.match.round
    assert players[rnd.turn].post(f"{url}/play", {"tile": rnd.opening_tile.text, "end": "",
                                                  "version": table.version}).status_code == 204
    again = twin(server, players[1]).connect(url)
    first = again.wait_for(lambda m: True)
    assert version_of(first) == table.version
    assert line_of(first) == [rnd.opening_tile.text] and hand_of(first) == hand_texts(rnd, 1)
    wait_until(lambda: online(shown_now(players[0]), 1))


@pytest.mark.parametrize("origin", ["http://evil.example", "http://127.0.0.1:1", "null", None,
                                    "http://127.0.0.1.evil.example"])
def test_the_websocket_refuses_a_foreign_origin(server, origin):
    url, players = seat_up(server, "block", 2, NAMES[:2])
    headers = {"Cookie": cookie_header(players[0])}
    if origin is not None:
        headers["Origin"] = origin
    assert handshake_status(server.url, f"{url}/ws", headers) == 403
    assert server.app.extensions["fichas"].hub.count() == 0
    assert not live(server, url).connected(0)


def test_the_websocket_accepts_its_own_origin(server):
    url, players = seat_up(server, "block", 2, NAMES[:2])
    players[0].connect()
    assert version_of(players[0].wait_for(lambda m: True)) == live(server, url).version
    assert server.app.extensions["fichas"].hub.count() == 1


def test_the_websocket_of_an_unknown_table_is_refused_at_the_handshake(server):
    assert handshake_status(server.url, "/t/no-such-table/ws", {"Origin": server.url}) == 404
    assert server.app.extensions["fichas"].hub.count() == 0


def test_presence_seat_panel_shows_connected_and_offline(server):
    url, players = seat_up(server, "block", 3, NAMES[:3])
    table = live(server, url)
    watcher = server.player()
    watcher.url = url
    watcher.connect()
    first = watcher.wait_for(lambda m: True)
    assert all(not online(first, seat) for seat in range(3))
    players[1].connect()
    watcher.wait_for(lambda m: online(m, 1) and not online(m, 0) and not online(m, 2))
    # Two tabs of one browser: closing one leaves the seat connected.
    second_tab = twin(server, players[1]).connect(url)
    second_tab.wait_for(lambda m: True)
    wait_until(lambda: table.sockets[1] == 2)
    players[1].close()
    wait_until(lambda: table.sockets[1] == 1)
    assert online(second_tab.latest(), 1) and online(watcher.latest(), 1)
    count = len(watcher.messages)
    second_tab.close()
    message = wait_new(watcher, count, lambda m: not online(m, 1))
    classes, inner = seat_panels(message)[1]
    assert "offline" in classes and "disconnected" in inner
    # Said once to a screen reader (the grey dot is only seen: its tooltip is for a mouse).
    assert re.sub(r' title="[^"]*"', "", inner).count("disconnected") == 1, inner
    assert version_of(message) == table.version  # presence is not a change of the game


def test_a_big_websocket_message_closes_the_socket(server):
    """Browsers send nothing big: a message over the limit ends the socket, and the seat is offline.

    simple-websocket ends the socket without waking the handler's pending receive; the handler
    must still notice (it waits with a timeout), or the seat would look connected for ever (S4).
    """
    url, players = seat_up(server, "block", 2, NAMES[:2])
    table = live(server, url)
    players[0].connect()
    players[0].wait_for(lambda m: True)
    wait_until(lambda: table.connected(0))
    try:
        players[0].socket.send("x" * 10_000)
    except simple_websocket.ConnectionClosed:
        pass
    wait_until(lambda: not players[0].socket.connected)
    assert players[0].socket.close_reason == 1009  # "message too big"
    wait_until(lambda: not table.connected(0))
    assert server.app.extensions["fichas"].hub.count() == 0


def test_t13_at_the_match_end_the_guest_standing_in_is_told_and_offered_the_next_match(make_server):
    """Once the host has been gone for the host's wait (T13), the first guest present is offered "New
    match, same seats": the result box, which said only the host could start it, now says who stands
    in (it is re-sent), and the table wakes by itself to say it."""
    server = make_server(HOST_AWAY_SECONDS=1.0)
    url, players = seat_up(server, "block", 2, NAMES[:2])
    table = live(server, url)
    play_until(server.app, url, players, random.Random(5), lambda t: t.phase == "over")
    for player in players:
        player.connect()
        player.wait_version(table.version)
    guest = players[1]
    assert "Ana, the host, can start a new match" in shown_now(guest)
    count = len(guest.messages)
    players[0].close()
    wait_new(guest, count, lambda m: "stands in" in m)
    shown = shown_now(guest)
    assert "Ana, the host, is away: Bea stands in and can start a new match with the same seats." in shown
    assert "Ana, the host, is away: you stand in." in shown
    assert "the host, can start" not in shown and "New match, same seats" in shown
