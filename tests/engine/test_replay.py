"""game/replay.py: a finished round's positions are the engine's; a refused record's first fault is found."""

import copy
import json
import random

import pytest

from game.errors import BadRecord
from game.record import dumps, export_match, load_match
from game.replay import fault, moves_of, position, replayed
from game.simulate import play_match


def record(variant="draw", seats=3, seed=4) -> dict:
    return json.loads(dumps(export_match(play_match(variant, seats, 100, random.Random(seed), 0.3))))


@pytest.mark.parametrize(("variant", "seats"), [("partnership", 4), ("block", 2), ("draw", 3)])
def test_each_position_is_the_round_after_that_many_events(variant, seats):
    match = load_match(record(variant, seats))
    for number, done in enumerate(match.rounds, start=1):
        total = len(done.events)
        for moves in range(total + 1):
            pos = position(match, number, moves)
            rnd = replayed(match, number, moves)
            assert pos["at"] == moves and pos["total"] == total
            assert pos["line"] == [list(pair) for pair in rnd.line]
            assert [seat["hand"] for seat in pos["seats"]] == [[t.text for t in h] for h in rnd.hands]
            assert pos["boneyard"] == len(rnd.boneyard)
            assert pos["over"] == (moves == total)
            assert (pos["turn"] is None) == pos["over"]
        end = replayed(match, number, total)
        assert end.hands == done.hands and end.result == done.result  # the round as it was played


def test_positions_outside_the_round_are_its_deal_and_its_end():
    match = load_match(record())
    total = len(match.rounds[0].events)
    assert position(match, 1, -5)["at"] == 0
    assert position(match, 1, 10_000)["at"] == total
    assert [m["n"] for m in moves_of(match, 1)] == list(range(1, total + 1))


def test_the_unseen_counts_are_those_of_the_seat_to_move():
    match = load_match(record("partnership", 4, 2))
    for moves in range(len(match.rounds[0].events)):
        pos = position(match, 1, moves)
        tiles = [tuple(pair) for pair in pos["line"]]
        tiles += [tuple(map(int, t.split("-"))) for t in pos["seats"][pos["turn"]]["hand"]]
        assert pos["unseen"] == [7 - sum(n in tile for tile in tiles) for n in range(7)]


def broken(change) -> dict:
    data = record()
    change(data)
    with pytest.raises(BadRecord):
        load_match(data)
    return fault(data)


def test_the_first_fault_is_found_where_it_is():
    def illegal(data):
        event = {"action": "play", "tile": "6-6", "end": "right", "auto": False}
        data["rounds"][2]["events"][6].update(event)
    found = broken(illegal)
    assert (found["kind"], found["round"], found["move"]) == ("event", 3, 7)
    assert broken(lambda data: data.update(format="other"))["kind"] == "format"
    assert broken(lambda data: data.update(seats=9))["kind"] == "shape"
    assert broken(lambda data: data["rounds"][1]["hands"][0].pop())["kind"] == "deal"
    assert broken(lambda data: data["rounds"][0]["result"].update(points=999)) == {"kind": "result",
                                                                                   "round": 1}
    assert broken(lambda data: data["scores"].append(0))["kind"] == "scores"


def test_a_broken_record_of_many_rounds_is_searched_by_halves():
    data = record("block", 4, 9)
    last = len(data["rounds"])
    shortened = copy.deepcopy(data)
    shortened["rounds"][last - 1]["events"] = shortened["rounds"][last - 1]["events"][:-1]
    assert fault(shortened)["round"] == last
