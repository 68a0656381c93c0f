"""The double-six set (T1) and the Tile value type, with its "a-b" text form."""

from __future__ import annotations

from .errors import BadInput


class Tile:
    """One domino; the 28 instances are interned, so identity is equality."""

    __slots__ = ("high", "index", "low", "points", "text")

    low: int
    high: int
    points: int
    text: str
    index: int

    def __new__(cls, a: int, b: int) -> Tile:
        """Return the interned tile with halves a and b, in either order."""
        try:
            return _BY_HALVES[(a, b)]
        except (KeyError, TypeError):
            raise BadInput(f"There is no tile {a}-{b} in a double-six set.", "no_such_tile") from None

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read "a-b" (either order) into a tile, or raise BadInput."""
        try:
            return _BY_TEXT[text.strip()]
        except (KeyError, AttributeError):
            raise BadInput(f"{str(text)[:20]!r} is not a tile; write it like 3-5.", "not_a_tile") from None

    @property
    def is_double(self) -> bool:
        """True for 0-0, 1-1, … 6-6."""
        return self.low == self.high

    def other(self, half: int) -> int:
        """The half opposite to `half`."""
        return self.high if half == self.low else self.low

    def __repr__(self) -> str:
        return f"Tile({self.text})"

    def __str__(self) -> str:
        return self.text

    def __reduce__(self):
        return (Tile, (self.low, self.high))


def _make(low: int, high: int, index: int) -> Tile:
    tile = object.__new__(Tile)
    tile.low, tile.high, tile.points, tile.text, tile.index = low, high, low + high, f"{low}-{high}", index
    return tile


ALL_TILES: tuple[Tile, ...] = tuple(
    _make(a, b, i) for i, (a, b) in enumerate((a, b) for a in range(7) for b in range(a, 7))
)
_BY_HALVES = {(t.low, t.high): t for t in ALL_TILES} | {(t.high, t.low): t for t in ALL_TILES}
_BY_TEXT = {f"{a}-{b}": t for (a, b), t in _BY_HALVES.items()}


def tiles_text(tiles) -> list[str]:
    """Tiles as a list of "a-b" strings."""
    return [t.text for t in tiles]


def parse_tiles(texts) -> list[Tile]:
    """A list of "a-b" strings as tiles."""
    return [Tile.parse(t) for t in texts]


def hand_points(tiles) -> int:
    """Sum of the points of a hand (T2)."""
    return sum(t.points for t in tiles)


def rank(tile: Tile) -> tuple[int, int]:
    """Order for "highest tile" (D2): most points, then the higher half."""
    return (tile.points, tile.high)
