"""Invariants over thousands of random games of every variant and seat count (Hypothesis).

Each example plays whole matches with random legal moves (game.simulate), a share of them
made by the table's automatic move (S3), and checks after every move and every round what the
rules promise. The scoring is checked against a second, independent reading of the rules.
The counts are the thorough profile's (CI's); the quick default runs a tenth (helpers/profiles.py).
"""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from game.errors import BadRecord
from game.match import TARGETS, Match
from game.record import dumps, export_match, load_match, load_round
from game.rules import Round
from game.simulate import play_match, play_match_round, random_match_move
from game.tiles import ALL_TILES, Tile
from helpers.profiles import examples

CONFIGS = [("partnership", 4), *((v, s) for v in ("block", "draw") for s in (2, 3, 4))]

configs = st.sampled_from(CONFIGS)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
auto_shares = st.sampled_from([0.0, 0.1, 0.5, 1.0])


def check_position(rnd: Round) -> None:
    """What holds after every move of every round."""
    placed = [Tile(a, b) for a, b in rnd.line]
    everything = [t for h in rnd.hands for t in h] + placed + rnd.boneyard
    assert sorted(t.index for t in everything) == list(range(28))  # T1: each tile once, always
    if rnd.line:  # T3, T4: a single line with exactly two open ends
        assert all(rnd.line[i][1] == rnd.line[i + 1][0] for i in range(len(rnd.line) - 1))
        assert (rnd.line[0][0], rnd.line[-1][1]) == (rnd.left, rnd.right)
        plays = [e for e in rnd.events if e.action == "play"]  # where the tiles went, counted as they came
        assert rnd.placed_left == sum(1 for e in plays if e.end == "left")
        assert rnd.last_end == plays[-1].end
        assert rnd.on_line == [sum(1 for t in placed if n in (t.low, t.high)) for n in range(7)]
    else:
        assert rnd.left is None and rnd.right is None
    if not rnd.over:
        assert all(rnd.hands) and rnd.passes_in_a_row < rnd.seats


def check_move(rnd: Round, before: dict, new_events: list[dict]) -> None:
    """The events one move added were legal in the position before it."""
    seat = before["turn"]
    assert new_events and all(e["seat"] == seat for e in new_events)  # T5: only the seat to play
    *draws, last = new_events
    assert all(e["action"] == "draw" for e in draws)
    hands, boneyard = before["hands"], before["boneyard"]
    if last["action"] == "draw":  # a single manual draw: the turn stays (D3)
        draws.append(last)
        last = None
    for event in draws:  # D3: only in Draw, only with nothing fitting, the next boneyard tile
        assert rnd.variant.draws and before["fits"] == [] and boneyard
        assert event["tile"] == boneyard[0].text
        boneyard = boneyard[1:]
    played = [last["tile"]] if last is not None and last["action"] == "play" else []
    expected = [t.text for t in hands[seat]] + [e["tile"] for e in draws]
    for tile in played:
        expected.remove(tile)
    assert sorted(t.text for t in rnd.hands[seat]) == sorted(expected)  # a hand changes only so
    assert all(rnd.hands[s] == hands[s] for s in range(rnd.seats) if s != seat)
    if not rnd.variant.draws:  # P2 and Block: a hand only shrinks
        assert {t.text for t in rnd.hands[seat]} <= {t.text for t in hands[seat]}
    if last is None:
        assert rnd.turn == seat and len(rnd.boneyard) == len(before["boneyard"]) - len(draws)
        return
    fits = [(t.text, end) for t, end in before["fits"]]
    if last["action"] == "pass":  # T6: only when nothing fits and nothing can be drawn
        assert not fits and not (rnd.variant.draws and boneyard)
        assert before["left"] is not None  # the opener never passes
        assert last["ends"] == [before["left"], before["right"]]  # T7
    else:
        assert last["action"] == "play"
        if draws:  # D3: the drawn tile that fits is the one placed
            assert last["tile"] == draws[-1]["tile"]
        else:
            assert (last["tile"], last["end"]) in fits
            if last["auto"]:  # S3: the first tile in hand order, left end first
                assert (last["tile"], last["end"]) == fits[0]
    if not rnd.over:
        assert rnd.turn == (seat + 1) % rnd.seats  # T5


def expected_result(rnd: Round) -> tuple:
    """(reason, winner, points, tie_break) read from the rules, independently of the engine."""
    totals = [sum(t.points for t in h) for h in rnd.hands]
    placers = [e.seat for e in rnd.events if e.action == "play"]
    empty = [s for s, h in enumerate(rnd.hands) if not h]
    if empty:  # T8
        (seat,) = empty
        assert placers[-1] == seat
        if rnd.variant.teams:  # P6
            return ("domino", seat % 2, totals[(seat + 1) % 4] + totals[(seat + 3) % 4], None)
        return ("domino", seat, sum(totals) - totals[seat], None)  # D5
    assert [e.action for e in rnd.events[-rnd.seats:]] == ["pass"] * rnd.seats  # P7, D6
    assert not (rnd.variant.draws and rnd.boneyard)
    if rnd.variant.teams:
        ours, theirs = totals[0] + totals[2], totals[1] + totals[3]
        if ours != theirs:  # P7
            return ("blocked", 0, theirs, None) if ours < theirs else ("blocked", 1, ours, None)
        return ("blocked", placers[-1] % 2, ours, "last_placer")  # P8
    low = min(totals)
    tied = [s for s in range(rnd.seats) if totals[s] == low]
    tie_break = None
    if len(tied) == 1:
        winner = tied[0]
    else:  # D7
        recent = [s for s in reversed(placers) if s in tied]
        if recent:
            winner, tie_break = recent[0], "last_placer"
        else:
            winner = min(tied, key=lambda s: (s - rnd.opener) % rnd.seats)
            tie_break = "turn_order"
    return ("blocked", winner, sum(totals) - 2 * low, tie_break)  # D6


