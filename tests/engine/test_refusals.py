"""Every illegal action is refused with its own error and changes nothing."""

import random

import pytest

from game.errors import (
    BadInput,
    CannotDraw,
    GameError,
    IllegalMove,
    MatchOver,
    MustDraw,
    MustPlay,
    NotYourTurn,
    RoundOver,
    TileNotInHand,
)
from game.match import Match
from game.record import replay_event
from game.simulate import play_match, play_match_round
from game.tiles import Tile
from helpers.notation import round_from, snapshot
from helpers.positions import (
    BLOCK_DOMINO,
    BOTH_ENDS,
    DRAW_BLOCKED,
    DRAW_EMPTY_BONEYARD,
    DRAW_OPENED,
    PARTNERSHIP,
    partnership_blocked,
    position,
)


def opened():
    """Partnership after seat 0 opened with 6-6; seat 1 to play."""
    return round_from("partnership", PARTNERSHIP, events="0:6-6")


def draw_after(events):
    return lambda: position(DRAW_OPENED, events=events)


T = Tile.parse
CASES = [
    # (why, position, action, error)
    ("not your turn: play", opened, lambda r: r.play(2, T("2-6")), NotYourTurn),
    ("not your turn: the opener again", opened, lambda r: r.play(0, T("0-0")), NotYourTurn),
    ("not your turn: pass", opened, lambda r: r.pass_turn(3), NotYourTurn),
    ("not your turn: draw", draw_after("0:6-6"), lambda r: r.draw(0), NotYourTurn),
    ("not your turn: table move", opened, lambda r: r.play_for(2), NotYourTurn),
    ("no such seat", opened, lambda r: r.play(7, T("2-6")), NotYourTurn),
    ("negative seat", opened, lambda r: r.pass_turn(-3), NotYourTurn),
    ("tile not in hand: another seat's", opened, lambda r: r.play(1, T("2-6")), TileNotInHand),
    ("tile not in hand: already placed", opened, lambda r: r.play(1, T("6-6")), TileNotInHand),
    ("tile not in hand: not a tile", opened, lambda r: r.play(1, "3-6"), TileNotInHand),
    ("tile fits neither end", opened, lambda r: r.play(1, T("1-2")), IllegalMove),
    ("tile fits neither end, end named", opened, lambda r: r.play(1, T("1-2"), "left"), IllegalMove),
    ("wrong end named", lambda: position(BOTH_ENDS, events="0:0-2"),
     lambda r: r.play(1, T("0-5"), "right"), IllegalMove),
    ("fits both ends, no end given", lambda: position(BOTH_ENDS),
     lambda r: r.play(2, T("2-5")), IllegalMove),
    ("bad end string", opened, lambda r: r.play(1, T("3-6"), "up"), BadInput),
    ("bad end: capitals", opened, lambda r: r.play(1, T("3-6"), "LEFT"), BadInput),
    ("bad end: empty", opened, lambda r: r.play(1, T("3-6"), ""), BadInput),
    ("bad end: number", opened, lambda r: r.play(1, T("3-6"), 0), BadInput),
    ("bad end: list", opened, lambda r: r.play(1, T("3-6"), ["left"]), BadInput),
    ("D2: opener not using the forced tile", lambda: position(BLOCK_DOMINO, events=""),
     lambda r: r.play(0, T("5-6")), IllegalMove),
    ("D2: forced opener cannot pass", lambda: position(BLOCK_DOMINO, events=""),
     lambda r: r.pass_turn(0), MustPlay),
    ("T6: the opener never passes", lambda: round_from("partnership", PARTNERSHIP),
     lambda r: r.pass_turn(0), MustPlay),
    ("pass while holding a fitting tile", opened, lambda r: r.pass_turn(1), MustPlay),
    ("pass in Draw with a fitting tile", draw_after("0:6-6 1:draw 1:draw 1:draw"),
     lambda r: r.pass_turn(1), MustPlay),
    ("pass in Draw while the boneyard has tiles", draw_after("0:6-6"), lambda r: r.pass_turn(1), MustDraw),
    ("draw in Block", lambda: position(BLOCK_DOMINO, events="0:6-6"), lambda r: r.draw(1), CannotDraw),
    ("draw in Partnership", opened, lambda r: r.draw(1), CannotDraw),
    ("draw with a fitting tile", draw_after("0:6-6 1:draw 1:draw 1:draw"), lambda r: r.draw(1), MustPlay),
    ("draw as the opener", draw_after(""), lambda r: r.draw(0), MustPlay),
    ("draw with an empty boneyard", lambda: position(DRAW_EMPTY_BONEYARD),
     lambda r: r.draw(0), CannotDraw),
    ("play after the round ended", lambda: position(BLOCK_DOMINO), lambda r: r.play(1, T("0-0")), RoundOver),
    ("pass after the round ended", partnership_blocked, lambda r: r.pass_turn(r.turn), RoundOver),
    ("auto play that is not the table's move", opened,
     lambda r: r.play(1, T("3-6"), "left", auto=True), IllegalMove),
    ("draw after the round ended", lambda: position(DRAW_BLOCKED), lambda r: r.draw(1), RoundOver),
    ("table move after the round ended", lambda: position(DRAW_BLOCKED), lambda r: r.play_for(0), RoundOver),
    ("anyone after the round ended", partnership_blocked, lambda r: r.play(1, T("1-1")), RoundOver),
]


