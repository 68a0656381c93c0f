"""Partnership, the default variant (P1-P9)."""

import itertools
import random

import pytest

from game.errors import BadInput, CannotDraw
from game.match import Match
from game.record import replay_event
from game.rules import Round
from game.simulate import play_match, play_match_round, play_round, random_move
from game.tiles import ALL_TILES, Tile
from game.variants import VARIANTS
from helpers.notation import apply, line, replay, round_from, snapshot
from helpers.positions import LOW_REST, PARTNERSHIP, TIED_REST, partnership_blocked

PARTNERSHIP_VARIANT = VARIANTS["partnership"]


# -- P1: teams ------------------------------------------------------------------------------------


def test_p1_partners_sit_opposite():
    assert [PARTNERSHIP_VARIANT.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert PARTNERSHIP_VARIANT.side_count(4) == 2 and PARTNERSHIP_VARIANT.teams
    match = Match("partnership", 4, players=["Ana", "Ben", "Cai", "Dee"])
    assert [match.side_of(s) for s in range(4)] == [0, 1, 0, 1] and match.scores == [0, 0]


@pytest.mark.parametrize("seats", [1, 2, 3, 5, 0, -4, "4", None])
def test_p1_four_players_only(seats):
    with pytest.raises(BadInput, match="4"):
        Match("partnership", seats)
    with pytest.raises(BadInput):
        Round.deal(PARTNERSHIP_VARIANT, seats, random.Random(0))


def test_p1_teams_alternate_in_turn():
    rnd = play_round(Round.deal(PARTNERSHIP_VARIANT, 4, random.Random(1)), random.Random(2))
    sides = [e.seat % 2 for e in rnd.events]
    assert all(a != b for a, b in itertools.pairwise(sides))


# -- P2: the deal ---------------------------------------------------------------------------------


def test_p2_all_28_tiles_dealt_seven_each():
    rnd = Round.deal(PARTNERSHIP_VARIANT, 4, random.Random(7))
    assert [len(h) for h in rnd.hands] == [7, 7, 7, 7] and rnd.boneyard == []
    assert sorted((t for h in rnd.hands for t in h), key=lambda t: t.index) == list(ALL_TILES)


def test_p2_nobody_ever_draws():
    rnd = round_from("partnership", "5-6 6-6 | 0-1 1-2 | 3-4 4-4 | 0-0 2-3", fill=False,
                     events="0:6-6")
    assert rnd.must_pass(1) and not rnd.must_draw(1)  # seat 1 holds no 6 and passes
    before = snapshot(rnd)
    with pytest.raises(CannotDraw):
        rnd.draw(1)
    assert snapshot(rnd) == before


def test_p2_a_hand_only_shrinks():
    rnd = Round.deal(PARTNERSHIP_VARIANT, 4, random.Random(3))
    rng = random.Random(4)
    while not rnd.over:
        before = [set(h) for h in rnd.hands]
        random_move(rnd, rng)
        assert all(set(h) <= b for h, b in zip(rnd.hands, before, strict=True))
        assert sum(len(b) - len(h) for h, b in zip(rnd.hands, before, strict=True)) <= 1


def test_p2_tiles_dealt_anew_every_round():
    match = Match("partnership", 4, 500)
    rng = random.Random(8)
    deals = []
    for _ in range(3):
        rnd = play_match_round(match, rng)
        deals.append([tuple(h) for h in rnd.dealt_hands])
    assert len(set(map(tuple, deals))) == 3


# -- P3, P4: who opens ----------------------------------------------------------------------------


@pytest.mark.parametrize("holder", range(4))
def test_p3_six_six_holder_opens_round_one(holder):
    hands = ["", "", "", ""]
    hands[holder] = "6-6"
    rnd = round_from("partnership", " | ".join(hands))
    assert rnd.opener == rnd.turn == holder and rnd.opening_tile is None


def test_p3_opener_may_open_with_any_tile():
    rnd = round_from("partnership", PARTNERSHIP)
    assert {t.text for t, end in rnd.playable(0)} == {"0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "6-6"}
    assert all(end is None for t, end in rnd.playable(0))
    apply(rnd, "0:0-3")
    assert line(rnd) == "0-3" and Tile(6, 6) in rnd.hands[0] and rnd.turn == 1


@pytest.mark.parametrize("previous", range(4))
def test_p4_opening_rotates(previous):
    rnd = round_from("partnership", PARTNERSHIP, number=2, previous_opener=previous)
    assert rnd.opener == (previous + 1) % 4 and rnd.opening_tile is None


def test_p4_opening_rotates_whatever_the_result():
    match = play_match("partnership", 4, 500, random.Random(4))
    openers = [r.opener for r in match.rounds]
    first_holder = next(s for s, h in enumerate(match.rounds[0].dealt_hands) if Tile(6, 6) in h)
    assert openers[0] == first_holder
    assert openers == [(first_holder + i) % 4 for i in range(len(openers))]
    winners = {r.result.winner for r in match.rounds}
    assert winners == {0, 1}  # both teams won rounds; the rotation never followed the winner


# -- P5: doubles ----------------------------------------------------------------------------------


def test_p5_doubles_placed_in_line():
    rnd = round_from("partnership", PARTNERSHIP, events="0:0-5 1:0-6>left 2:1-6 3:5-5")
    assert line(rnd) == "1-6 6-0 0-5 5-5" and (rnd.left, rnd.right) == (1, 5)
    apply(rnd, "0:0-1>left 1:1-5>right")  # the line goes on from the double like from any tile
    assert line(rnd) == "0-1 1-6 6-0 0-5 5-5 5-1" and (rnd.left, rnd.right) == (0, 1)


# -- P6: domino -----------------------------------------------------------------------------------


def test_p6_domino_scores_the_opponents_hands_not_the_partners():
    # An end of round written as a whole (fill=False): seat 0 places its last tile.
    rnd = round_from("partnership", "5-6 6-6 | 0-1 1-2 | 3-4 4-4 | 0-0 2-3", fill=False,
                     events="0:6-6 1:pass 2:pass 3:pass 0:5-6")
    result = rnd.result
    assert (result.reason, result.winner, result.points) == ("domino", 0, 4 + 5)
    assert result.hand_totals == (0, 4, 15, 5) and result.tie_break is None
    replay(rnd)


def test_p6_domino_by_the_other_team():
    rnd = round_from("partnership", "0-0 6-6 | 0-1 1-1 | 2-2 2-3 | 3-6", fill=False,
                     events="0:6-6 1:pass 2:pass 3:3-6")
    assert (rnd.result.reason, rnd.result.winner, rnd.result.points) == ("domino", 1, 0 + 9)


def test_p6_domino_in_full_deals():
    checked = 0
    for seed in range(60):
        rnd = play_round(Round.deal(PARTNERSHIP_VARIANT, 4, random.Random(seed)), random.Random(seed))
        if rnd.result.reason != "domino":
            continue
        seat = rnd.last_placer
        assert rnd.hands[seat] == [] and rnd.events[-1].seat == seat
        opponents = sum(t.points for s in (seat + 1, seat + 3) for t in rnd.hands[s % 4])
        assert (rnd.result.winner, rnd.result.points) == (seat % 2, opponents)
        checked += 1
    assert checked > 10


# -- P7, P8: blocked ------------------------------------------------------------------------------


def test_p7_four_passes_in_a_row_block_the_round():
    rnd = partnership_blocked()
    events = rnd.to_dict()["events"]
    rnd = round_from("partnership", " | ".join(" ".join(h) for h in rnd.to_dict()["hands"]))
    for event in events[:-1]:
        replay_event(rnd, event)
        assert not rnd.over
    replay_event(rnd, events[-1])
    assert rnd.over and rnd.result.reason == "blocked"
    assert [e.action for e in rnd.events[-4:]] == ["pass"] * 4


def test_p7_fewer_points_scores_the_other_teams_total():
    for opener in range(4):
        rnd = partnership_blocked(opener, LOW_REST)
        team = opener % 2  # the opener's team holds 27 points, the other 63
        assert (rnd.result.reason, rnd.result.winner, rnd.result.points) == ("blocked", team, 63)
        assert rnd.result.tie_break is None and sum(rnd.result.hand_totals) == 90
        replay(rnd, None if opener == 0 else opener - 1)


def test_p7_three_passes_do_not_block():
    rnd = round_from("partnership", "5-6 6-6 | 0-1 1-2 | 3-4 4-4 | 0-0 2-3", fill=False,
                     events="0:6-6 1:pass 2:pass 3:pass")
    assert not rnd.over and rnd.turn == 0 and rnd.passes_in_a_row == 3


@pytest.mark.parametrize("opener", range(4))
def test_p8_tie_goes_to_last_placer(opener):
    rnd = partnership_blocked(opener, TIED_REST)
    last = rnd.last_placer
    assert last == (opener + 1) % 4 == [e for e in rnd.events if e.action == "play"][-1].seat
    hands = rnd.result.hand_totals
    assert hands[0] + hands[2] == hands[1] + hands[3] == 45
    assert (rnd.result.winner, rnd.result.points, rnd.result.tie_break) == (last % 2, 45, "last_placer")


# -- P9: the match --------------------------------------------------------------------------------


def test_p9_team_score_is_the_sum_of_its_rounds():
    match = play_match("partnership", 4, 300, random.Random(9))
    assert len(match.scores) == 2
    for team in (0, 1):
        won = [r.result.points for r in match.rounds if r.result.winner == team]
        assert match.scores[team] == sum(won)
    assert match.scores[match.winner] >= 300 > match.scores[1 - match.winner]
