"""What a view shows of the tiles: helpers for the hidden-information tests (S2, T9, D1)."""

from __future__ import annotations

from game.rules import Round


def hidden_tiles(rnd: Round, seat: int | None) -> set[str]:
    """Tiles `seat` must not see: other hands and the boneyard.

    The tile a Block or Draw round must open with is public (D2: the table knows who holds the
    highest double), so the view may name it before it is placed.
    """
    tiles = {t.text for t in rnd.boneyard}
    tiles |= {t.text for s, h in enumerate(rnd.hands) if s != seat for t in h}
    if rnd.left is None and rnd.opening_tile is not None:
        tiles.discard(rnd.opening_tile.text)
    return tiles


def shown_tiles(view: dict) -> set[str]:
    """Every "a-b" string anywhere in a view."""
    found = set()

    def walk(value):
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str) and len(value) == 3 and value[1] == "-":
            found.add(value)

    walk(view)
    return found
