"""A variant defined here alone plays through the engine, the record and the views unchanged.

Two throwaway variants, registered only while a test runs:
- Sixes: Partnership dealt six tiles each, so four tiles stay in a boneyard nobody draws from;
  seat 0 opens the first round with any tile (6-6 may lie in the boneyard), then it rotates.
- Double Block: Block in which the domino scores twice the opponents' hands.
"""

import json
import random

import pytest

from game import __main__ as cli
from game import variants
from game.errors import CannotDraw
from game.match import Match
from game.record import dumps, export_match, load_match
from game.rules import Round
from game.simulate import play_match, random_match_move
from game.tiles import hand_points
from game.variants import Block, Partnership, RoundResult, get_variant
from game.views import player_panel, seat_view, spectator_view, variant_facts, variant_menu
from helpers.sight import hidden_tiles, shown_tiles


class Sixes(Partnership):
    """Partnership with six tiles each: four stay face down, and nobody draws them."""

    name, title, description = "sixes", "Sixes", "4 players in two teams, six tiles each"

    def hand_size(self, seats):
        return 6

    def opener(self, hands, number, previous_opener):
        return (0 if previous_opener is None else (previous_opener + 1) % len(hands)), None


class DoubleBlock(Block):
    """Block whose domino scores double."""

    name, title, description = "double-block", "Double Block", "2 to 4, a domino scores double"

    def score(self, reason, domino_seat, totals, placers, opener):
        result = super().score(reason, domino_seat, totals, placers, opener)
        if reason == "domino":
            return RoundResult(reason, result.winner, 2 * result.points, totals)
        return result


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    """Both variants exist for this module's tests only."""
    for variant in (Sixes(), DoubleBlock()):
        monkeypatch.setitem(variants.VARIANTS, variant.name, variant)


def team_totals(hand_totals):
    return [hand_totals[0] + hand_totals[2], hand_totals[1] + hand_totals[3]]


# -- Sixes ----------------------------------------------------------------------------------------


def test_sixes_deals_six_each_and_four_stay_in_the_boneyard():
    rnd = Round.deal(get_variant("sixes"), 4, random.Random(1))
    assert [len(h) for h in rnd.hands] == [6] * 4 and len(rnd.boneyard) == 4
    assert rnd.opener == rnd.turn == 0 and rnd.opening_tile is None
    with pytest.raises(CannotDraw, match="Nobody draws in Sixes"):
        rnd.draw(0)


@pytest.mark.parametrize("seed", range(5))
def test_sixes_whole_matches_through_the_engine(seed):
    match = play_match("sixes", 4, 150, random.Random(seed))
    assert match.over and len(match.scores) == 2 and match.scores[match.winner] >= 150
    for number, rnd in enumerate(match.rounds):
        assert [len(h) for h in rnd.dealt_hands] == [6] * 4 and len(rnd.dealt_boneyard) == 4
        assert rnd.boneyard == rnd.dealt_boneyard  # nobody ever drew
        assert rnd.opener == number % 4  # seat 0, then rotating
        ours, theirs = team_totals(rnd.result.hand_totals)
        if rnd.result.reason == "domino":  # P6, through the inherited scoring
            assert rnd.result.points == (theirs if rnd.result.winner == 0 else ours)
        else:  # P7: the team with fewer points scores the other's
            assert rnd.result.points == max(ours, theirs)
            assert all(not rnd.can_place(seat) for seat in range(4))
    assert [sum(r.result.points for r in match.rounds if r.result.winner == team) for team in (0, 1)] \
        == match.scores


def test_sixes_records_replay_and_the_command_line_knows_it(capsys):
    match = play_match("sixes", 4, 100, random.Random(7))
    data = export_match(match)
    assert data["variant"] == "sixes" and load_match(json.loads(dumps(data))).to_dict() == data
    assert cli.main(["simulate", "--variant", "sixes", "--seed", "3"]) == 0  # seats: the variant's default
    (line,) = capsys.readouterr().out.splitlines()
    assert load_match(json.loads(line)).seats == 4


def test_sixes_through_the_views():
    rng = random.Random(4)
    match = Match("sixes", 4, 100, ["Ana", "Ben", "Cai", "Dee"])
    rnd = match.start_round(rng)
    facts = spectator_view(match)["variant"]
    assert facts == variant_facts(get_variant("sixes"), 4)
    assert (facts["teams"], facts["doubles_across"], facts["draws"]) == (True, False, False)
    assert facts["seat_sides"] == [0, 1, 0, 1]
    assert {"name": "sixes", "seat_choices": [4], "default_seats": 4, "default": False} in variant_menu()
    assert [s["name"] for s in spectator_view(match)["sides"]] == ["Ana & Cai", "Ben & Dee"]
    while not rnd.over:
        for seat in (None, 0, 1, 2, 3):
            view = seat_view(match, seat)
            panel = player_panel(match, seat)
            assert not shown_tiles(view) & hidden_tiles(rnd, seat)
            assert not shown_tiles(panel) & hidden_tiles(rnd, seat)
            assert view["round"]["boneyard"] == 4 and view["round"]["draws"] is False
            assert panel["can"]["draw"] is False
        assert len(player_panel(match, rnd.turn)["hand"]) == len(rnd.hands[rnd.turn]) <= 6
        random_match_move(match, rng)
    view = spectator_view(match)
    result = view["round"]["result"]
    assert result["winner_name"] == ["Ana & Cai", "Ben & Dee"][result["winner"]]
    assert match.scores[result["winner"]] == result["points"]  # the first round counted
    assert [p["points"] for p in view["players"]] == [hand_points(h) for h in rnd.hands]
    assert not shown_tiles(view) & {t.text for t in rnd.boneyard}  # D1: the boneyard stays face down


# -- Double Block ---------------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_double_block_scores_a_domino_twice(seats):
    match = play_match("double-block", seats, 300, random.Random(seats))
    dominoes = [r.result for r in match.rounds if r.result.reason == "domino"]
    assert dominoes and match.over
    for result in dominoes:
        assert result.points == 2 * (sum(result.hand_totals) - result.hand_totals[result.winner])
    for rnd in match.rounds:  # D1, D2 as Block: inherited
        assert len(rnd.dealt_hands[0]) == (7 if seats == 2 else 5)
        assert rnd.boneyard == rnd.dealt_boneyard


def test_double_block_result_in_the_views():
    rng = random.Random(2)
    match = Match("double-block", 2, 300, ["Ana", "Ben"])
    while True:
        rnd = match.start_round(rng)
        while not rnd.over:
            random_match_move(match, rng)
        if rnd.result.reason == "domino":
            break
    result = spectator_view(match)["round"]["result"]
    winner = ["Ana", "Ben"][rnd.result.winner]
    assert (result["placer"], result["winner_name"], result["points"]) == (rnd.result.winner, winner,
                                                                           rnd.result.points)
    assert spectator_view(match)["variant"]["doubles_across"] is True
