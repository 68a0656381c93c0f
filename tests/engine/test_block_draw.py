"""Block and Draw, the individual variants (D1-D8)."""

import random

import pytest

from game.errors import BadInput, CannotDraw, IllegalMove, MustDraw, MustPlay, NotYourTurn
from game.match import Match
from game.rules import Round
from game.simulate import play_match, play_round
from game.tiles import Tile
from game.variants import VARIANTS
from helpers.notation import apply, hand, line, replay, round_from, snapshot
from helpers.positions import (
    BLOCK_DOMINO,
    BLOCK_TIE_EARLIER_PLACER,
    BLOCK_TIE_LAST_PLACER,
    BLOCK_TIE_NOBODY_PLACED,
    DRAW_BLOCKED,
    DRAW_CLOSED,
    DRAW_EMPTY_BONEYARD,
    DRAW_OPENED,
    position,
)

INDIVIDUAL = [(v, s) for v in ("block", "draw") for s in (2, 3, 4)]


def result_of(rnd):
    r = rnd.result
    return (r.reason, r.winner, r.points, r.tie_break)


# -- D1: the deal ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "seats"), INDIVIDUAL)
def test_d1_hand_sizes_and_boneyard(variant, seats):
    size = 7 if seats == 2 else 5
    assert VARIANTS[variant].hand_size(seats) == size
    rnd = Round.deal(VARIANTS[variant], seats, random.Random(seats))
    assert [len(h) for h in rnd.hands] == [size] * seats
    assert len(rnd.boneyard) == 28 - size * seats == {2: 14, 3: 13, 4: 8}[seats]


@pytest.mark.parametrize("variant", ["block", "draw"])
@pytest.mark.parametrize("seats", [0, 1, 5, 6, "2", None])
def test_d1_two_to_four_players(variant, seats):
    with pytest.raises(BadInput, match="2 or 3 or 4"):
        Match(variant, seats)


# -- D2: who opens --------------------------------------------------------------------------------


def test_d2_highest_double_opens_with_it():
    rnd = position(BLOCK_DOMINO, events="")
    assert (rnd.opener, rnd.turn, rnd.opening_tile) == (0, 0, Tile(6, 6))
    assert rnd.playable(0) == [(Tile(6, 6), None)]
    with pytest.raises(IllegalMove, match="opened with 6-6"):
        apply(rnd, "0:5-6")


def test_d2_highest_double_held_even_if_not_six_six():
    # 6-6 lies in the boneyard: 5-5 is the highest double dealt, although 5-6 is worth more.
    rnd = round_from("block", "4-4 5-6 6-3 | 5-5 0-1", boneyard="6-6")
    assert (rnd.opener, rnd.opening_tile) == (1, Tile(5, 5))
    assert rnd.playable(1) == [(Tile(5, 5), None)]


def test_d2_without_doubles_highest_tile_opens():
    doubles = " ".join(f"{n}-{n}" for n in range(7))
    # 6-5 and 6-4 stay in the boneyard: 6-3 and 5-4 (9 points each) are the highest dealt.
    rnd = round_from("draw", "4-5 | 3-6", boneyard=f"{doubles} 5-6 4-6")
    assert not any(t.is_double for h in rnd.hands for t in h)
    assert (rnd.opener, rnd.opening_tile) == (1, Tile(3, 6))  # 6-3 beats 5-4: its higher half
    rnd = round_from("draw", "3-6 | 4-5", boneyard=f"{doubles} 5-6 4-6")
    assert (rnd.opener, rnd.opening_tile) == (0, Tile(3, 6))


def test_d2_opener_must_place_the_forced_tile():
    rnd = round_from("block", "4-4 5-6 6-3 | 5-5 0-1", boneyard="6-6")
    before = snapshot(rnd)
    for action, error in [("1:0-1", IllegalMove), ("0:5-6", NotYourTurn), ("1:pass", MustPlay)]:
        with pytest.raises(error):
            apply(rnd, action)
        assert snapshot(rnd) == before
    apply(rnd, "1:auto")
    assert line(rnd) == "5-5" and rnd.turn == 0


