"""GET /t/<id>/record.json: the finished rounds only (domino-match/1), never a round in progress."""

import json
import random

from game.record import load_match
from helpers import Browser, open_table
from helpers.pages import live_table, play_until, playing, round_over, tiles_in

NAMES = ("Ana", "Bea", "Carl", "Dan")


def record(browser, url) -> dict:
    response = browser.get(f"{url}/record.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    return response.get_json()


def test_record_before_any_round_ends_has_no_rounds(app):
    host = Browser(app)
    url = host.client.post("/tables", data={"name": "Ana", "variant": "block", "seats": 2, "target": 150,
                                            "csrf_token": host.csrf}).headers["Location"]
    waiting = record(Browser(app), url)
    assert waiting == {"format": "domino-match/1", "variant": "block", "seats": 2, "target": 150,
                       "players": ["Ana", ""], "rounds": [], "scores": [0, 0], "winner": None}
    guest = Browser(app)
    assert guest.post(f"{url}/join", {"name": "Bea"}).status_code == 204
    players = [host, guest]
    rng = random.Random(3)
    for moves in range(6):  # the round in progress never shows: no hands, no tiles, no events
        table = live_table(app, url)
        if not playing(table):
            break
        data = record(Browser(app), url)
        assert data["rounds"] == [] and data["players"] == ["Ana", "Bea"] and data["scores"] == [0, 0]
        text = json.dumps(data)
        assert "hands" not in text and "events" not in text and "boneyard" not in text
        assert tiles_in(text) == set(), moves
        play_until(app, url, players, rng, lambda t, v=table.version: t.version > v)


def test_record_after_a_round_has_exactly_that_round_and_replays(app):
    url, players = open_table(app, target=500, names=NAMES)
    table = play_until(app, url, players, random.Random(5), round_over)
    finished = table.match.round
    data = record(players[1], url)
    assert data["format"] == "domino-match/1"
    assert (data["variant"], data["seats"], data["target"], data["players"]) == ("partnership", 4, 500,
                                                                                 list(NAMES))
    assert len(data["rounds"]) == 1
    assert data["rounds"][0] == json.loads(json.dumps({**finished.to_dict(), "players": list(NAMES)}))
    assert data["rounds"][0]["result"]["points"] == finished.result.points
    assert data["scores"] == table.match.scores and data["winner"] == table.match.winner
    replayed = load_match(data)
    assert replayed.scores == table.match.scores and len(replayed.rounds) == 1
    assert [t.text for t in replayed.round.hands[0]] == [t.text for t in finished.hands[0]]
    # The next round is being played: the record still ends with round 1.
    assert players[0].post(f"{url}/next-round", {"version": table.version}).status_code == 204
    play_until(app, url, players, random.Random(6), lambda t: len(t.match.round.line) >= 3)
    later = record(Browser(app), url)
    assert later == data
    assert load_match(later).scores == data["scores"]


def test_record_of_a_whole_match_replays_to_its_winner(app):
    url, players = open_table(app, "draw", 3, target=50, names=NAMES[:3])
    table = play_until(app, url, players, random.Random(9), lambda t: t.phase == "over")
    data = record(Browser(app), url)
    assert len(data["rounds"]) == len(table.match.rounds)
    replayed = load_match(data)
    assert replayed.over and replayed.winner == data["winner"] == table.match.winner
    assert data["scores"] == table.match.scores and max(data["scores"]) >= 50
    # After the host starts a new match, the record is the new match's (nothing finished yet).
    assert players[0].post(f"{url}/next-round", {"version": table.version}).status_code == 204
    fresh = record(Browser(app), url)
    assert fresh["rounds"] == [] and fresh["winner"] is None and fresh["scores"] == [0, 0, 0]


def test_record_of_a_table_still_waiting_is_a_valid_record(app):
    """Before every seat is taken the record must still be domino-match/1: one name per seat."""
    host = Browser(app)
    url = host.client.post("/tables", data={"name": "Ana", "variant": "block", "seats": 3, "target": 100,
                                            "csrf_token": host.csrf}).headers["Location"]
    data = record(Browser(app), url)
    assert data["rounds"] == [] and data["seats"] == 3
    replayed = load_match(data)
    assert replayed.rounds == [] and replayed.scores == [0, 0, 0]
