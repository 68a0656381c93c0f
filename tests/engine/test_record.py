"""The domino-match/1 record: export, load (replaying every event through the rules), refusal."""

import copy
import functools
import json
import random

import pytest

from game.errors import BadRecord
from game.match import Match
from game.record import FORMAT, dumps, export_match, load_match, replay_event
from game.rules import Round
from game.simulate import play_match, play_match_round
from game.tiles import Tile
from helpers.notation import snapshot

CONFIGS = [("partnership", 4), *((v, s) for v in ("block", "draw") for s in (2, 3, 4))]


@functools.cache
def _record_text(variant: str, seats: int, seed: int, auto_share: float) -> str:
    return dumps(export_match(play_match(variant, seats, 100, random.Random(seed), auto_share)))


def record(variant="partnership", seats=4, seed=1, auto_share=0.1) -> dict:
    """A fresh copy of a whole simulated match's record."""
    return json.loads(_record_text(variant, seats, seed, auto_share))


def refused(data, match=None):
    with pytest.raises(BadRecord, match=match):
        load_match(data)


def replaying(round_data, variant, previous_opener, stop):
    """Replay `round_data`'s events and yield (index, event, round before it) until stop()."""
    hands = [[Tile.parse(t) for t in h] for h in round_data["hands"]]
    rnd = Round(variant, hands, [Tile.parse(t) for t in round_data["boneyard"]], round_data["number"],
                previous_opener)
    for index, event in enumerate(round_data["events"]):
        if stop(rnd, event):
            return index, rnd
        replay_event(rnd, event)
    raise AssertionError("no event found")


# -- round trips ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "seats"), CONFIGS)
def test_record_round_trip(variant, seats):
    data = record(variant, seats)
    match = load_match(data)
    assert export_match(match) == data and match.to_dict() == data
    assert dumps(export_match(match)) == _record_text(variant, seats, 1, 0.1)
    assert "\n" not in dumps(data) and json.loads(dumps(data)) == data
    assert data["format"] == FORMAT == "domino-match/1"
    assert data["winner"] == match.winner is not None and data["scores"] == match.scores


def test_record_of_a_match_in_progress():
    match = Match("draw", 3, 100, ["A", "B", "C"])
    rng = random.Random(5)
    play_match_round(match, rng)
    rnd = match.start_round(rng)
    for _ in range(4):
        match.play_for(rnd.turn)
    # Finished rounds only, each with who played it.
    assert export_match(match)["rounds"] == [{**match.rounds[0].to_dict(), "players": ["A", "B", "C"]}]
    data = match.to_dict(include_current=True)
    assert "result" not in data["rounds"][-1] and "ends" not in data["rounds"][-1]
    again = load_match(data)
    assert again.to_dict() == data and snapshot(again.round) == snapshot(rnd)
    again.play_for(again.round.turn)  # play goes on where it stopped
    match.play_for(rnd.turn)
    assert snapshot(again.round) == snapshot(rnd)


def test_record_without_derived_totals_loads():
    data = record("block", 3)
    del data["scores"], data["winner"]  # the table stores only the rounds; these are derived
    assert load_match(data).to_dict() == record("block", 3)


def test_a_record_names_who_played_each_round_when_a_seat_changed_hands_between_rounds():
    data = record("block", 2, seed=4)
    assert all(r["players"] == data["players"] for r in data["rounds"])
    data["players"] = [data["players"][0], "Zoe"]  # the second seat handed to Zoe after round 1
    for r in data["rounds"][1:]:
        r["players"] = list(data["players"])
    match = load_match(data)
    assert match.players_of(match.rounds[0]) == data["rounds"][0]["players"] != match.players
    assert match.to_dict() == data
    older = record("block", 2, seed=4)  # from before rounds named their players: the match's names
    for r in older["rounds"]:
        del r["players"]
    assert load_match(older).to_dict() == record("block", 2, seed=4)


@pytest.mark.parametrize("players", ["Ana", ["Ana"], ["Ana", 3], {"0": "Ana"}])
def test_record_rejects_a_round_that_does_not_name_one_player_per_seat(players):
    data = record("block", 2)
    data["rounds"][0]["players"] = players
    refused(data, "one player per seat")


def test_record_of_no_rounds():
    data = Match("block", 2, 150, ["A", "B"]).to_dict()
    assert data["rounds"] == [] and data["scores"] == [0, 0] and data["winner"] is None
    assert load_match(data).to_dict() == data


# -- tampering with events ------------------------------------------------------------------------


def first_play_after_opening(data):
    return data["rounds"][0]["events"][1]


def test_record_rejects_tile_not_held():
    data = record()
    event = next(e for e in data["rounds"][0]["events"][1:] if e["action"] == "play")
    holder = event["seat"]
    other = next(t for s, h in enumerate(data["rounds"][0]["hands"]) if s != holder for t in h)
    event["tile"] = other
    refused(data)


@pytest.mark.parametrize("tile", ["9-9", "", None, 12, "6-6-6"])
def test_record_rejects_garbage_tile(tile):
    data = record()
    data["rounds"][0]["events"][0]["tile"] = tile
    refused(data)


