"""Against a real server with short timers: a table whose players never act plays itself out."""

from __future__ import annotations

import random
import time

from game.record import load_match


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
