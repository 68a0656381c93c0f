"""Issue 45: a finished round replayed move by move, every hand open (T9), and any record brought to /replay.

Each position a page shows is checked against the engine replaying the record's first k events; the round
being played has no replay (404), and /replay refuses any broken record with a 400/413 that says where.
"""

from __future__ import annotations

import copy
import functools
import html
import io
import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.record import dumps, export_match, replay_event
from game.rules import Round
from game.simulate import play_match
from game.tiles import Tile
from game.variants import VARIANTS
from helpers import Browser, open_table
from helpers.pages import play_until, playing, round_over

SEAT = re.compile(r'<li class="rp-seat[^"]*"[^>]*data-seat="(\d)">(.*?)</li>', re.S)
TILE = re.compile(r'data-tile="(\d-\d)"')


def board(page: str) -> dict:
    """What a replay page shows: the position's numbers, the line's tiles in order, each seat's hand."""
    replay = re.search(r'<div id="replay"[^>]*>', page).group(0)
    facts = dict(re.findall(r'data-(round|at|total|turn|boneyard)="([^"]*)"', replay))
    line = re.search(r'<div class="line chain rp-line"[^>]*>(.*?)</div>', page, re.S).group(1)
    return {**facts, "line": TILE.findall(line),
            "hands": {int(seat): TILE.findall(body) for seat, body in SEAT.findall(page)}}


def engine_at(record: dict, number: int, moves: int) -> Round:
    """Round `number` of `record` after its first `moves` events, by the engine itself."""
    variant = VARIANTS[record["variant"]]
    rounds = record["rounds"]
    previous = None
    for data in rounds[:number]:
        hands = [[Tile.parse(t) for t in hand] for hand in data["hands"]]
        rnd = Round(variant, hands, [Tile.parse(t) for t in data["boneyard"]], data["number"], previous)
        events = data["events"] if data["number"] < number else data["events"][:moves]
        for event in events:
            replay_event(rnd, event)
        previous = rnd.opener
    return rnd


def tile_key(a: int, b: int) -> str:
    return f"{min(a, b)}-{max(a, b)}"


def assert_same(page: str, rnd: Round, moves: int) -> None:
    shown = board(page)
    assert int(shown["at"]) == moves
    assert shown["line"] == [tile_key(a, b) for a, b in rnd.line]
    assert shown["hands"] == {seat: [t.text for t in hand] for seat, hand in enumerate(rnd.hands)}
    assert int(shown["boneyard"]) == len(rnd.boneyard)
    assert shown["turn"] == ("" if rnd.over else str(rnd.turn))


def finished_table(app, variant="partnership", seats=4, seed=7):
    url, players = open_table(app, variant, seats)
    play_until(app, url, players, random.Random(seed), round_over)
    return url, players


@pytest.mark.parametrize(("variant", "seats"), [("partnership", 4), ("block", 3), ("draw", 2)])
def test_each_position_of_a_finished_round_is_the_engines(app, variant, seats):
    url, players = finished_table(app, variant, seats)
    record = json.loads(players[0].get(f"{url}/record.json").get_data(as_text=True))
    total = len(record["rounds"][0]["events"])
    for moves in range(total + 1):
        page = players[1].get(f"{url}/matches/1/rounds/1?move={moves}")
        assert page.status_code == 200
        assert_same(page.get_data(as_text=True), engine_at(record, 1, moves), moves)


def test_first_and_last_positions_and_out_of_range_moves(app):
    url, players = finished_table(app)
    record = json.loads(players[0].get(f"{url}/record.json").get_data(as_text=True))
    total = len(record["rounds"][0]["events"])
    first = players[0].get(f"{url}/matches/1/rounds/1").get_data(as_text=True)  # no ?move: the deal
    assert board(first)["at"] == "0" and board(first)["line"] == []
    assert 'id="go-0" tabindex="-1" aria-current="step"' in first
    last = players[0].get(f"{url}/matches/1/rounds/1?move=9999").get_data(as_text=True)
    assert board(last)["at"] == str(total) and board(last)["turn"] == ""
    assert 'class="rp-result"' in last  # the round's result, at its last move
    assert players[0].get(f"{url}/matches/1/rounds/1?move=x").status_code == 200  # unreadable: the deal


def test_a_link_to_a_position_opens_it_for_anyone(app):
    url, players = finished_table(app)
    page = players[0].get(f"{url}/matches/1/rounds/1?move=5").get_data(as_text=True)
    link = re.search(r'id="rp-link"[^>]*value="([^"]+)"', page).group(1)
    assert link.endswith(f"{url}/matches/1/rounds/1?move=5#move-5")
    spectator = Browser(app).get(link.split("://", 1)[1].split("/", 1)[1].join(["/", ""]))
    shown = spectator.get_data(as_text=True)
    assert board(shown)["at"] == "5" and 'id="move-5"' in shown
    assert '<span class="rp-here" id="go-5" tabindex="-1" aria-current="step">' in shown