def test_record_rejects_another_fitting_tile():
    data = record("partnership", 4, auto_share=0)
    variant = Match("partnership", 4).variant
    rounds = data["rounds"][0]

    def swappable(rnd, event):
        if event["action"] != "play" or rnd.left is None:
            return False
        others = [t for t, _ in rnd.playable(event["seat"]) if t.text != event["tile"]]
        return bool(others)

    index, rnd = replaying(rounds, variant, None, swappable)
    event = rounds["events"][index]
    tile, end = next((t, e) for t, e in rnd.playable(event["seat"]) if t.text != event["tile"])
    event["tile"], event["end"] = tile.text, end  # a legal move, but not the one recorded
    refused(data)


def test_record_rejects_wrong_end():
    data = record("block", 2)
    variant = Match("block", 2).variant
    rounds = data["rounds"][0]

    def one_end_only(rnd, event):
        return event["action"] == "play" and len(rnd.ends_for(Tile.parse(event["tile"]))) == 1 \
            and rnd.left is not None and rnd.left != rnd.right

    index, _ = replaying(rounds, variant, None, one_end_only)
    event = rounds["events"][index]
    event["end"] = "left" if event["end"] == "right" else "right"
    refused(data, "does not fit")


@pytest.mark.parametrize("end", ["up", "", 1, ["left"]])
def test_record_rejects_garbage_end(end):
    data = record("block", 2)
    data["rounds"][0]["events"][1]["end"] = end
    refused(data)


def test_record_rejects_wrong_drawn_tile():
    data = record("draw", 2)
    rnd_data = next(r for r in data["rounds"] if any(e["action"] == "draw" for e in r["events"]))
    event = next(e for e in rnd_data["events"] if e["action"] == "draw")
    event["tile"] = next(t for t in rnd_data["boneyard"] if t != event["tile"])
    refused(data, "boneyard gives")


def test_record_rejects_wrong_pass_ends():
    data = record("block", 3)
    event = next(e for r in data["rounds"] for e in r["events"] if e["action"] == "pass")
    event["ends"] = [(n + 1) % 7 for n in event["ends"]]
    refused(data, "T7")


def test_record_rejects_auto_that_is_not_the_first_fitting_tile():
    data = record("partnership", 4, auto_share=0)
    variant = Match("partnership", 4).variant
    rounds = data["rounds"][0]

    def not_first(rnd, event):
        if event["action"] != "play":
            return False
        first, end = rnd.playable(event["seat"])[0]
        return (first.text, end) != (event["tile"], event["end"])

    index, _ = replaying(rounds, variant, None, not_first)
    rounds["events"][index]["auto"] = True
    refused(data, "automatic")


def test_record_rejects_auto_pass_in_draw_while_drawing():
    data = record("draw", 2)
    for rnd_data in data["rounds"]:
        events = rnd_data["events"]
        index = next((i for i, e in enumerate(events) if e["action"] == "draw"), None)
        if index is not None:
            seat = events[index]["seat"]
            events[index] = {"seat": seat, "action": "pass", "ends": [None, None], "auto": True}
            break
    refused(data)