@pytest.mark.parametrize(("why", "make", "action", "error"), CASES, ids=[c[0] for c in CASES])
def test_refused_action_changes_nothing(why, make, action, error):
    rnd = make()
    before = snapshot(rnd)
    with pytest.raises(error) as caught:
        action(rnd)
    assert type(caught.value) is error  # its own error, not merely a relative
    assert caught.value.code and str(caught.value)  # something a player can read
    assert snapshot(rnd) == before


def test_each_error_has_its_own_code():
    errors = [BadInput, NotYourTurn, TileNotInHand, IllegalMove, MustPlay, CannotDraw, MustDraw, RoundOver,
              MatchOver]
    assert len({e.code for e in errors}) == len(errors)
    assert all(issubclass(e, GameError) for e in errors) and issubclass(MatchOver, RoundOver)


def test_refused_record_event_changes_nothing():
    rnd = position(DRAW_OPENED)
    before = snapshot(rnd)
    for event in ({"seat": 1, "action": "draw", "tile": "2-6"},  # the boneyard gives 0-0 first
                  {"seat": 1, "action": "fly"},
                  {"seat": 1, "action": "play", "tile": "0-1", "end": "left"},
                  {"seat": 1, "action": "pass", "auto": True}):
        with pytest.raises(GameError):
            replay_event(rnd, event)
        assert snapshot(rnd) == before


# -- the match ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def finished_match():
    return play_match("draw", 3, 50, random.Random(21))


@pytest.mark.parametrize("action", [
    lambda m: m.play(m.round.turn, ([*m.round.hands[m.round.turn], T("0-0")])[0]),
    lambda m: m.pass_turn(m.round.turn),
    lambda m: m.draw(m.round.turn),
    lambda m: m.play_for(m.round.turn),
    lambda m: m.start_round(random.Random(1)),
], ids=["play", "pass", "draw", "table move", "deal"])
def test_any_action_after_the_match_ended(finished_match, action):
    before = finished_match.to_dict()
    with pytest.raises(MatchOver):
        action(finished_match)
    assert finished_match.to_dict() == before


def test_actions_before_the_first_deal():
    match = Match("block", 2)
    for action in (lambda: match.play(0, T("6-6")), lambda: match.pass_turn(0), lambda: match.draw(0),
                   lambda: match.play_for(0)):
        with pytest.raises(RoundOver):
            action()
    assert match.rounds == [] and match.round is None


def test_actions_between_rounds():
    match = Match("block", 2, 500)
    rng = random.Random(4)
    play_match_round(match, rng)
    before = match.to_dict()
    with pytest.raises(RoundOver):
        match.pass_turn(match.round.turn)
    assert match.to_dict() == before


@pytest.mark.parametrize(("variant", "seats", "target"), [
    ("chess", 4, 100), ("", 4, 100), (None, 4, 100), ("Partnership", 4, 100), (["block"], 2, 100),
    ("partnership", 3, 100), ("partnership", 2, 100), ("block", 1, 100), ("block", 5, 100),
    ("draw", "3", 100), ("draw", None, 100),
    ("partnership", 4, 0), ("partnership", 4, 120), ("block", 2, 550), ("draw", 2, "100"),
])
def test_match_with_bad_settings(variant, seats, target):
    with pytest.raises(BadInput):
        Match(variant, seats, target)