def test_a_step_by_htmx_swaps_the_replay_alone(app):
    url, players = finished_table(app)
    part = players[0].get(f"{url}/matches/1/rounds/1?move=2", headers={"HX-Request": "true",
                                                                       "HX-Target": "replay"})
    text = part.get_data(as_text=True)
    assert text.lstrip().startswith('<div id="replay"') and "<html" not in text


def test_the_round_in_play_has_no_replay(app):
    url, players = finished_table(app)
    play_until(app, url, players, random.Random(3), playing)  # round 2 dealt and being played
    live = players[0].get(f"{url}/matches/1/rounds/2")
    assert live.status_code == 404
    assert "still being played" in live.get_data(as_text=True)
    assert not TILE.findall(live.get_data(as_text=True))
    assert players[0].get(f"{url}/matches/1/rounds/2.txt").status_code == 404
    assert players[0].get(f"{url}/matches/1/rounds/3").status_code == 404
    assert players[0].get(f"{url}/matches/2/rounds/1").status_code == 404
    assert players[0].get(f"{url}/matches/1/rounds/1").status_code == 200


def test_an_earlier_matchs_rounds_replay_after_a_new_match(app):
    url, players = open_table(app, "block", 2, target=50)
    rng = random.Random(5)
    play_until(app, url, players, rng, lambda t: t.phase == "over")
    record = json.loads(players[0].get(f"{url}/record.json").get_data(as_text=True))
    play_until(app, url, players, rng, lambda t: t.match_no == 2 and t.phase == "playing")
    for number in range(1, len(record["rounds"]) + 1):
        total = len(record["rounds"][number - 1]["events"])
        page = players[1].get(f"{url}/matches/1/rounds/{number}?move={total}").get_data(as_text=True)
        assert_same(page, engine_at(record, number, total), total)
    sheet = players[0].get(url).get_data(as_text=True)
    assert f'href="{url}/matches/1/rounds/1"' in sheet  # the earlier match's replay, from the score sheet


def test_the_sheet_and_the_result_link_each_finished_round(app):
    url, players = finished_table(app)
    page = players[2].get(url).get_data(as_text=True)
    assert page.count(f'href="{url}/matches/1/rounds/1"') == 2  # the score sheet's row and the result box


def test_the_round_in_words_one_line_a_move(app):
    url, players = finished_table(app, "draw", 2)
    record = json.loads(players[0].get(f"{url}/record.json").get_data(as_text=True))
    text = players[0].get(f"{url}/matches/1/rounds/1.txt")
    assert text.mimetype == "text/plain"
    lines = text.get_data(as_text=True).splitlines()
    events = record["rounds"][0]["events"]
    for n, event in enumerate(events, start=1):
        line = next(line for line in lines if line.startswith(f"{n}. "))
        if event["action"] != "pass":
            assert event["tile"] in line
    spanish = Browser(app)
    spanish.client.set_cookie("lang", "es")
    assert "Ronda 1" in spanish.get(f"{url}/matches/1/rounds/1.txt").get_data(as_text=True)


# -- /replay: a record from anywhere ------------------------------------------------------------------

@functools.cache
def _simulated(variant: str, seats: int, seed: int) -> str:
    return dumps(export_match(play_match(variant, seats, 100, random.Random(seed), 0.3)))


def simulated(variant="partnership", seats=4, seed=1) -> dict:
    return json.loads(_simulated(variant, seats, seed))


@pytest.fixture
def visitor(app) -> Browser:
    """A browser with no seat anywhere."""
    return Browser(app)


def upload(browser: Browser, text: str | bytes, at: str | None = None, as_file: bool = True):
    data = {"csrf_token": browser.csrf}
    if at:
        data["at"] = at
    if as_file:
        data["record"] = (io.BytesIO(text if isinstance(text, bytes) else text.encode()), "match.json")
    else:
        data["record"] = text
    return browser.client.post("/replay", data=data, content_type="multipart/form-data" if as_file else None)


def find_round(record: dict, wanted) -> int:
    return next(n for n, data in enumerate(record["rounds"], start=1) if wanted(data))


def long_draws(data: dict) -> bool:
    run = best = 0
    for event in data["events"]:
        run = run + 1 if event["action"] == "draw" else 0
        best = max(best, run)
    return best >= 3


