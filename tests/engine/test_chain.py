"""The line as a chain on the felt (game/chain.py): it fits, it never overlaps, tiles never move."""

from __future__ import annotations

import itertools
import random

import pytest

from game.chain import BOTTOM, TOP, WIDTH, Growing, Spot, chain
from game.rules import Round
from game.simulate import random_move
from game.variants import VARIANTS, get_variant

# The felt's free width in CSS pixels on a 360x640 phone and a 1280x800 desktop (static/fichas.css: .fit),
# where a line as wide as the grid is drawn; the browser suite measures the real page at every moment
# (tests/e2e/test_one_screen.py).
FELT_PX = {"phone 360": 344, "desktop 1280": 838}
MIN_TILE_PX = {"phone 360": 40, "desktop 1280": 72}  # issue 42: a tile's long side at least


def layout(line: list, left: int, across: bool) -> list[Spot]:
    """The spot of every tile of `line`, in that order (chain's first half)."""
    return chain(line, left, across)[0]


def line_sides(rnd: Round) -> tuple[list, int]:
    """The round's line and how many of its tiles were laid left of the opening tile."""
    return list(rnd.line), sum(1 for e in rnd.events if e.action == "play" and e.end == "left")


def growth(variant: str, seats: int, seed: int):
    """Every state of a random round's line, as it grows: (line, left count) after each move."""
    rnd = Round.deal(get_variant(variant), seats, random.Random(seed))
    rng = random.Random(seed)
    states = []
    while not rnd.over:
        random_move(rnd, rng, 0)
        states.append(line_sides(rnd))
    return states


def cells(spot: Spot) -> set[tuple[int, int]]:
    return {(x, y) for x in range(spot.x, spot.x + spot.width) for y in range(spot.y, spot.y + spot.height)}


