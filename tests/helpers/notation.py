"""A compact text form for positions, so that each rule test names only what matters.

Tiles are written "a-b"; a list of tiles is space separated; hands are separated by "|":

    round_from("block", hands="6-6 2-5 | 1-3", boneyard="0-1 4-4", events="0:6-6 1:pass")

Unless ``fill=False``, every hand is topped up to its deal size (P2, D1) with the tiles nobody
named, lowest first and seat by seat, and the boneyard is the named boneyard tiles (drawn
first, in the order given) followed by the tiles left over, lowest first. So a position is a
full 28-tile deal. Hands are then sorted as Round.deal sorts them (low half, then high half):
the order the table shows, which is the order S3's automatic move searches.

Events are space separated, each ``seat:action``:

    0:6-6            play 6-6 without naming an end (the engine takes the only end it fits)
    1:3-6>right      play 3-6 on the right end (">left", ">right", ">l", ">r")
    2:pass           pass
    3:draw           draw the next boneyard tile
    3:draw=2-5       draw, and check that the tile drawn is 2-5
    0:auto           the table's move for seat 0 when its time runs out (S3)
"""

from __future__ import annotations

from game.record import load_round
from game.rules import Round
from game.tiles import ALL_TILES, Tile, tiles_text
from game.variants import Variant, get_variant

_ENDS = {"left": "left", "l": "left", "right": "right", "r": "right"}


def tiles(text: str) -> list[Tile]:
    """ "6-6 0-1" as a list of tiles; "" or "-" is the empty list."""
    return [Tile.parse(t) for t in text.split() if t != "-"]


def variant_of(variant: Variant | str) -> Variant:
    """A variant object from its name (or the object itself)."""
    return get_variant(variant) if isinstance(variant, str) else variant


def deal(variant: Variant | str, hands: str, boneyard: str = "", fill: bool = True,
         seats: int | None = None) -> tuple[list[list[Tile]], list[Tile]]:
    """The hands (sorted as shown) and the boneyard of a deal written in the compact form.

    `seats` adds empty hands (to be filled) up to that many seats.
    """
    variant = variant_of(variant)
    named = [tiles(h) for h in hands.split("|")]
    if seats is not None:
        named += [[] for _ in range(seats - len(named))]
    pile = tiles(boneyard)
    used = [t for h in named for t in h] + pile
    duplicates = {t.text for t in used if used.count(t) > 1}
    assert not duplicates, f"tiles named twice: {sorted(duplicates)}"
    if fill:
        size = variant.hand_size(len(named))
        assert all(len(h) <= size for h in named), f"a hand holds more than {size} tiles"
        spare = [t for t in ALL_TILES if t not in used]
        for held in named:
            while len(held) < size:
                held.append(spare.pop(0))
        pile += spare
        assert not (variant.teams and pile), "Partnership deals all 28 tiles"
    return [sorted(h, key=_shown) for h in named], pile


def _shown(tile: Tile) -> tuple[int, int]:
    return (tile.low, tile.high)  # the order Round.deal shows a hand in


def round_from(variant: Variant | str, hands: str, boneyard: str = "", events: str = "", *,
               number: int = 1, previous_opener: int | None = None, fill: bool = True,
               seats: int | None = None) -> Round:
    """A Round dealt as written (see the module docstring), with `events` applied."""
    variant = variant_of(variant)
    dealt, pile = deal(variant, hands, boneyard, fill, seats)
    rnd = Round(variant, dealt, pile, number, previous_opener)
    return apply(rnd, events)


def apply(rnd: Round, events: str) -> Round:
    """Apply space-separated ``seat:action`` events to `rnd`, and return it."""
    for token in events.split():
        seat_text, action = token.split(":", 1)
        seat = int(seat_text)
        if action == "pass":
            rnd.pass_turn(seat)
        elif action == "auto":
            rnd.play_for(seat)
        elif action.startswith("draw"):
            drawn = rnd.draw(seat)
            if "=" in action:
                expected = Tile.parse(action.split("=", 1)[1])
                assert drawn is expected, f"seat {seat} drew {drawn}, not {expected}"
        else:
            text, _, end = action.partition(">")
            rnd.play(seat, Tile.parse(text), _ENDS[end] if end else None)
    return rnd


def hand(rnd: Round, seat: int) -> str:
    """A hand written back in the compact form, in the order shown."""
    return " ".join(tiles_text(rnd.hands[seat]))


def line(rnd: Round) -> str:
    """The line as shown, left to right, each tile written touching-half inward: "1-6 6-6 6-2"."""
    return " ".join(f"{a}-{b}" for a, b in rnd.line)


def snapshot(rnd: Round) -> tuple:
    """Everything a refused action must leave as it was."""
    return (rnd.to_dict(), [tiles_text(h) for h in rnd.hands], list(rnd.line), rnd.left, rnd.right,
            rnd.turn, tiles_text(rnd.boneyard), rnd.passes_in_a_row, rnd.last_placer, rnd.result,
            list(rnd.events))


def replay(rnd: Round, previous_opener: int | None = None) -> Round:
    """The round rebuilt from its record form by record.load_round; it must come back identical."""
    again = load_round(rnd.to_dict(), rnd.variant, previous_opener)
    assert again.to_dict() == rnd.to_dict()
    assert snapshot(again) == snapshot(rnd)
    return again