@pytest.mark.parametrize(("variant", "seats", "wanted"), [
    ("partnership", 4, lambda data: data["result"]["reason"] == "domino"),
    ("partnership", 4, lambda data: data["result"]["reason"] == "blocked"),
    ("block", 3, lambda data: data["result"]["reason"] == "blocked"),
    ("draw", 2, long_draws),
    ("draw", 3, lambda data: data["result"]["reason"] == "blocked"),
])
def test_a_valid_record_of_each_game_replays_position_by_position(visitor, variant, seats, wanted):
    records = (simulated(variant, seats, seed) for seed in range(1, 60))
    record = next(record for record in records if any(wanted(data) for data in record["rounds"]))
    number = find_round(record, wanted)
    total = len(record["rounds"][number - 1]["events"])
    for moves in range(total + 1):
        answer = upload(visitor, json.dumps(record), at=f"{number}-{moves}", as_file=moves % 2 == 0)
        assert answer.status_code == 200, answer.get_data(as_text=True)
        assert_same(answer.get_data(as_text=True), engine_at(record, number, moves), moves)


def test_the_replay_form_is_a_page(visitor):
    page = visitor.get("/replay")
    assert page.status_code == 200 and 'name="record"' in page.get_data(as_text=True)


def refusal(answer) -> str:
    text = answer.get_data(as_text=True)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text)))


def corrupt_tile(record):
    data = record["rounds"][1]["events"][4]
    data.update({"action": "play", "tile": "6-6" if data.get("tile") != "6-6" else "0-0", "end": "left"})
    return "Round 2, move 5"


def corrupt_score(record):
    record["scores"][0] += 1
    return "scores"


def corrupt_result(record):
    record["rounds"][0]["result"]["points"] += 5
    return "Round 1"


def shorten_boneyard(record):
    record["rounds"][0]["boneyard"] = record["rounds"][0]["boneyard"][:-1]
    return "Round 1: its deal is wrong"


def forge_auto(record):
    """A play marked automatic that is not S3's choice (its seat's first fitting tile was another)."""
    for number, data in enumerate(record["rounds"], start=1):
        rnd = engine_at(record, number, 0)
        for move, event in enumerate(data["events"], start=1):
            if event["action"] == "play" and len(rnd.playable(rnd.turn)) > 1:
                first = rnd.playable(rnd.turn)[0]
                if first[0].text != event["tile"]:
                    event["auto"] = True
                    return f"Round {number}, move {move} is marked as the table's move"
            replay_event(rnd, event)
    raise AssertionError("no move to forge")


def wrong_format(record):
    record["format"] = "domino-match/2"
    return "domino-match/1"


@pytest.mark.parametrize("corrupt", [corrupt_tile, corrupt_score, corrupt_result, shorten_boneyard,
                                     forge_auto, wrong_format])
def test_a_corrupted_record_is_refused_naming_where(visitor, corrupt):
    record = simulated("draw", 2, 3)
    words = corrupt(record)
    answer = upload(visitor, json.dumps(record))
    assert answer.status_code == 400
    assert words in refusal(answer), refusal(answer)


def test_a_drawn_tile_not_the_boneyards_is_named(visitor):
    record = simulated("draw", 2, 3)
    number = find_round(record, lambda data: any(e["action"] == "draw" for e in data["events"]))
    events = record["rounds"][number - 1]["events"]
    move = next(n for n, e in enumerate(events, start=1) if e["action"] == "draw")
    events[move - 1]["tile"] = "9-9"
    answer = upload(visitor, json.dumps(record))
    assert answer.status_code == 400
    assert f"Round {number}, move {move}: the boneyard gives" in refusal(answer)


def test_non_json_and_empty_and_too_large(visitor):
    assert upload(visitor, "this is not json").status_code == 400
    assert "not a match record" in refusal(upload(visitor, b"\xff\xfe"))
    assert upload(visitor, "", as_file=False).status_code == 400
    large = json.dumps(simulated()) + " " * 200_000  # under 256 KB: past the 16 KB every other request gets
    assert upload(visitor, large).status_code == 200
    assert upload(visitor, large, as_file=False).status_code == 200
    huge = json.dumps({**simulated(), "padding": "x" * 300_000})
    assert upload(visitor, huge).status_code == 413
    assert upload(visitor, huge, as_file=False).status_code == 413
    assert "256 KB" in refusal(upload(visitor, huge))


def test_a_record_in_spanish_is_refused_in_spanish(visitor):
    visitor.client.set_cookie("lang", "es")
    record = simulated()
    corrupt_tile(record)
    assert "Ronda 2, jugada 5" in refusal(upload(visitor, json.dumps(record)))


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12)


def paths(value, prefix=()):
    """Every place in a JSON value: (path to it)."""
    yield prefix
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from paths(inner, (*prefix, index))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_fuzzed_records_never_give_a_server_error(visitor, data):
    record = copy.deepcopy(simulated("block", 2, 2))
    places = list(paths(record))
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(places))
        value = data.draw(JSON_VALUES)
        if not path:
            record = value
            break
        parent = record
        try:
            for key in path[:-1]:
                parent = parent[key]
            parent[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            pass
    answer = upload(visitor, json.dumps(record))
    assert answer.status_code in (200, 400), answer.status_code
    if answer.status_code == 400:
        assert refusal(answer).strip()
