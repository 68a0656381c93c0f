"""Each viewer of one table reads its pushes in its own language, from the same move."""

from __future__ import annotations

import threading

import pytest
import simple_websocket

from helpers.pages import hidden_from, screen, seat_up, section, table_id, tiles_in, wait_until
from web.push.pieces import Pieces
from web.push.publish import publish

NAMES = ("Ana", "Bea", "Carl", "Dan")


@pytest.fixture
def server(make_server):
    return make_server(START_CLOCK=False, PING_SECONDS=1)


def connect_with(player, url: str, accept_language: str) -> None:
    """Open the table's websocket as a browser that sends this Accept-Language (no `lang` cookie)."""
    player.url = url
    cookies = "; ".join(f"{c.name}={c.value}" for c in player.http.cookies)
    player.socket = simple_websocket.Client(player.base.replace("http", "ws", 1) + url + "/ws",
                                            headers={"Origin": player.base, "Cookie": cookies,
                                                     "Accept-Language": accept_language})
    threading.Thread(target=player._read, daemon=True).start()


def test_two_languages_at_one_table_each_get_their_own_in_the_same_push(server):
    url, players = seat_up(server)
    table = server.app.extensions["fichas"].tables.get(table_id(url))
    rnd = table.match.round
    seat, version = rnd.turn, table.version
    # The mover reads Spanish and the next to play Danish (both get a new #me), a third English.
    mover, following, third = players[seat], players[(seat + 1) % 4], players[(seat + 2) % 4]
    mover.http.cookies.set("lang", "es")  # chosen with the switch
    following.http.cookies.set("lang", "da")
    for player in (mover, following, third):
        player.connect()
    spectator = server.player()  # no cookie: the browser's Accept-Language decides
    connect_with(spectator, url, "da-DK,da;q=0.9,en;q=0.5")
    for viewer in (mover, following, third, spectator):
        viewer.wait_version(version, timeout=20)
    tile = rnd.hands[seat][0].text
    assert mover.post(f"{url}/play", {"tile": tile, "end": "", "version": version}).status_code == 204
    viewers = {"es": mover, "da": following, "en": third, "da, by its browser": spectator}
    pushed = {name: viewer.wait_version(version + 1, timeout=20) for name, viewer in viewers.items()}
    name = NAMES[seat]
    placed = {"en": f"{name} placed {tile}", "es": f"{name} colocó el {tile}", "da": f"{name} lagde {tile}"}
    for viewer, message in pushed.items():  # the pieces that changed (the line's first tile among them)
        lang = viewer[:2]
        assert placed[lang] in message, viewer
        for other in set(placed) - {lang}:
            assert placed[other] not in message, (viewer, other)
    # The same state in every language: one version, the same tiles on the line.
    assert {m.count(' id="t-') for m in pushed.values()} == {1}
    # Every language hides the same: nothing of another hand or of the boneyard.
    seats = {"es": seat, "da": (seat + 1) % 4, "en": (seat + 2) % 4, "da, by its browser": None}
    with table.lock:
        for viewer, message in pushed.items():
            assert not tiles_in(message) & hidden_from(table, seats[viewer]), viewer
    # Each seat's own part, rendered in the same push (its pieces that changed), is in its language too.
    assert "Esperando tu turno." in section(screen(mover, version + 1), "me")
    assert "Din tur." in section(screen(following, version + 1), "me")


def test_the_table_is_rendered_once_per_language_in_use(server, monkeypatch):
    """Four viewers in two languages: one push renders the shared #table twice, not four times."""
    url, players = seat_up(server)
    players[1].http.cookies.set("lang", "es")
    players[3].http.cookies.set("lang", "es")
    for player in players:
        player.connect()
    live = server.app.extensions["fichas"]
    table = live.tables.get(table_id(url))
    for player in players:
        player.wait_version(table.version, timeout=20)
    wait_until(lambda: len(live.hub.connections(table.id)) == 4, timeout=20)
    # Every page has had the latest push (a page still catching up would get the whole table).
    state = live.state[table.id]  # the web's own: what the table's pages were last pushed
    wait_until(lambda: all(c.seq == state.pushed.seq for c in live.hub.connections(table.id)), timeout=20)
    renders = []
    # What is announced is in the whole #table and in every push of its changed pieces: once per render.
    announce = Pieces.announce
    monkeypatch.setattr(Pieces, "announce", lambda self: renders.append(self.env.language) or announce(self))
    with table.lock:  # one push, as after a move (presence pushes from elsewhere wait for the lock)
        publish(server.app, live.hub, live.state, live.tables.snapshot(table))
    assert sorted(renders) == ["en", "es"]