def expected_opener(rnd: Round, previous: Round | None) -> int:
    holder = {t: s for s, h in enumerate(rnd.dealt_hands) for t in h}
    if rnd.variant.teams:  # P3, P4
        return holder[ALL_TILES[-1]] if previous is None else (previous.opener + 1) % 4
    doubles = [t for t in holder if t.is_double]  # D2
    return holder[max(doubles or holder, key=lambda t: (t.points, t.high))]


def play_checked_match(variant: str, seats: int, target: int, seed: int, auto_share: float) -> Match:
    """A whole match of random legal moves, every move and every round checked."""
    rng = random.Random(seed)
    match = Match(variant, seats, target)
    while not match.over:
        previous = match.round
        rnd = match.start_round(rng)
        assert rnd.opener == expected_opener(rnd, previous) == rnd.turn
        assert rnd.playable(rnd.opener)  # T6: the opener never passes
        check_position(rnd)
        while not rnd.over:
            before = {"turn": rnd.turn, "hands": [list(h) for h in rnd.hands], "boneyard": list(rnd.boneyard),
                      "fits": rnd.playable(rnd.turn), "left": rnd.left, "right": rnd.right}
            count = len(rnd.events)
            random_match_move(match, rng, auto_share)
            check_move(rnd, before, [e.to_dict() for e in rnd.events[count:]])
            check_position(rnd)
        result = rnd.result
        assert (result.reason, result.winner, result.points, result.tie_break) == expected_result(rnd)
        assert result.points >= 0 and result.winner in range(rnd.variant.side_count(seats))  # T12
        assert load_round(rnd.to_dict(), match.variant,
                               previous.opener if previous else None).to_dict() == rnd.to_dict()
    return match


@settings(max_examples=examples(2000), deadline=None)
@given(config=configs, seed=seeds, auto_share=auto_shares)
def test_every_move_keeps_the_rules(config, seed, auto_share):
    variant, seats = config
    play_checked_match(variant, seats, 50, seed, auto_share)


@settings(max_examples=examples(2000), deadline=None)
@given(config=configs, target=st.sampled_from(TARGETS[:4]), seed=seeds, auto_share=auto_shares)
def test_t11_t12_match_ends_at_target_with_one_winner(config, target, seed, auto_share):
    variant, seats = config
    match = play_match(variant, seats, target, random.Random(seed), auto_share)
    scores, winner = match.scores, match.winner
    assert scores[winner] >= target and all(s < target for side, s in enumerate(scores) if side != winner)
    running = [0] * len(scores)
    for rnd in match.rounds:
        assert max(running) < target  # no round is played once a side reached the target
        assert rnd.result.points >= 0
        running[rnd.result.winner] += rnd.result.points  # T12: one side per round
    assert running == scores and match.rounds[-1].result.winner == winner


@settings(max_examples=examples(800), deadline=None)
@given(config=configs, target=st.sampled_from(TARGETS), seed=seeds, auto_share=auto_shares)
def test_records_round_trip(config, target, seed, auto_share):
    variant, seats = config
    match = play_match(variant, seats, target, random.Random(seed), auto_share)
    data = export_match(match)
    text = dumps(data)
    loaded = load_match(json.loads(text))  # every event is replayed and accepted
    assert export_match(loaded) == data and dumps(export_match(loaded)) == text
    assert loaded.scores == match.scores and loaded.winner == match.winner
    assert [r.opener for r in loaded.rounds] == [r.opener for r in match.rounds]


@settings(max_examples=examples(800), deadline=None)
@given(config=configs, seed=seeds, data=st.data())
def test_removing_any_event_breaks_the_record(config, seed, data):
    variant, seats = config
    record = export_match(play_match(variant, seats, 50, random.Random(seed)))
    number = data.draw(st.integers(0, len(record["rounds"]) - 1), label="round")
    events = record["rounds"][number]["events"]
    del events[data.draw(st.integers(0, len(events) - 1), label="event")]
    try:
        load_match(record)
    except BadRecord:
        return
    raise AssertionError("a record with an event missing was accepted")


@settings(max_examples=examples(400), deadline=None)
@given(config=configs, seed=seeds, data=st.data())
def test_a_match_in_progress_round_trips(config, seed, data):
    variant, seats = config
    rng = random.Random(seed)
    match = Match(variant, seats, 100)
    for _ in range(data.draw(st.integers(0, 2), label="finished rounds")):
        play_match_round(match, rng)
        if match.over:
            break
    if not match.over:
        rnd = match.start_round(rng)
        for _ in range(data.draw(st.integers(0, 40), label="moves")):
            if rnd.over:
                break
            random_match_move(match, rng)
    record = match.to_dict(include_current=True)
    loaded = load_match(json.loads(dumps(record)))
    assert loaded.to_dict() == record
    if not loaded.over and not loaded.round.over:
        assert loaded.round.turn == match.round.turn and loaded.round.hands == match.round.hands