@pytest.mark.parametrize("number", [2, 3, 7])
def test_d2_applies_to_every_round(number):
    rnd = position(BLOCK_DOMINO, events="", number=number, previous_opener=2)
    assert (rnd.opener, rnd.opening_tile) == (0, Tile(6, 6))


@pytest.mark.parametrize(("variant", "seats"), INDIVIDUAL)
def test_d2_every_round_of_a_match(variant, seats):
    match = play_match(variant, seats, 150, random.Random(2))
    assert len(match.rounds) > 1
    for rnd in match.rounds:
        held = {t: s for s, h in enumerate(rnd.dealt_hands) for t in h}
        doubles = [t for t in held if t.is_double]
        best = max(doubles or held, key=lambda t: (t.points, t.high))
        assert (rnd.opener, rnd.opening_tile) == (held[best], best)
        assert rnd.events[0].seat == rnd.opener and rnd.events[0].tile is best


# -- D3: passing or drawing -----------------------------------------------------------------------


def test_d3_block_passes_and_never_draws():
    rnd = position(BLOCK_DOMINO, events="0:6-6")
    assert rnd.must_pass(1) and not rnd.must_draw(1) and len(rnd.boneyard) == 13
    before = snapshot(rnd)
    with pytest.raises(CannotDraw, match="Block"):
        rnd.draw(1)
    assert snapshot(rnd) == before
    apply(rnd, "1:pass")
    assert rnd.turn == 2 and len(rnd.boneyard) == 13


def test_d3_draw_one_tile_at_a_time_until_one_fits():
    rnd = position(DRAW_OPENED)
    assert rnd.draw(1) is Tile(0, 0)
    assert rnd.turn == 1 and hand(rnd, 1).endswith("0-0") and len(rnd.boneyard) == 13
    apply(rnd, "1:draw=1-1 1:draw=2-6")
    assert rnd.turn == 1 and rnd.can_place(1) and not rnd.must_draw(1)
    before = snapshot(rnd)
    for action in ("1:draw", "1:pass"):  # the drawn tile fits: the player places it
        with pytest.raises(MustPlay):
            apply(rnd, action)
        assert snapshot(rnd) == before
    assert rnd.playable(1) == [(Tile(2, 6), "left"), (Tile(2, 6), "right")]
    apply(rnd, "1:2-6>right")
    assert rnd.turn == 0 and line(rnd) == "6-6 6-2"
    assert [e.action for e in rnd.events] == ["play", "draw", "draw", "draw", "play"]


def test_d3_draw_until_the_boneyard_is_empty_then_pass():
    rnd = position(DRAW_CLOSED)
    assert rnd.must_draw(0) and len(rnd.boneyard) == 14
    for left in range(13, -1, -1):
        with pytest.raises(MustDraw):
            apply(rnd, "0:pass")
        apply(rnd, "0:draw")
        assert len(rnd.boneyard) == left and rnd.turn == 0
    assert rnd.must_pass(0) and not rnd.can_place(0)
    with pytest.raises(CannotDraw, match="empty"):
        apply(rnd, "0:draw")
    apply(rnd, "0:pass")
    assert rnd.turn == 1 and not rnd.over


# -- D4: doubles across, still two ends -----------------------------------------------------------


def test_d4_a_double_still_leaves_two_ends():
    rnd = position(BLOCK_DOMINO, events="0:6-6")
    assert (rnd.left, rnd.right) == (6, 6) and line(rnd) == "6-6"
    apply(rnd, "1:pass 2:pass 0:5-6 1:pass 2:pass 0:5-5")
    assert (rnd.left, rnd.right) == (5, 6) and line(rnd) == "5-5 5-6 6-6"
    assert len(rnd.to_dict()["events"]) == 7 and rnd.ends_for(Tile(4, 5)) == ("left",)
    apply(rnd, "1:pass 2:pass 0:4-5 1:pass 2:pass")
    # Nobody may place on the sides of 5-5 or 6-6: only the two ends, 4 and 6, count.
    assert (rnd.left, rnd.right) == (4, 6) and rnd.ends_for(Tile(5, 5)) == ()


# -- D5: domino -----------------------------------------------------------------------------------


