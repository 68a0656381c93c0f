"""What every variant shares (T3-T12) and the table's automatic move (S3)."""

import random

import pytest

from game.errors import BadInput, GameError, IllegalMove, MatchOver, MustDraw, MustPlay, NotYourTurn
from game.match import DEFAULT_TARGET, TARGETS, Match
from game.record import export_match, load_match
from game.rules import Event, Round
from game.simulate import play_match, play_round, random_match_move
from game.tiles import Tile
from game.variants import VARIANTS
from helpers.notation import apply, hand, line, replay, round_from
from helpers.positions import (
    BLOCK_DOMINO,
    BLOCK_TIE_LAST_PLACER,
    BOTH_ENDS,
    DRAW_CLOSED,
    DRAW_EMPTY_BONEYARD,
    DRAW_OPENED,
    PARTNERSHIP,
    partnership_blocked,
    position,
)

CONFIGS = [(v, s) for v in VARIANTS for s in VARIANTS[v].seat_choices]


def auto_play(seat: int, tile: str, end: str) -> Event:
    """The table's play (S3) of `tile` on `end`, as an event value."""
    return Event(seat, "play", Tile.parse(tile), end, auto=True)


# -- T3, T4: the line and its two ends ------------------------------------------------------------


def test_t3_no_ends_before_the_first_tile():
    rnd = round_from("partnership", PARTNERSHIP)
    assert (rnd.left, rnd.right) == (None, None) and rnd.line == []
    apply(rnd, "0:3-0")  # P3: any tile opens the first round
    assert (rnd.left, rnd.right) == (0, 3) and line(rnd) == "0-3"


def test_t3_tile_fits_either_end():
    rnd = round_from("partnership", PARTNERSHIP, events="0:0-5")
    assert rnd.ends_for(Tile(0, 6)) == ("left",) and rnd.ends_for(Tile(5, 6)) == ("right",)
    assert rnd.ends_for(Tile(0, 5)) == ("left", "right") and rnd.ends_for(Tile(1, 2)) == ()
    apply(rnd, "1:0-6")  # fits only the left end: no end needed
    assert (rnd.left, rnd.right) == (6, 5) and line(rnd) == "6-0 0-5"
    apply(rnd, "2:2-6")  # the 6 touches the line, the 2 becomes the new end
    assert (rnd.left, rnd.right) == (2, 5) and line(rnd) == "2-6 6-0 0-5"
    apply(rnd, "3:5-6")  # fits only the right end
    assert (rnd.left, rnd.right) == (2, 6) and line(rnd) == "2-6 6-0 0-5 5-6"


@pytest.mark.parametrize(("end", "ends", "shown"), [("left", (2, 2), "2-5 5-0 0-2"),
                                                     ("right", (5, 5), "5-0 0-2 2-5")])
def test_t3_player_chooses_the_end_when_a_tile_fits_both(end, ends, shown):
    rnd = position(BOTH_ENDS)
    assert (rnd.left, rnd.right) == (5, 2) and rnd.ends_for(Tile(2, 5)) == ("left", "right")
    with pytest.raises(IllegalMove, match="choose left or right"):
        apply(rnd, "2:2-5")
    apply(rnd, f"2:2-5>{end}")
    assert (rnd.left, rnd.right) == ends and line(rnd) == shown


def test_t3_same_number_on_both_ends_needs_no_choice():
    rnd = round_from("partnership", PARTNERSHIP, events="0:6-6")
    assert rnd.ends_for(Tile(3, 6)) == ("left", "right")
    apply(rnd, "1:3-6")
    assert (rnd.left, rnd.right) == (3, 6) and line(rnd) == "3-6 6-6"
    apply(rnd, "2:2-6>right")
    assert (rnd.left, rnd.right) == (3, 2) and line(rnd) == "3-6 6-6 6-2"


def test_t3_line_halves_touch():
    rnd = partnership_blocked()
    pairs = rnd.line
    assert all(pairs[i][1] == pairs[i + 1][0] for i in range(len(pairs) - 1))
    assert (pairs[0][0], pairs[-1][1]) == (rnd.left, rnd.right) == (6, 6)


def test_t4_doubles_do_not_branch():
    rnd = round_from("partnership", PARTNERSHIP, events="0:6-6 1:3-6 2:2-6 3:3-4")
    # 6-6 sits inside the line: nothing may be placed beside it, only on the two ends.
    assert line(rnd) == "4-3 3-6 6-6 6-2" and (rnd.left, rnd.right) == (4, 2)
    assert rnd.ends_for(Tile(5, 6)) == () == rnd.ends_for(Tile(1, 6)) and not rnd.fits(Tile(6, 6))
    assert [(t.text, end) for t, end in rnd.playable(0)] == [("0-2", "right"), ("0-4", "left")]


# -- T5: turns ------------------------------------------------------------------------------------


def test_t5_turns_go_seat_by_seat_and_wrap():
    rnd = round_from("partnership", PARTNERSHIP, previous_opener=2, number=2)
    assert rnd.opener == rnd.turn == 3
    for seat in (3, 0, 1, 2, 3):
        assert rnd.turn == seat
        rnd.play_for(seat)


