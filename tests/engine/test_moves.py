"""Moves as values: check() returns an Event and changes nothing, apply() carries it out."""

import json
import random

import pytest

from game.errors import BadInput, MatchOver, NotYourTurn
from game.match import Match
from game.record import dumps, load_round
from game.rules import Event
from game.simulate import play_match
from game.tiles import Tile
from game.variants import RoundResult
from helpers.notation import snapshot
from helpers.positions import BLOCK_DOMINO, BOTH_ENDS, DRAW_CLOSED, DRAW_OPENED, partnership_blocked, position

T = Tile.parse


def all_but_last(spec: dict) -> dict:
    """A position's spec without its last event."""
    return dict(spec, events=spec["events"].rsplit(" ", 1)[0])


# -- check changes nothing; apply does what the convenience methods do ----------------------------


def test_check_returns_the_event_and_changes_nothing():
    rnd = position(BOTH_ENDS)
    before = snapshot(rnd)
    event = rnd.check(2, "play", T("2-5"), "right")
    assert event == Event(2, "play", T("2-5"), "right")
    assert snapshot(rnd) == before
    rnd.apply(event)
    assert snapshot(rnd) == snapshot(position(BOTH_ENDS, events=BOTH_ENDS["events"] + " 2:2-5>right"))
    assert rnd.events[-1] is event


def test_check_pass_and_draw():
    assert position(BLOCK_DOMINO, events="0:6-6").check(1, "pass") == Event(1, "pass", ends=(6, 6))
    assert position(DRAW_OPENED).check(1, "draw") == Event(1, "draw", T("0-0"))  # the boneyard's first


def test_check_refuses_with_the_same_errors():
    rnd = position(BOTH_ENDS)
    before = snapshot(rnd)
    with pytest.raises(NotYourTurn, match="not your turn"):
        rnd.check(0, "play", T("0-0"))
    with pytest.raises(BadInput, match="Unknown action 'fly'"):
        rnd.check(2, "fly")
    assert snapshot(rnd) == before


def test_s3_check_auto_is_the_table_move_without_making_it():
    rnd = position(DRAW_OPENED)
    before = snapshot(rnd)
    events = rnd.check_auto(1)
    assert [e.to_dict() for e in events] == [
        {"seat": 1, "action": "draw", "tile": "0-0", "auto": True},
        {"seat": 1, "action": "draw", "tile": "1-1", "auto": True},
        {"seat": 1, "action": "draw", "tile": "2-6", "auto": True},
        {"seat": 1, "action": "play", "tile": "2-6", "end": "left", "auto": True}]
    assert snapshot(rnd) == before
    for event in events:
        rnd.apply(event)
    assert snapshot(rnd) == snapshot(position(DRAW_OPENED, events="0:6-6 1:auto"))


def test_s3_check_auto_draws_the_boneyard_out_then_passes():
    events = position(DRAW_CLOSED).check_auto(0)
    assert [e.action for e in events] == ["draw"] * 14 + ["pass"]
    assert events[-1] == Event(0, "pass", ends=(6, 6), auto=True)  # one pass in a row: no result


# -- the record form of events --------------------------------------------------------------------


def test_event_record_forms_keep_their_keys_and_order():
    rnd = position(DRAW_OPENED, events="0:6-6 1:draw 1:draw 1:draw 1:2-6>right")
    texts = [dumps(e.to_dict()) for e in rnd.events]
    assert texts == [
        '{"seat":0,"action":"play","tile":"6-6","end":null,"auto":false}',
        '{"seat":1,"action":"draw","tile":"0-0","auto":false}',
        '{"seat":1,"action":"draw","tile":"1-1","auto":false}',
        '{"seat":1,"action":"draw","tile":"2-6","auto":false}',
        '{"seat":1,"action":"play","tile":"2-6","end":"right","auto":false}']
    passed = position(BLOCK_DOMINO, events="0:6-6 1:auto").events[-1]
    assert dumps(passed.to_dict()) == '{"seat":1,"action":"pass","ends":[6,6],"auto":true}'
    assert json.loads(texts[0])["end"] is None  # one way to write "no end"