def test_d5_domino_scores_all_opponents_hands():
    rnd = position(BLOCK_DOMINO)
    assert result_of(rnd) == ("domino", 0, 8 + 22, None)
    assert rnd.result.hand_totals == (0, 8, 22)
    replay(rnd)


def test_d5_drawn_tiles_count_for_the_winner():
    rnd = round_from("draw", "5-6 6-6 | 0-0 1-1", boneyard="2-2", fill=False,
                     events="0:6-6 1:draw=2-2 1:pass 0:5-6")
    assert result_of(rnd) == ("domino", 0, 0 + 2 + 4, None)


# -- D6: blocked ----------------------------------------------------------------------------------


def test_d6_block_blocked_lowest_hand_scores_opponents_minus_own():
    hands = "0-0 0-1 0-4 0-5 1-3 | 3-5 4-4 4-5 5-5 6-6 | 0-2 0-3 1-1 1-2 2-3"
    rnd = position(BLOCK_TIE_NOBODY_PLACED, hands=hands)  # as the tie below, but seat 2 holds 15
    assert rnd.result.hand_totals == (14, 35, 15)
    assert result_of(rnd) == ("blocked", 0, 35 + 15 - 14, None)


def test_d6_draw_blocks_only_with_an_empty_boneyard():
    rnd = position(DRAW_BLOCKED)
    assert rnd.boneyard == [] and rnd.result.hand_totals == (83, 7)
    assert result_of(rnd) == ("blocked", 1, 83 - 7, None)
    assert [e.action for e in rnd.events[-2:]] == ["pass", "pass"]
    rnd = position(DRAW_EMPTY_BONEYARD, events=DRAW_EMPTY_BONEYARD["events"] + " 0:pass")
    assert not rnd.over and rnd.turn == 1 and rnd.must_pass(1)


# -- D7: ties when blocked ------------------------------------------------------------------------


def test_d7_tie_goes_to_most_recent_placer():
    rnd = position(BLOCK_TIE_LAST_PLACER)
    assert rnd.result.hand_totals == (11, 11, 30)
    assert result_of(rnd) == ("blocked", 1, 11 + 30 - 11, "last_placer")  # seat 0 is first in turn


def test_d7_most_recent_placer_among_the_tied_only():
    rnd = position(BLOCK_TIE_EARLIER_PLACER)
    assert rnd.result.hand_totals == (13, 13, 27) and rnd.last_placer == 2
    assert result_of(rnd) == ("blocked", 1, 27, "last_placer")


def test_d7_tie_without_placer_goes_by_turn_order():
    rnd = position(BLOCK_TIE_NOBODY_PLACED)
    assert rnd.opener == 1 and rnd.result.hand_totals == (14, 35, 14)
    # Seats 0 and 2 never placed; counting from the opener, seat 2 comes before seat 0.
    assert result_of(rnd) == ("blocked", 2, 35, "turn_order")


def test_d7_two_players_tied_score_nothing():
    # Two seats on 21 each: the last placer wins the round, 21 - 21 = 0 points.
    rnd = round_from("block", "0-0 0-1 0-2 0-4 2-4 4-4 6-6 | 0-3 1-1 1-2 1-3 1-4 2-2 5-6",
                     events="0:6-6 1:5-6>right 0:pass 1:pass")
    assert rnd.result.hand_totals == (21, 21)
    assert result_of(rnd) == ("blocked", 1, 0, "last_placer")


# -- D8: the match --------------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "seats"), INDIVIDUAL)
def test_d8_individual_match_to_target(variant, seats):
    match = play_match(variant, seats, 150, random.Random(8))
    assert len(match.scores) == seats and match.over
    assert match.scores[match.winner] >= 150 > max(s for i, s in enumerate(match.scores) if i != match.winner)
    for seat in range(seats):
        assert match.scores[seat] == sum(r.result.points for r in match.rounds if r.result.winner == seat)


def test_d8_individual_rounds_score_the_seat():
    rnd = play_round(Round.deal(VARIANTS["draw"], 4, random.Random(1)), random.Random(1))
    assert rnd.result.winner in range(4) and VARIANTS["draw"].side_of(3) == 3
