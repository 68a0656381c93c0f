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

WIDTH = 32  # quarter-tiles across the felt: eight tiles end to end (a 360-px phone draws them 40 px long)
MARGIN = 2  # kept free at each edge for the tile that turns the corner
TOP, BOTTOM = -14, 16  # the rows a line of 28 tiles and its open ends reach (half-open: TOP <= y < BOTTOM)
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


def chain(line: list, left: int, across: bool) -> tuple[list[Spot], tuple[Spot, Spot] | None]:
    """The spot of every tile of `line` (pairs, left to right), and where the next tile (not a double)
    would lie on the left and on the right (None: no line yet); each arm is walked once, one tile further.

    `left` is how many tiles were laid on the left of the opening tile (line[left] is it);
    `across`: doubles are laid across the line (D4) rather than in line (P5). What Growing lays tile by
    tile (the web keeps one per table); the tests hold the two equal.
    """
    if not line:
        return [], None
    opener = _opener(line[left], across)
    right = _arm([*(a == b for a, b in line[left + 1:]), False], opener, across, "r")
    outwards = [a == b for a, b in reversed(line[:left])]
    lefts = [_turned(s) for s in _arm([*outwards, False], opener, across, "l")]
    return [*lefts[-2::-1], opener, *right[:-1]], (lefts[-1], right[-1])


class Growing:
    """A line's layout kept as the line grows: each tile is laid once, where chain() puts it.

    web/templating/dominoes.py keeps one per table, so a move lays its tile instead of walking the line.
    No spots are kept (a Spot, a named tuple, stays tracked by the garbage collector).
    """

    def __init__(self, across: bool):
        self.line, self.left, self.across = (), 0, across
        self.lefts = self.rights = None  # each arm's walk, once the line has its opening tile

    def grow(self, line: tuple, left: int) -> tuple[list[Spot], list[Spot]] | None:
        """The spots of the tiles `line` has before and after the line laid so far (each in line
        order), or None if `line` is not that line grown."""
        if not self.line:
            if not line:
                return [], []
            opener = _opener(line[left], self.across)
            self.lefts, self.rights = Walk(opener, self.across, "l"), Walk(opener, self.across, "r")
            before, after = self._lay(line[:left], line[left + 1:])
            after.insert(0, opener)
        else:
            known, added = len(self.line), left - self.left
            if added < 0 or len(line) - known - added < 0 or line[added:added + known] != self.line:
                return None
            before, after = self._lay(line[:added], line[added + known:])
        self.line, self.left = line, left
        return before, after

    def _lay(self, before: tuple, after: tuple) -> tuple[list[Spot], list[Spot]]:
        """The spots of tiles laid outwards: `before` the left end and `after` the right (line order)."""
        lefts = [_turned(self.lefts.next(_double(t))) for t in reversed(before)]
        return lefts[::-1], [self.rights.next(_double(t)) for t in after]

    def left_end(self) -> Spot:
        """Where the next tile (not a double) would lie on the left (the line has its opening tile)."""
        return _turned(self.lefts.peek())

    def right_end(self) -> Spot:
        """Where the next tile (not a double) would lie on the right (the line has its opening tile)."""
        return self.rights.peek()


def _double(tile) -> bool:
    return tile[0] == tile[1]


def _opener(tile, across: bool) -> Spot:
    if across and _double(tile):
        return Spot(CENTRE - 1, -1, True, cross=True)
    return Spot(CENTRE - 2, 0, False)


def _arm(doubles: list[bool], opener: Spot, across: bool, arm: str) -> list[Spot]:
    """The right-hand path for tiles laid outwards from `opener` (each: is it a double)."""
    walk = Walk(opener, across, arm)
    return [walk.next(double) for double in doubles]  # the last may be a stand-in: the open end's spot


class Walk:
    """One arm's right-hand path, a tile at a time: where the next tile laid outwards lies.

    A row runs until the next tile would come within MARGIN of an edge; then a corner tile
    hangs down from the row's end and a "foot" tile under it starts the next row, which runs
    the other way. Doubles are laid across in a row's run, in line at a corner or a foot.
    Kept between moves, it lays a new tile without walking the arm again (web/push/publish.py).
    """

    __slots__ = ("across", "arm", "end", "foot", "heading", "step", "y")

    def __init__(self, opener: Spot, across: bool, arm: str):
        self.across, self.arm = across, arm
        self.y, self.heading = 0, 1
        self.end = opener.x + (2 if opener.vertical else 4)  # the row's open edge (x)
        self.foot = False  # the next tile is the foot under a corner
        self.step = 0

    def next(self, double: bool) -> Spot:
        """The spot of the next tile (a double or not), and the walk moves past it."""
        self.step += 1
        end, y, heading, arm, step = self.end, self.y, self.heading, self.arm, self.step
        crossed = self.across and double and not self.foot
        length = 2 if crossed else 4
        if self.foot:  # under the corner, reaching one tile-half back into the row
            x = end - 2 if heading < 0 else end
            self.end = x if heading < 0 else x + 4
            self.foot = False
            return Spot(x, y, False, heading < 0, False, arm, step)
        if (end + length <= WIDTH - MARGIN) if heading > 0 else (end - length >= MARGIN):
            x = end if heading > 0 else end - length
            self.end = end + heading * length
            if crossed:
                return Spot(x, y - 1, True, False, True, arm, step)
            return Spot(x, y, False, heading < 0, False, arm, step)
        # the corner: down from the row's end; the next row runs the other way
        self.end = end if heading > 0 else end - 2  # the corner's left side, which the foot starts from
        self.y, self.heading, self.foot = y + 4, -heading, True
        return Spot(self.end, y, True, False, False, arm, step)

    def peek(self) -> Spot:
        """Where the next tile would lie if it is not a double (an open end's spot); the walk stays."""
        saved = self.y, self.heading, self.end, self.foot, self.step
        spot = self.next(False)
        self.y, self.heading, self.end, self.foot, self.step = saved
        return spot


def _turned(spot: Spot) -> Spot:
    """A right-hand spot turned half round about the opening tile (row 0's centre): the left arm.

    The line runs inwards on the left arm, so where the path runs right the line runs left:
    a tile keeps its flip (halves drawn against line order exactly where the line runs leftwards).
    """
    x, y, vertical, flip, cross, arm, step = spot
    width, height = (2, 4) if vertical else (4, 2)
    return Spot(WIDTH - x - width, 2 - y - height, vertical, flip, cross, arm, step)
