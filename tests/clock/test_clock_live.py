"""Against a real server with short timers: a table whose players never act plays itself out."""

from __future__ import annotations

import random
import re
import time

import pytest

from game.record import load_match
from helpers.pages import choose_move, seat_up, shown_now, wait_until


@pytest.mark.slow  # a whole match played by the clock in real time
def test_s3_the_table_plays_a_whole_match_for_players_who_never_act(make_server):
    # Seed 0 deals a match the table plays out in two rounds (45 turns): a pause is crossed too.
    server = make_server(TURN_SECONDS=0.1, OFFLINE_SECONDS=0.05, PAUSE_SECONDS=0.1, GRACE_SECONDS=0,
                         TABLES_OPTIONS={"rng": random.Random(0)})
    players = [server.player() for _ in range(4)]
    url = players[0].create("Ana", target=50)
    for player, name in zip(players[1:], ("Bea", "Carl", "Dan"), strict=True):
        player.join(url, name)
    for player in players:
        player.connect(url)
    deadline = time.monotonic() + 90
    record = {"winner": None}
    while record["winner"] is None and time.monotonic() < deadline:
        time.sleep(0.5)
        record = players[0].http.get(server.url + url + "/record.json").json()
    assert record["winner"] is not None, "the match did not end by itself"
    assert len(record["rounds"]) == 2, "seed 0 no longer deals a two-round match"
    events = [e for r in record["rounds"] for e in r["events"]]
    assert events and all(e["auto"] for e in events)
    match = load_match(record)  # replay: each automatic move must be S3's first fitting tile
    assert match.scores[record["winner"]] >= 50
    final = players[2].wait_for(lambda m: "win the match" in m, timeout=10)
    assert "played by the table" in final


TIMED_OUT = "Your time ran out: the table made your move."


def prompt_of(player) -> str:
    """The words of the player's #me prompt as its page shows it now."""
    shown = shown_now(player)
    found = re.search(r'<p class="prompt" id="prompt"[^>]*>(.*?)</p>', shown, re.S)
    assert found, shown[-500:]
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())


def opener_leaves(make_server) -> tuple:
    """Two players at a seeded Block table with long turns (nobody races the clock); the opener's
    page closes, so its turns last OFFLINE (S4). Returns the url, the players, the table, the
    absent seat and the other."""
    server = make_server(TURN_SECONDS=60, OFFLINE_SECONDS=0.5, PAUSE_SECONDS=60, GRACE_SECONDS=0,
                         TABLES_OPTIONS={"rng": random.Random(3)})
    url, players = seat_up(server, "block", 2, ("Ana", "Bea"))
    for player in players:
        player.connect(url)
    table = server.app.extensions["fichas"].tables.get(url.rsplit("/", 1)[-1])
    wait_until(lambda: table.match is not None and table.match.round is not None, timeout=10)
    absent = table.match.round.turn
    players[absent].close()
    return url, players, table, absent, 1 - absent


def test_a_player_whose_time_ran_out_is_told_the_table_moved_for_them_until_their_next_turn(make_server):
    """The table's move for an absent player showed only as a ringed tile and a line of the log, below
    the fold: back at the page, the player could not tell why the tile was gone from the hand."""
    url, players, table, absent, other = opener_leaves(make_server)
    wait_until(lambda: table.match.round.events, timeout=10)
    assert table.match.round.events[-1].auto and table.match.round.events[-1].seat == absent
    players[absent].messages.clear()
    players[absent].connect(url)  # back at the page
    players[absent].wait_version(table.version)
    wait_until(lambda: TIMED_OUT in prompt_of(players[absent]))
    assert "Waiting for your turn." in prompt_of(players[absent])
    players[other].wait_version(table.version)
    assert TIMED_OUT not in prompt_of(players[other]) and "Your turn." in prompt_of(players[other])

    for mover in (other, absent):  # each moves in time: the words go once the absent player has moved
        with table.lock:
            assert table.match.round.turn == mover
            _, action, fields = choose_move(table, random.Random(1))
        players[mover].send_move({"action": action, **{k: str(v) for k, v in fields.items()}})
        wait_until(lambda mover=mover: table.match.round.turn != mover or table.match.round.over)
        players[absent].wait_version(table.version)
    # The push of the absent player's own move is in: it waits again, with no word of the clock.
    assert table.match.round.over or prompt_of(players[absent]) == "Waiting for your turn."


def test_a_player_away_for_several_turns_is_told_how_many_the_table_made(make_server):
    """Away for two turns, the player read "the table made your move", as if it had made one."""
    url, players, table, absent, other = opener_leaves(make_server)

    def made_for_absent() -> int:
        return sum(e.seat == absent and e.auto for e in table.match.round.events)

    wait_until(lambda: made_for_absent() == 1, timeout=10)
    with table.lock:
        _, action, fields = choose_move(table, random.Random(1))
    players[other].send_move({"action": action, **{k: str(v) for k, v in fields.items()}})
    wait_until(lambda: made_for_absent() == 2 or table.match.round.over, timeout=10)
    assert not table.match.round.over, "the seeded round ended too soon for this test"
    players[absent].messages.clear()
    players[absent].connect(url)
    players[absent].wait_version(table.version)
    wait_until(lambda: "Your time ran out: the table made your last 2 moves." in prompt_of(players[absent]))
