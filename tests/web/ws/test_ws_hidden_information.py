"""Hidden information (S2, T9, D1): whole matches over HTTP, and every payload scanned.

Four (or N) players and a spectator keep a websocket open while a whole match is played by
HTTP posts. After every change the test notes, from the engine, what each viewer must not
see at that version: the other hands and the boneyard (a tile drawn is in its drawer's hand,
so only the drawer may see it; tiles on the line are public; so is the tile D2 forces the
opener to place, until it is placed). Then every message each socket received, every page
fetched and every refusal's body is checked against the note for its version: no tile of it
may appear in any form (data-tile, aria-label, title, text such as "placed 3-5", or pips).
Once a round is over the hands are shown (T9, and the reveal is checked), but what is left of
the boneyard stays face down (D1) and is still looked for.
"""

from __future__ import annotations

import random
import re

import pytest

from helpers import version_of
from helpers.pages import (
    fold,
    hand_of,
    hand_texts,
    hidden_from,
    line_of,
    line_texts,
    reveal_of,
    section,
    table_id,
    tiles_in,
)

NAMES = ("Ana", "Bea", "Carl", "Dan")
SPECTATOR = None
UNSEEN = re.compile(r"<dt>(\d)</dt><dd>(\d)</dd>")


def unseen_of(text: str) -> list[int] | None:
    """The unseen-tiles panel's count for each number 0-6 as the page shows it, None if absent."""
    panel = re.search(r'<div id="unseen"[^>]*>(.*?)</dl>', text, re.S)
    return None if panel is None else [int(count) for _, count in UNSEEN.findall(panel.group(1))]


def unseen_from(line: list[str], hand: list[str]) -> list[int]:
    """What the panel may say: each number's 7 tiles less those on the line and in the own hand."""
    return [7 - sum(str(n) in tile.split("-") for tile in line + hand) for n in range(7)]


class Notes:
    """What the engine says at each version: the secret tiles per viewer, the hands, the line."""

    def __init__(self, table, seats: int):
        self.table, self.seats = table, seats
        self.at: dict[int, dict] = {}

    def take(self) -> int:
        table = self.table
        with table.lock:
            rnd = table.match.round if table.match else None
            self.at[table.version] = {
                "hidden": {viewer: hidden_from(table, viewer) for viewer in (*range(self.seats), SPECTATOR)},
                "hands": [hand_texts(rnd, s) for s in range(self.seats)] if rnd else None,
                "line": line_texts(rnd) if rnd else [],
                "over": rnd is not None and rnd.over,
                "playing": table.phase == "playing",
            }
            return table.version

    def check(self, text: str, viewer: int | None, where: str, version: int | None = None) -> None:
        """No tile secret from `viewer` at the text's version appears anywhere in it."""
        version = version_of(text) if version is None else version
        leaked = tiles_in(text) & self.at[version]["hidden"][viewer]
        who = "the spectator" if viewer is None else f"seat {viewer}"
        assert not leaked, f"{where} shows {who} the secret tiles {sorted(leaked)} at version {version}"


def get(player, url: str) -> str:
    response = player.http.get(player.base + url)
    assert response.status_code == 200
    return response.text


CSRF_VALUES = re.compile(r'(csrf-token" content="|X-CSRF-Token&#34;: &#34;|"X-CSRF-Token": ")[^"&]+')


def replay_page(who, url: str) -> str:
    """A replay page (issue 45) as fetched, its CSRF token (new at each answer) left out."""
    return CSRF_VALUES.sub(r"\1", get(who, url))


def check_replays(who, viewer, url: str, rnd, replays: dict, notes: Notes, version: int) -> None:
    """While a round is played: the earlier rounds' replay pages are byte for byte what they were before
    it was dealt (nothing of it can be in them), and the round itself has none (404, no tile of it)."""
    for path, before in replays.items():
        assert replay_page(who, path) == before, f"{path} changed while round {rnd.number} is played"
    live = who.http.get(f"{who.base}{url}/matches/1/rounds/{rnd.number}")
    assert live.status_code == 404
    notes.check(live.text, viewer, "the live round's replay", version)


