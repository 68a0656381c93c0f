"""The double-six set and the Tile value type (T1, T2)."""

import pickle
import random

import pytest

from game.errors import BadInput
from game.rules import Round
from game.tiles import ALL_TILES, Tile, hand_points, parse_tiles, rank, tiles_text
from game.variants import VARIANTS


def test_t1_set_is_double_six_each_tile_once():
    halves = sorted((t.low, t.high) for t in ALL_TILES)
    assert halves == [(a, b) for a in range(7) for b in range(a, 7)]
    assert len(ALL_TILES) == len(set(ALL_TILES)) == 28
    assert ALL_TILES[0] is Tile(0, 0) and ALL_TILES[-1] is Tile(6, 6)
    assert [t.index for t in ALL_TILES] == list(range(28))


def test_t1_tiles_are_interned_either_way_round():
    assert Tile(3, 5) is Tile(5, 3) is Tile.parse("3-5") is Tile.parse("5-3") is Tile.parse(" 3-5 ")
    assert Tile(5, 3).text == str(Tile(5, 3)) == "3-5" and repr(Tile(3, 5)) == "Tile(3-5)"
    assert (Tile(5, 3).low, Tile(5, 3).high) == (3, 5)
    assert pickle.loads(pickle.dumps(Tile(2, 6))) is Tile(2, 6)


@pytest.mark.parametrize(("variant", "seats"), [(v, s) for v in VARIANTS for s in VARIANTS[v].seat_choices])
def test_t1_every_deal_holds_each_tile_once(variant, seats):
    rnd = Round.deal(VARIANTS[variant], seats, random.Random(seats))
    dealt = [t for hand in rnd.hands for t in hand] + rnd.boneyard
    assert sorted(dealt, key=lambda t: t.index) == list(ALL_TILES)


def test_t2_tile_is_worth_its_two_halves():
    assert Tile(6, 6).points == 12 and Tile(0, 0).points == 0 and Tile(2, 5).points == 7
    assert all(t.points == t.low + t.high for t in ALL_TILES)
    assert sum(t.points for t in ALL_TILES) == 168  # each number shows up on eight halves
    assert hand_points(parse_tiles(["6-6", "0-0", "2-5"])) == 19 and hand_points([]) == 0


def test_t2_rank_is_points_then_higher_half():
    assert rank(Tile(3, 6)) > rank(Tile(4, 5))
    assert max(ALL_TILES, key=rank) is Tile(6, 6)


def test_tile_helpers():
    assert Tile(4, 4).is_double and not Tile(3, 4).is_double
    assert Tile(3, 4).other(3) == 4 and Tile(3, 4).other(4) == 3 and Tile(4, 4).other(4) == 4
    assert tiles_text(parse_tiles(["6-5", "0-1"])) == ["5-6", "0-1"]


@pytest.mark.parametrize("text", ["7-1", "1-7", "", "x", "3", "3-", "-3", "3_5", "3-5-1", "35", "3 - 5",
                                  "-1-2", "six-six", None, 35, 3.5, ["3-5"], b"3-5"])
def test_tile_parse_refuses_garbage(text):
    with pytest.raises(BadInput):
        Tile.parse(text)


@pytest.mark.parametrize("halves", [(7, 1), (-1, 2), (0, 7), (None, 1), ("3", 5), ([1], 2), (1.5, 2)])
def test_tile_refuses_halves_outside_the_set(halves):
    with pytest.raises(BadInput):
        Tile(*halves)
