"""Where each tile of the line lies on the felt: a chain that turns at the felt's edges.

The felt is a grid of quarter-tiles WIDTH wide and rows TOP..BOTTOM high (a tile is 4 long
and 2 wide). The opening tile sits in the middle of row 0; the right arm runs right, turns
down at the right edge and runs back left below, and so on; the left arm is the same path
turned half round about the opening tile, so it runs left and turns up. A tile's spot depends
only on the tiles between it and the opening tile, so a placed tile never moves as the line
grows (and a page may keep it: issue 13). Pure: no I/O, no web.
"""

from __future__ import annotations

from typing import NamedTuple

WIDTH = 40  # quarter-tiles across the felt: ten tiles end to end
MARGIN = 2  # kept free at each edge for the tile that turns the corner
TOP, BOTTOM = -13, 15  # the rows a line of 28 tiles can reach (half-open: TOP <= y < BOTTOM)
CENTRE = WIDTH // 2


class Spot(NamedTuple):
    """A tile's place: top-left corner (x, y) in quarter-tiles, and how it is drawn.

    A named tuple: a push lays out up to 30 of them, and tuples are quick to make.
    """

    x: int
    y: int
    vertical: bool  # long side up-down
    flip: bool = False  # its halves are drawn in the reverse of their line order (right to left)
    cross: bool = False  # a double laid across the line (D4)
    arm: str = "o"  # "o" the opening tile, "l" or "r": the side of it where the tile was laid
    step: int = 0  # its place on that side, counted from the opening tile (1, 2, ...)

    @property
    def width(self) -> int:
        return 2 if self.vertical else 4

    @property
    def height(self) -> int:
        return 4 if self.vertical else 2

    @property
    def key(self) -> str:
        """A name that stays the tile's as the line grows: "o", "l3", "r1"."""
        return self.arm if self.arm == "o" else f"{self.arm}{self.step}"


def layout(line: list, left: int, across: bool) -> list[Spot]:
    """The spot of every tile of `line` (pairs, left to right), in that order.

    `left` is how many tiles were laid on the left of the opening tile (line[left] is it);
    `across`: doubles are laid across the line (D4) rather than in line (P5).
    """
    return chain(line, left, across)[0]


def open_spots(line: list, left: int, across: bool) -> tuple[Spot, Spot] | None:
    """Where the next tile on the left and on the right would lie (a tile that is not a double)."""
    return chain(line, left, across)[1]


def chain(line: list, left: int, across: bool) -> tuple[list[Spot], tuple[Spot, Spot] | None]:
    """layout() and open_spots() at once: each arm is walked once, one tile further."""
    if not line:
        return [], None
    opener = _opener(line[left], across)
    right = _arm([*(a == b for a, b in line[left + 1:]), False], opener, across, "r")
    outwards = [a == b for a, b in reversed(line[:left])]
    lefts = [_turned(s) for s in _arm([*outwards, False], opener, across, "l")]
    return [*lefts[-2::-1], opener, *right[:-1]], (lefts[-1], right[-1])


def _double(tile) -> bool:
    return tile[0] == tile[1]


def _opener(tile, across: bool) -> Spot:
    if across and _double(tile):
        return Spot(CENTRE - 1, -1, True, cross=True)
    return Spot(CENTRE - 2, 0, False)


def _arm(doubles: list[bool], opener: Spot, across: bool, arm: str) -> list[Spot]:
    """The right-hand path for tiles laid outwards from `opener` (each: is it a double).

    A row runs until the next tile would come within MARGIN of an edge; then a corner tile
    hangs down from the row's end and a "foot" tile under it starts the next row, which runs
    the other way. Doubles are laid across in a row's run, in line at a corner or a foot.
    """
    spots = []
    y, heading, end = 0, 1, opener.x + (2 if opener.vertical else 4)  # end: the row's open edge (x)
    foot = False  # the next tile is the foot under a corner
    for step, double in enumerate(doubles, 1):  # the last may be a stand-in: the open end's spot
        crossed = across and double and not foot
        length = 2 if crossed else 4
        if foot:  # under the corner, reaching one tile-half back into the row
            x = end - 2 if heading < 0 else end
            spots.append(Spot(x, y, False, heading < 0, False, arm, step))
            end = x if heading < 0 else x + 4
            foot = False
        elif (end + length <= WIDTH - MARGIN) if heading > 0 else (end - length >= MARGIN):
            x = end if heading > 0 else end - length
            if crossed:
                spots.append(Spot(x, y - 1, True, False, True, arm, step))
            else:
                spots.append(Spot(x, y, False, heading < 0, False, arm, step))
            end += heading * length
        else:  # the corner: down from the row's end; the next row runs the other way
            end = end if heading > 0 else end - 2  # the corner's left side, which the foot starts from
            spots.append(Spot(end, y, True, False, False, arm, step))
            y, heading, foot = y + 4, -heading, True
    return spots


def _turned(spot: Spot) -> Spot:
    """A right-hand spot turned half round about the opening tile (row 0's centre): the left arm.

    The line runs inwards on the left arm, so where the path runs right the line runs left:
    a tile keeps its flip (halves drawn against line order exactly where the line runs leftwards).
    """
    x, y, vertical, flip, cross, arm, step = spot
    width, height = (2, 4) if vertical else (4, 2)
    return Spot(WIDTH - x - width, 2 - y - height, vertical, flip, cross, arm, step)