@pytest.mark.parametrize(("variant", "seats"), CONFIGS)
def test_t5_turn_order_in_every_variant(variant, seats):
    rnd = Round.deal(VARIANTS[variant], seats, random.Random(5))
    previous = None
    for event in play_round(rnd, random.Random(6)).events:
        if previous is not None:
            expected = previous.seat if previous.action == "draw" else (previous.seat + 1) % seats
            assert event.seat == expected
        previous = event


def test_t5_nobody_acts_out_of_turn():
    rnd = round_from("partnership", PARTNERSHIP, events="0:6-6")
    with pytest.raises(NotYourTurn):
        apply(rnd, "2:2-6")


# -- T6: passing ----------------------------------------------------------------------------------


def test_t6_pass_only_when_nothing_fits():
    rnd = round_from("partnership", PARTNERSHIP, events="0:6-6")
    assert not rnd.must_pass(1)
    with pytest.raises(MustPlay):
        apply(rnd, "1:pass")
    apply(rnd, "1:6-3 2:2-6>right 3:3-5>left")  # ends 5 and 2
    assert hand(rnd, 0) == "0-0 0-1 0-2 0-3 0-4 0-5"
    assert not rnd.must_pass(0)  # 0-2 and 0-5 fit


def test_t6_must_pass_when_nothing_fits():
    rnd = position(BLOCK_DOMINO, events="0:6-6")
    assert rnd.must_pass(1) and rnd.playable(1) == []
    apply(rnd, "1:pass")
    assert rnd.turn == 2 and rnd.events[-1].action == "pass"


def test_t6_in_draw_pass_only_once_drawing_is_over():
    rnd = position(DRAW_OPENED)
    assert not rnd.must_pass(1) and rnd.must_draw(1)
    with pytest.raises(MustDraw):
        apply(rnd, "1:pass")
    rnd = position(DRAW_EMPTY_BONEYARD)
    assert rnd.must_pass(0) and not rnd.must_draw(0)
    apply(rnd, "0:pass")


@pytest.mark.parametrize(("variant", "seats"), CONFIGS)
def test_t6_opener_never_passes(variant, seats):
    for seed in range(40):
        rnd = Round.deal(VARIANTS[variant], seats, random.Random(seed))
        assert rnd.playable(rnd.opener) and not rnd.must_pass(rnd.opener) and not rnd.must_draw(rnd.opener)
        with pytest.raises(MustPlay):
            rnd.pass_turn(rnd.opener)


# -- T7: a pass is public -------------------------------------------------------------------------


def test_t7_pass_records_the_two_end_numbers():
    rnd = position(BLOCK_TIE_LAST_PLACER)
    passes = [e for e in rnd.events if e.action == "pass"]
    assert [(e.seat, e.ends) for e in passes] == [(2, (5, 6)), (0, (5, 6)), (1, (5, 6))]
    assert rnd.known_missing(2) == [5, 6]


def test_t7_known_missing_collects_every_pass():
    rnd = position(BLOCK_DOMINO, events="0:6-6 1:pass 2:pass 0:5-6")
    assert rnd.known_missing(1) == [6] and rnd.known_missing(0) == []
    apply(rnd, "1:pass 2:pass 0:5-5 1:pass 2:pass 0:4-5 1:pass 2:pass")
    assert rnd.known_missing(1) == [4, 5, 6] == rnd.known_missing(2)
    for seat in (1, 2):  # the deduction is right: they hold none of those numbers
        assert not any({t.low, t.high} & {4, 5, 6} for t in rnd.hands[seat])


# -- T8: domino -----------------------------------------------------------------------------------


def test_t8_round_ends_on_the_last_tile():
    rnd = position(BLOCK_DOMINO, events=BLOCK_DOMINO["events"].rsplit(" ", 1)[0])
    assert not rnd.over and hand(rnd, 0) == "4-4"
    apply(rnd, "0:4-4")
    assert rnd.over and rnd.result.reason == "domino" and rnd.result.winner == 0
    assert rnd.hands[0] == [] and rnd.to_dict()["ends"] == [4, 6]


# -- T9: hands shown at the end -------------------------------------------------------------------
# (views: see test_views.py)


# -- T10: the next round --------------------------------------------------------------------------


def test_t10_next_round_is_dealt_only_once_the_round_is_over():
    match = Match("block", 2, 100)
    rng = random.Random(3)
    first = match.start_round(rng)
    with pytest.raises(GameError, match="not over"):
        match.start_round(rng)
    assert match.rounds == [first]
    while not first.over:
        random_match_move(match, rng)
    second = match.start_round(rng)
    assert second.number == 2 and match.round is second and len(match.rounds) == 2


# -- T11: target ----------------------------------------------------------------------------------


def test_t11_target_choices_and_default():
    assert TARGETS == (50, 100, 150, 200, 250, 300, 350, 400, 450, 500) and DEFAULT_TARGET == 100
    assert Match("partnership", 4).target == 100
    for target in TARGETS:
        assert Match("draw", 3, target).target == target


