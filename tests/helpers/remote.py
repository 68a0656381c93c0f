"""Playing a table served by another process (gunicorn, shards behind nginx) from what its pages show.

Nothing here looks inside the server: a move is what the page's ws-send would send, read from the
screens as bench/load.py reads them.
"""

from __future__ import annotations

import html
import json
import time

from helpers import LivePlayer, version_of
from helpers.bench import load_generator
from helpers.pages import fold

PAGE = load_generator()  # the page's hooks, read as the load generator reads them


def shown(player: LivePlayer) -> str:
    """What the player's browser shows now: every push so far, swapped in."""
    with player.arrived:
        return fold(player.messages)


def next_move(players: list[LivePlayer]) -> tuple[LivePlayer, dict] | None:
    """Who acts now and what their page's ws-send sends, read from what was pushed to them."""
    screen = shown(players[0])
    phase = PAGE.PHASE.search(screen)
    version = str(version_of(screen))
    if phase and phase.group(1) == "over":
        return players[0], {"action": "next_round", "version": version}
    turn = PAGE.TURN.search(screen)
    if not phase or phase.group(1) != "playing" or turn is None:
        return None  # between rounds: the table starts the next one itself
    player = players[int(turn.group(1))]
    me = shown(player)
    if version_of(me) != int(version):
        return None  # that seat's push is not in yet
    options = [{"action": "play", "end": "left", "tile": tile} for tile in PAGE.FITS_LABEL.findall(me)]
    # A tile's button sends its own values merged with #hand's (the action).
    options += [{"action": "play", **json.loads(html.unescape(values))}
                for values in PAGE.FITS_BUTTON.findall(me)]
    options = options or [json.loads(html.unescape(values)) for values in PAGE.FORCED.findall(me)]
    return (player, {**options[0], "version": version}) if options else None


def phase_of(player: LivePlayer) -> str:
    found = PAGE.PHASE.search(shown(player))
    return found.group(1) if found else ""


def play_round(players: list[LivePlayer], timeout: float = 60.0) -> int:
    """Play the round that is on until it ends, each move reaching every seat; the moves played."""
    deadline = time.monotonic() + timeout
    moves = 0
    while phase_of(players[0]) == "playing":
        assert time.monotonic() < deadline, f"the round did not end within {timeout} s"
        move = next_move(players)
        if move is None:
            time.sleep(0.02)
            continue
        player, values = move
        player.send_move(values)
        for seat in players:
            seat.wait_version(int(values["version"]) + 1)
        moves += 1
    return moves


def seated_table(server) -> list[LivePlayer]:
    """A Partnership table of four honest players, each with its websocket open and the table in hand."""
    host = LivePlayer(server.url)  # server: anything with a .url (helpers/production.py)
    url = host.create("Ana", "partnership", 4)
    players = [host]
    for name in ("Bea", "Carl", "Dan"):
        guest = LivePlayer(server.url)
        guest.join(url, name)
        players.append(guest)
    for player in players:
        player.connect(url)
    version = version_of(players[0].wait_for(lambda m: 'id="table"' in m))
    for player in players:
        player.wait_version(version)
    return players