def play_a_match(server, variant: str, seats: int, seed: int, checked_pages: list,
                 replays: dict | None = None) -> tuple:
    """Seat everyone, connect, and play the match to its end over HTTP; returns what was seen.

    `replays`: each finished round's replay pages (path -> page, as first fetched), checked while later
    rounds are played (check_replays)."""
    rng = random.Random(seed)
    host = server.player()
    url = host.create(NAMES[0], variant, seats, target=50)
    table = server.app.extensions["fichas"].tables.get(table_id(url))
    notes = Notes(table, seats)
    notes.take()
    spectator = server.player()
    spectator.url = url
    spectator.connect()
    host.connect()
    players = [host]
    for name in NAMES[1:seats]:
        guest = server.player()
        guest.join(url, name)
        notes.take()
        guest.connect()
        players.append(guest)
    viewers = [*enumerate(players), (SPECTATOR, spectator)]
    step = 0
    while True:
        step += 1
        with table.lock:
            phase, version = table.phase, table.version
            rnd = table.match.round
        # Every page fetched along the way is checked too, one viewer after another.
        viewer, who = viewers[step % len(viewers)]
        html = get(who, url)
        checked_pages.append((viewer, html))
        notes.check(html, viewer, "a page")
        if phase == "over":
            break
        if phase == "pause":
            for _, who in viewers:  # T9: every hand face up, for everyone
                html = get(who, url)
                assert all(reveal_of(html, s) == set(notes.at[version]["hands"][s]) for s in range(seats))
            if replays is not None:  # its replay, at its deal, a move in and its end, before the next deal;
                # the earlier rounds' pages again (their list of the match's rounds now names this one)
                paths = [*replays, *(f"{url}/matches/1/rounds/{rnd.number}?move={move}"
                                     for move in (0, 1, len(rnd.events)))]
                replays.update((path, replay_page(spectator, path)) for path in paths)
            assert host.post(f"{url}/next-round", {"version": version}).status_code == 204
            notes.take()
            continue
        seat = rnd.turn
        if replays and step % 3 == 0:
            check_replays(who, viewer, url, rnd, replays, notes, version)
        if step % 5 == 0:  # table talk rides the same sockets: its pushes are scanned too
            players[seat].send_move({"action": "talk", "phrase": "good_move"})
            players[(seat + 1) % seats].send_move({"action": "talk", "reaction": "wow"})
            spectator.send_move({"action": "talk", "talk": "who holds the double six?"})
        if step % 4 == 0:  # refusals carry a message, and a stale one a fresh render: check them
            other = (seat + 1) % seats
            refused = players[other].post(f"{url}/play", {"tile": rnd.hands[other][0].text, "end": "",
                                                          "version": version})
            assert refused.status_code == 409
            notes.check(refused.text, other, "a refusal", version)
            stale = players[seat].post(f"{url}/pass", {"version": version - 1})
            assert stale.status_code == 409
            notes.check(stale.text, seat, "a stale refusal")
            assert hand_of(stale.text) == notes.at[version]["hands"][seat]
        moves = rnd.playable(seat)
        if moves:
            tile, end = rng.choice(moves)
            response = players[seat].post(f"{url}/play", {"tile": tile.text, "end": end or "",
                                                          "version": version})
        elif rnd.must_draw(seat):
            response = players[seat].post(f"{url}/draw", {"version": version})
        else:
            response = players[seat].post(f"{url}/pass", {"version": version})
        assert response.status_code == 204, response.text
        notes.take()
    return url, table, notes, viewers


@pytest.mark.parametrize(("variant", "seats", "seed"), [
    ("partnership", 4, 1),
    ("block", 3, 2),
    ("draw", 2, 3),
    ("draw", 4, 4),
])
def test_s2_no_payload_shows_a_secret_tile_in_a_whole_match(make_server, variant, seats, seed):
    # A ping a second flushes a push the test client would hold back (see test_ws_push.server).
    server = make_server(START_CLOCK=False, PING_SECONDS=1, TABLES_OPTIONS={"rng": random.Random(seed)})
    pages: list = []
    replays: dict = {}
    _, table, notes, viewers = play_a_match(server, variant, seats, seed, pages, replays)
    final = table.version
    rounds = len(table.match.rounds)
    assert table.match.over and rounds >= 1
    draws = sum(e.action == "draw" for r in table.match.rounds for e in r.events)
    assert draws > 0 or variant != "draw"  # the boneyard was really exercised
    secret_at = [v for v, note in notes.at.items() if note["playing"]]
    assert len(secret_at) > 20
    for viewer, who in viewers:
        who.wait_version(final)
        with who.arrived:
            everything = list(who.messages)
        # Table talk's pushes (and its answers) carry no version: each is checked against the table as it
        # was when it came (the version of the push before it).
        messages, talked, version = [], 0, None
        for message in everything:
            if message.startswith(('<div id="talk-log"', '<div id="talk-flash"')):
                notes.check(message, viewer, "a talk push", version)
                talked += message.startswith('<div id="talk-log" hx-swap-oob="beforeend">')
            else:
                messages.append(message)
                version = version_of(message)
        assert talked > 0, f"viewer {viewer} heard no table talk"
        versions = [version_of(m) for m in messages]
        assert versions == sorted(versions), f"pushes out of order for viewer {viewer}"
        assert set(range(versions[0], final + 1)) <= set(versions), f"viewer {viewer} missed a change"
        for index, message in enumerate(messages):
            notes.check(message, viewer, f"push #{index}")
            # The whole #table, or only its changed pieces after the stamp (web/push/pieces.py).
            assert message.lstrip().startswith(('<section id="table"', '<input type="hidden" id="version"'))
        # What the browser shows after each push: its own hand only, and the line as it is.
        shown = ""
        for index, message in enumerate(messages):
            shown = fold([shown, message])
            note = notes.at[versions[index]]
            if not note["playing"]:
                continue
            assert line_of(shown) == note["line"]
            # The round's result (with every hand's points) is shown only once the round is over.
            assert 'class="result"' not in shown and "Left in hands" not in shown
            if viewer is SPECTATOR:
                assert hand_of(shown) is None
            else:
                assert hand_of(shown) == note["hands"][viewer], f"seat {viewer} at version {versions[index]}"
                assert section(shown, "me") is not None
            # The unseen counts: the line and the viewer's own hand only, kept up to date.
            own = [] if viewer is SPECTATOR else note["hands"][viewer]
            assert unseen_of(shown) == unseen_from(note["line"], own), f"{viewer} at {versions[index]}"
    assert len(pages) > rounds * 10
    assert len(replays) == 3 * (rounds - 1)  # each round but the last, checked through the rounds after it