def check_chain(line: list, spots: list[Spot]) -> None:
    """Inside the felt, no two tiles on one cell, and each tile touches the next along an edge."""
    assert len(spots) == len(line)
    taken: set = set()
    for spot in spots:
        assert spot.x >= 0 and spot.x + spot.width <= WIDTH, spot
        assert spot.y >= TOP and spot.y + spot.height <= BOTTOM, spot
        mine = cells(spot)
        assert not mine & taken, spot
        taken |= mine
    for a, b in itertools.pairwise(spots):
        touching = {(x + dx, y + dy) for x, y in cells(a) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
        assert touching & cells(b), (a, b)


def one_sided(count: int, left: bool) -> tuple[list, int]:
    """A line of `count` tiles that are not doubles, all laid on one side of the opening tile."""
    line = [(n % 6, n % 6 + 1) for n in range(count)]
    return line, (count - 1 if left else 0)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_line_of_random_rounds_fits_the_felt_without_overlap(variant):
    across = VARIANTS[variant].doubles_across
    for seed in range(60):
        for line, left in growth(variant, 4 if variant == "partnership" else 2 + seed % 3, seed):
            check_chain(line, layout(line, left, across))


@pytest.mark.parametrize("across", [False, True])
@pytest.mark.parametrize("left", [False, True])
def test_a_round_of_28_tiles_fits_even_all_on_one_side(across, left):
    line, left_count = one_sided(28, left)
    check_chain(line, layout(line, left_count, across))
    doubles = [(n, n) for n in range(7)] + [(a, b) for a in range(7) for b in range(a + 1, 7)]
    for order in (doubles, doubles[::-1], doubles[7:] + doubles[:7]):  # all 28 tiles, doubles anywhere
        for left_count in (0, 5, 14, 27):
            check_chain(order, layout(order, left_count, across))


@pytest.mark.parametrize("size", list(FELT_PX))
def test_28_tiles_fit_the_felts_width_at_both_sizes_with_tiles_large_enough(size):
    quarter = FELT_PX[size] / WIDTH  # the grid's columns share the felt's width
    assert 4 * quarter >= MIN_TILE_PX[size]
    line, left = one_sided(28, False)
    right_edge = max(s.x + s.width for s in layout(line, left, False))
    assert right_edge * quarter <= FELT_PX[size]


def test_placed_tiles_never_move_as_the_line_grows():
    for variant, seed in itertools.product(VARIANTS, range(30)):
        across = VARIANTS[variant].doubles_across
        seen: dict[str, Spot] = {}
        for line, left in growth(variant, 2 + seed % 3 if variant != "partnership" else 4, seed):
            for spot in layout(line, left, across):
                assert seen.setdefault(spot.key, spot) == spot, (variant, seed, spot.key)


def test_d4_doubles_lie_across_in_block_and_draw_and_p5_in_line_in_partnership():
    line = [(3, 4), (4, 4), (4, 6), (6, 6), (6, 1)]  # opened with 4-6, a double on each side
    crossed = layout(line, 2, across=True)
    assert [(s.cross, s.vertical) for s in crossed] == [(False, False), (True, True), (False, False),
                                                       (True, True), (False, False)]
    assert [s.y for s in crossed] == [0, -1, 0, -1, 0]  # across: centred on the row
    assert [s.x for s in crossed] == [8, 12, 14, 18, 20]  # a double takes half a tile's length
    inline = layout(line, 2, across=False)
    assert not any(s.cross or s.vertical for s in inline)
    assert [s.x for s in inline] == [6, 10, 14, 18, 22]
    opener = layout([(5, 5)], 0, across=True)[0]
    assert (opener.cross, opener.vertical, opener.key) == (True, True, "o")


def test_the_chain_turns_down_on_the_right_and_up_on_the_left_reading_in_line_order():
    line, _ = one_sided(9, False)
    spots = layout(line, 0, False)
    assert [s.y for s in spots[:4]] == [0] * 4 and spots[4].vertical and spots[4].x + 2 == WIDTH
    assert spots[5].y == 4 and spots[5].flip and not spots[3].flip  # the row below runs leftwards
    left = layout(line[::-1], 8, False)
    assert left[4].vertical and left[4].x == 0 and left[3].y == -4 and left[3].flip
    assert [s.key for s in left] == ["l8", "l7", "l6", "l5", "l4", "l3", "l2", "l1", "o"]


def test_open_spots_are_where_the_next_tile_goes_on_each_side():
    line = [(3, 4), (4, 6), (6, 1)]
    left_spot, right_spot = chain(line, 1, False)[1]
    longer = layout([(2, 3), *line, (1, 5)], 2, False)
    assert (left_spot.x, left_spot.y) == (longer[0].x, longer[0].y)
    assert (right_spot.x, right_spot.y) == (longer[-1].x, longer[-1].y)
    assert chain([], 0, True) == ([], None)


def test_a_line_laid_as_it_grows_lies_where_a_fresh_layout_puts_it():
    """Growing (kept per table, web/templating/dominoes.py) lays only new tiles: the same spots and open ends,
    whether a push brings one tile or several (a timed-out turn, a missed push)."""
    for variant, seed in itertools.product(VARIANTS, range(30)):
        across = VARIANTS[variant].doubles_across
        growing, spots, skip = Growing(across), [], random.Random(seed)
        for line, left in growth(variant, 2 + seed % 3 if variant != "partnership" else 4, seed):
            if skip.random() < 0.3:
                continue  # this state is never shown: the next one adds two tiles or more
            before, after = growing.grow(tuple(map(tuple, line)), left)
            spots = [*before, *spots, *after]
            ends = (growing.left_end(), growing.right_end())
            assert (spots, ends) == chain(line, left, across), (variant, seed)
        if len(line) > 1:  # a line that is not this one grown (a new round's) is refused
            assert growing.grow(tuple(map(tuple, line[1:])), left) is None
            assert Growing(across).grow((), 0) == ([], [])