# -- the state after a move, known before it is applied -------------------------------------------


def test_the_last_tile_carries_the_result_before_it_is_applied():
    rnd = position(all_but_last(BLOCK_DOMINO))
    event = rnd.check(0, "play", T("4-4"))
    assert event.result == RoundResult("domino", 0, 30, (0, 8, 22)) and not rnd.over
    rnd.apply(event)
    assert rnd.over and rnd.result is event.result and rnd.turn == 0


def test_the_blocking_pass_carries_the_result_before_it_is_applied():
    blocked = partnership_blocked()
    data = blocked.to_dict()
    rnd = load_round(dict(data, events=data["events"][:-1]), blocked.variant)
    assert [e.result for e in rnd.events] == [None] * len(rnd.events)
    event = rnd.check(rnd.turn, "pass")
    assert event.result == blocked.result and event.result.tie_break == "last_placer"
    table_move = Event(event.seat, "pass", ends=(6, 6), auto=True, result=blocked.result)
    assert rnd.check_auto(rnd.turn) == [table_move]
    rnd.apply(event)
    assert rnd.result == blocked.result


def match_at_last_tile(first_round_done: bool) -> Match:
    """Block to 50, three seats: BLOCK_DOMINO (30 points to seat 0) about to end; maybe once already."""
    match = Match("block", 3, 50)
    if first_round_done:
        match.add_round(position(BLOCK_DOMINO))
    number = len(match.rounds) + 1
    match.add_round(position(all_but_last(BLOCK_DOMINO), number=number))
    return match


def test_t10_t11_phase_after_says_playing_pause_or_over():
    match = match_at_last_tile(first_round_done=False)
    ending = match.check(0, "play", T("4-4"))
    assert match.phase_after([ending]) == "pause" and match.scores == [0, 0, 0]
    match.apply([ending])
    assert match.scores == [30, 0, 0] and not match.over

    match = match_at_last_tile(first_round_done=True)
    assert match.scores == [30, 0, 0]
    ending = match.check(0, "play", T("4-4"))
    assert match.phase_after([ending]) == "over" and not match.over  # T11: 60 reaches 50
    match.apply([ending])
    assert match.over and match.winner == 0 and match.scores == [60, 0, 0]
    with pytest.raises(MatchOver):
        match.check(1, "pass")


def test_phase_after_a_move_that_goes_on():
    match = Match("draw", 2, 100)
    match.add_round(position(DRAW_OPENED))
    events = match.check_auto(1)
    assert match.phase_after(events) == "playing"
    match.apply(events)
    assert match.round.turn == 0 and match.scores == [0, 0]


def test_scores_are_counted_when_the_result_is_applied():
    match = play_match("draw", 3, 100, random.Random(3))
    totals = [0, 0, 0]
    for rnd in match.rounds:
        totals[rnd.result.winner] += rnd.result.points
    assert match.scores == totals and match.winner == totals.index(max(totals))


def test_match_convenience_methods_are_check_then_apply():
    by_events, by_methods = Match("block", 3, 500), Match("block", 3, 500)
    for match in (by_events, by_methods):
        match.add_round(position(BLOCK_DOMINO, events=""))
    for seat, move in [(0, ("play", T("6-6"))), (1, ("pass",)), (2, None)]:
        if move is None:
            by_events.apply(by_events.check_auto(seat))
            by_methods.play_for(seat)
        elif move[0] == "play":
            by_events.apply([by_events.check(seat, *move)])
            by_methods.play(seat, move[1])
        else:
            by_events.apply([by_events.check(seat, "pass")])
            by_methods.pass_turn(seat)
    assert snapshot(by_events.round) == snapshot(by_methods.round)