@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_record_rejects_a_missing_event(where):
    data = record("draw", 3)
    events = data["rounds"][0]["events"]
    del events[{"first": 0, "middle": len(events) // 2, "last": -1}[where]]
    refused(data)


def test_record_rejects_an_event_after_the_round_ended():
    data = record()
    events = data["rounds"][0]["events"]
    events.append(dict(events[-1], seat=(events[-1]["seat"] + 1) % 4))
    refused(data)


@pytest.mark.parametrize("event", [
    {"seat": 0, "action": "fly"}, {"seat": 0}, {"action": "pass"}, "pass", None, [0, "pass"],
    {"seat": "0", "action": "play", "tile": "6-6"}, {"seat": 9, "action": "pass"},
])
def test_record_rejects_malformed_events(event):
    data = record()
    data["rounds"][0]["events"].insert(1, event)
    refused(data)


# -- tampering with results and totals ------------------------------------------------------------


@pytest.mark.parametrize("change", [
    lambda r: r["result"].update(points=r["result"]["points"] + 1),
    lambda r: r["result"].update(winner=(r["result"]["winner"] + 1) % 2),
    lambda r: r["result"].update(reason="blocked" if r["result"]["reason"] == "domino" else "domino"),
    lambda r: r["result"].update(hand_totals=[*r["result"]["hand_totals"][::-1], 0]),
    lambda r: r["result"].update(tie_break="turn_order"),
    lambda r: r.update(ends=[7, 7]),
    lambda r: r.pop("ends"),
    lambda r: r.update(result=None),
], ids=["points", "winner", "reason", "hand_totals", "extra key", "ends", "no ends", "null result"])
def test_record_rejects_wrong_result(change):
    data = record()
    change(data["rounds"][0])
    refused(data)


def test_record_rejects_a_result_for_an_unfinished_round():
    data = record()
    data["rounds"][-1]["events"].pop()
    refused(data, "do not end it|should end")


def test_record_rejects_wrong_scores():
    data = record()
    data["scores"][0] += 1
    refused(data, "scores")
    data = record()
    data["scores"] = data["scores"][::-1]
    refused(data, "scores")


@pytest.mark.parametrize("winner", ["other", None, 2, "0"])
def test_record_rejects_wrong_winner(winner):
    data = record()
    data["winner"] = 1 - data["winner"] if winner == "other" else winner
    refused(data, "winner")


# -- tampering with deals and rounds --------------------------------------------------------------


def test_record_rejects_duplicate_tile_in_the_deal():
    data = record()
    hands = data["rounds"][0]["hands"]
    hands[0][0] = hands[1][0]
    refused(data, "28 tiles")


@pytest.mark.parametrize(("variant", "seats"), [("draw", 3), ("block", 2)])
def test_record_rejects_duplicate_tile_between_hand_and_boneyard(variant, seats):
    data = record(variant, seats)
    round_data = data["rounds"][-1]
    round_data["boneyard"][-1] = round_data["hands"][0][-1]
    refused(data)


def test_record_rejects_wrong_hand_sizes():
    data = record("draw", 2)
    round_data = data["rounds"][0]
    round_data["boneyard"].append(round_data["hands"][1].pop())
    refused(data, "dealt 7")


@pytest.mark.parametrize("tile", ["6-5", "7-0", " 0-1"])
def test_record_rejects_tiles_not_written_a_b(tile):
    data = record("block", 2)
    data["rounds"][0]["boneyard"][0] = tile
    refused(data)


def test_record_rejects_a_round_after_the_match_ended():
    data = record()
    extra = copy.deepcopy(data["rounds"][-1])
    extra["number"] = len(data["rounds"]) + 1
    data["rounds"].append(extra)
    refused(data, "follows the end of the match")


def test_record_rejects_a_round_after_an_unfinished_one():
    data = record()
    first = data["rounds"][0]
    del first["result"], first["ends"]
    first["events"] = first["events"][:3]
    refused(data, "did not end")


def test_record_rejects_rounds_out_of_order():
    data = record()
    assert len(data["rounds"]) > 2
    data["rounds"][1]["number"] = 3
    refused(data, "out of order")
    data = record()
    data["rounds"][0], data["rounds"][1] = data["rounds"][1], data["rounds"][0]
    refused(data)


@pytest.mark.parametrize(("variant", "seats"), [("partnership", 4), ("block", 3)])
def test_record_rejects_wrong_opener(variant, seats):
    data = record(variant, seats)
    for index in (0, 1):
        broken = copy.deepcopy(data)
        broken["rounds"][index]["opener"] = (broken["rounds"][index]["opener"] + 1) % seats
        refused(broken, "opens this round")


def test_record_rejects_rounds_swapped_between_matches():
    ours, theirs = record(seed=1), record(seed=2)
    ours["rounds"][1] = dict(theirs["rounds"][1])
    refused(ours)


# -- the envelope ---------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["domino-match/2", "domino-match", "", None, 1])
def test_record_rejects_wrong_format(fmt):
    data = record()
    data["format"] = fmt
    refused(data, "Not a domino-match/1")
    del data["format"]
    refused(data, "Not a domino-match/1")


@pytest.mark.parametrize("data", [None, [], "domino-match/1", 5, ["format"]])
def test_record_rejects_what_is_not_an_object(data):
    refused(data)


@pytest.mark.parametrize("key", ["variant", "seats", "target", "players", "rounds"])
def test_record_rejects_a_missing_key(key):
    data = record()
    del data[key]
    refused(data)


@pytest.mark.parametrize("key", ["number", "hands", "boneyard", "events"])
def test_record_rejects_a_round_missing_a_key(key):
    data = record()
    del data["rounds"][0][key]
    refused(data)


@pytest.mark.parametrize(("key", "value"), [
    ("variant", "chess"), ("variant", None), ("variant", ["partnership"]),
    ("seats", "4"), ("seats", 3), ("seats", None), ("seats", [4]), ("seats", 4.0), ("seats", True),
    ("target", "100"), ("target", 75), ("target", None), ("target", 100.0),
    ("players", "abcd"), ("players", ["a", "b", "c"]), ("players", [1, 2, 3, 4]), ("players", []),
    ("players", None), ("players", {"a": 1, "b": 2, "c": 3, "d": 4}),
    ("rounds", None), ("rounds", {}), ("rounds", "rounds"), ("rounds", 3), ("rounds", [None]),
    ("rounds", [[]]), ("scores", None), ("scores", "0,0"),
])
def test_record_rejects_wrong_types(key, value):
    data = record()
    data[key] = value
    refused(data)


@pytest.mark.parametrize(("key", "value"), [
    ("number", "1"), ("number", None), ("hands", None), ("hands", "0-0"), ("hands", {}),
    ("hands", [["0-0"]] * 4), ("boneyard", None), ("boneyard", "0-0"), ("events", None),
    ("events", {}), ("events", "play"), ("events", 0), ("opener", None), ("opener", "0"),
])
def test_record_rejects_a_round_of_wrong_types(key, value):
    data = record()
    data["rounds"][0][key] = value
    refused(data)
