"""Whole matches played with random legal choices, for the command line and benchmarks."""

from __future__ import annotations

import random

from .match import Match
from .rules import Round

AUTO_SHARE = 0.1  # how often the simulated player lets the clock run out (S3)


def random_move(rnd: Round, rng: random.Random, auto_share: float = AUTO_SHARE) -> None:
    """Make one random legal move for the seat to play, sometimes the table's automatic one."""
    seat = rnd.turn
    if rng.random() < auto_share:
        rnd.play_for(seat)
        return
    moves = rnd.playable(seat)
    if moves:
        tile, end = rng.choice(moves)
        rnd.play(seat, tile, end)
    elif rnd.must_draw(seat):
        rnd.draw(seat)
    else:
        rnd.pass_turn(seat)


def play_round(rnd: Round, rng: random.Random, auto_share: float = AUTO_SHARE) -> Round:
    """Play `rnd` to its end with random legal moves."""
    while rnd.result is None:
        random_move(rnd, rng, auto_share)
    return rnd


def play_match(variant: str, seats: int, target: int, rng: random.Random,
               auto_share: float = AUTO_SHARE) -> Match:
    """Play a whole match to its target with random legal moves."""
    match = Match(variant, seats, target, [f"Player {s + 1}" for s in range(seats)])
    while not match.over:
        play_round(match.start_round(rng), rng, auto_share)
    return match