@pytest.mark.parametrize("target", [0, 25, 75, 99, 101, 550, 1000, -50, "100", None, 100.5])
def test_t11_other_targets_are_refused(target):
    with pytest.raises(BadInput):
        Match("partnership", 4, target)


@pytest.mark.parametrize(("variant", "seats"), CONFIGS)
def test_t11_first_side_to_reach_target_wins_with_points_above(variant, seats):
    match = play_match(variant, seats, 50, random.Random(11))
    winner, scores = match.winner, match.scores
    assert match.over and scores[winner] >= 50 and all(s < 50 for i, s in enumerate(scores) if i != winner)
    data = export_match(match)
    del data["scores"], data["winner"]
    before = load_match(dict(data, rounds=data["rounds"][:-1]))
    assert not before.over and max(before.scores) < 50  # reached at the end of the last round
    assert match.rounds[-1].result.winner == winner
    with pytest.raises(MatchOver):
        match.start_round(random.Random(0))


def test_t11_points_above_the_target_count():
    for seed in range(50):
        match = play_match("partnership", 4, 50, random.Random(seed))
        if match.scores[match.winner] > 50:
            break
    else:
        pytest.fail("no match ended above its target")
    assert match.to_dict()["scores"][match.winner] == match.scores[match.winner] > 50


# -- T12: exactly one side scores -----------------------------------------------------------------


@pytest.mark.parametrize(("variant", "seats"), CONFIGS)
def test_t12_every_round_scores_one_side(variant, seats):
    match = play_match(variant, seats, 200, random.Random(12))
    scores = [0] * len(match.scores)
    for rnd in match.rounds:
        before = list(scores)
        scores[rnd.result.winner] += rnd.result.points
        assert rnd.result.points >= 0
        assert sum(a != b for a, b in zip(before, scores, strict=True)) <= 1
    assert scores == match.scores


# -- S3: the table's move -------------------------------------------------------------------------


def test_s3_auto_play_first_fitting_tile_left_first():
    rnd = round_from("partnership", PARTNERSHIP, events="0:6-6 1:3-6>right")
    # ends 6 and 3; seat 2 shows 1-6 2-2 2-3 2-4 2-5 2-6 3-3: 1-6 is the first that fits.
    apply(rnd, "2:auto")
    assert rnd.events[-1] == auto_play(2, "1-6", "left")
    # ends 1 and 3; seat 3 shows 3-4 3-5 …: 3-4 fits the right end only.
    apply(rnd, "3:auto")
    assert rnd.events[-1] == auto_play(3, "3-4", "right")


def test_s3_auto_play_takes_the_left_end_when_both_fit():
    rnd = round_from("partnership", PARTNERSHIP, events="0:6-6")
    apply(rnd, "1:auto")  # seat 1 shows 0-6 first; it fits both ends (6 and 6)
    assert rnd.events[-1] == auto_play(1, "0-6", "left")
    rnd = position(BOTH_ENDS, events=BOTH_ENDS["events"] + " 2:auto")  # ends 5 and 2
    assert rnd.events[-1] == auto_play(2, "2-5", "left")
    assert line(rnd) == "2-5 5-0 0-2"


def test_s3_auto_opening_is_the_first_tile_or_the_forced_one():
    rnd = round_from("partnership", PARTNERSHIP, events="0:auto")
    assert rnd.events[0].tile is Tile(0, 0) and rnd.events[0].end is None  # P3: any tile
    rnd = position(BLOCK_DOMINO, events="0:auto")
    assert rnd.events[0].tile is Tile(6, 6)  # D2: the forced double


def test_s3_auto_passes_when_nothing_fits():
    rnd = position(BLOCK_DOMINO, events="0:6-6 1:auto")
    assert rnd.events[-1].to_dict() == {"seat": 1, "action": "pass", "ends": [6, 6], "auto": True}


def test_s3_draw_variant_auto_draws_then_plays():
    rnd = position(DRAW_OPENED, events="0:6-6 1:auto")
    assert [(e.action, e.tile.text, e.auto) for e in rnd.events[1:]] == [
        ("draw", "0-0", True), ("draw", "1-1", True), ("draw", "2-6", True), ("play", "2-6", True)]
    assert rnd.events[-1].end == "left" and rnd.turn == 0
    assert "0-0" in hand(rnd, 1) and "2-6" not in hand(rnd, 1) and len(rnd.boneyard) == 11
    replay(rnd)


def test_s3_draw_variant_auto_draws_the_boneyard_out_then_passes():
    rnd = position(DRAW_CLOSED, events=DRAW_CLOSED["events"] + " 0:auto")
    assert [e.action for e in rnd.events[10:]] == ["draw"] * 14 + ["pass"]
    assert all(e.auto for e in rnd.events[10:]) and rnd.boneyard == [] and rnd.turn == 1
    replay(rnd)


def test_s3_auto_in_draw_after_drawing_a_fit_plays_it():
    rnd = position(DRAW_OPENED, events="0:6-6 1:draw=0-0 1:draw=1-1 1:draw=2-6 1:auto")
    assert rnd.events[-1] == auto_play(1, "2-6", "left")
    assert not any(e.auto for e in rnd.events[:-1])
