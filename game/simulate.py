"""Whole matches played with random legal choices, for the command line and benchmarks."""

from __future__ import annotations

import random

from .match import Match
from .rules import Event, Round

AUTO_SHARE = 0.1  # how often the simulated player lets the clock run out (S3)


def random_events(rnd: Round, rng: random.Random, auto_share: float = AUTO_SHARE) -> list[Event]:
    """One random legal move for the seat to play, checked, not applied; sometimes the table's (S3)."""
    seat = rnd.turn
    if rng.random() < auto_share:
        return rnd.check_auto(seat)
    moves = rnd.playable(seat)
    if moves:
        tile, end = rng.choice(moves)
        return [rnd.check(seat, "play", tile, end)]
    return [rnd.check(seat, "draw" if rnd.must_draw(seat) else "pass")]


def random_move(rnd: Round, rng: random.Random, auto_share: float = AUTO_SHARE) -> None:
    """Make one random legal move in a round played on its own (no match counts it)."""
    for event in random_events(rnd, rng, auto_share):
        rnd.apply(event)


def random_match_move(match: Match, rng: random.Random, auto_share: float = AUTO_SHARE) -> None:
    """Make one random legal move in the match's current round, through the match."""
    match.apply(random_events(match.round, rng, auto_share))


def play_round(rnd: Round, rng: random.Random, auto_share: float = AUTO_SHARE) -> Round:
    """Play a round on its own to its end with random legal moves."""
    while rnd.result is None:
        random_move(rnd, rng, auto_share)
    return rnd


def play_match_round(match: Match, rng: random.Random, auto_share: float = AUTO_SHARE) -> Round:
    """Deal the match's next round and play it to its end through the match, which counts it."""
    rnd = match.start_round(rng)
    while rnd.result is None:
        random_match_move(match, rng, auto_share)
    return rnd


def play_match(variant: str, seats: int, target: int, rng: random.Random,
               auto_share: float = AUTO_SHARE) -> Match:
    """Play a whole match to its target with random legal moves."""
    match = Match(variant, seats, target, [f"Player {s + 1}" for s in range(seats)])
    while not match.over:
        play_match_round(match, rng, auto_share)
    return match
