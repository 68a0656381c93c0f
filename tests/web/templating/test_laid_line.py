"""The line kept as it grows (templating/dominoes.py LaidLine) reads exactly as the line laid out afresh."""

from __future__ import annotations

import random

import pytest

from game.chain import chain
from game.match import Match
from game.simulate import random_match_move
from game.variants import VARIANTS
from web.templating.dominoes import LaidLine


def check_box(laid: LaidLine, line: list, left: int, across: bool) -> None:
    """The box the stamp gives the page (fx fy fw fh) holds every tile and both open ends, no more."""
    spots, ends = chain(line, left, across)
    every = [*spots, *ends]
    box = (min(s.x for s in every), min(s.y for s in every),
           max(s.x + s.width for s in every), max(s.y + s.height for s in every))
    assert laid.box == box
    assert laid.fit == f"fx{box[0]} fy{box[1]} fw{box[2] - box[0]} fh{box[3] - box[1]}"


def sides(rnd) -> tuple[list, int]:
    """The round's line as the view gives it ([a, b] lists) and how many tiles lie left of the opening one."""
    left = sum(1 for e in rnd.events if e.action == "play" and e.end == "left")
    return [list(pair) for pair in rnd.line], left


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_line_kept_through_whole_matches_equals_one_laid_afresh(app, variant):
    across = VARIANTS[variant].doubles_across
    for seed in range(6):
        rng = random.Random(seed)
        seats = 4 if variant == "partnership" else 2 + seed % 3
        match = Match(variant, seats, 100, [f"P{s}" for s in range(seats)])
        kept = LaidLine()
        while not match.over:
            rnd = match.start_round(rng)
            while True:
                line, left = sides(rnd)
                tiles, ends = kept.laid(line, left, across, (1, rnd.number))
                fresh = LaidLine()
                assert (tiles, ends) == fresh.laid(line, left, across, (1, rnd.number))
                assert kept.fit == fresh.fit  # the line's box on the stamp (issue 42), kept or afresh
                if line:
                    check_box(kept, line, left, across)
                if rnd.over:
                    break
                random_match_move(match, rng)


def test_a_placed_tile_keeps_its_place_and_another_line_of_the_same_round_is_laid_afresh(app):
    kept = LaidLine()
    tiles = list(kept.laid([[3, 4]], 0, True, (1, 1))[0])  # a copy: the list kept grows in place
    grown, _ = kept.laid([[2, 3], [3, 4], [4, 4]], 1, True, (1, 1))
    assert grown[1] == tiles[0]  # the opening tile where it was
    # Not a growth of the line kept (a state replayed differently, say): laid out from nothing.
    other = [[6, 6], [6, 1]]
    assert kept.laid(other, 0, True, (1, 1)) == LaidLine().laid(other, 0, True, (1, 1))
