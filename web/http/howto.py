"""The rules page's how-to of one game: a few small examples, their points counted by the game itself.

The tiles are written "a-b" as they lie, left half first (in a line, the halves that touch match).
Which ends fit, what is drawn and who scores what are worked out here from the tiles and the
variant's own scoring (game/variants.py), so a caption never says a count the game would not make.
"""

from __future__ import annotations

from game.tiles import Tile
from game.variants import Variant

LINE = ("2-4", "4-6")  # placing: open ends 2 and 6
HAND = ("0-3", "6-1", "1-5")  # only 6-1 fits (the 6)
STUCK_LINE = ("3-6", "6-5")  # open ends 3 and 5
STUCK_HAND = ("1-2", "4-6")  # no 3, no 5: draw (Draw) or pass
BONEYARD = ("0-4", "2-5")  # Draw: drawn in this order until one fits
DOMINO_LINE = ("5-3", "3-1")  # the last tile, 3-1, just placed
# What is left in each seat's hand, seat 0 ("you") first, when a team plays (four seats, partners
# opposite) and when each plays for themselves (three seats).
DOMINO_HANDS = {True: ((), ("6-3",), ("6-6",), ("4-1",)), False: ((), ("6-3",), ("4-1",))}
BLOCKED_HANDS = {True: (("2-1",), ("6-5",), ("4-0",), ("3-3",)), False: (("3-1",), ("6-3",), ("6-6",))}


def tile(text: str) -> Tile:
    """The tile written "a-b"."""
    return Tile.parse(text)


def halves(text: str) -> tuple[int, int]:
    """The two halves of "a-b" as they lie: (a, b)."""
    a, b = text.split("-")
    return int(a), int(b)


def open_ends(line: tuple[str, ...]) -> tuple[int, int]:
    """A line's two open ends: the left half of its first tile, the right half of its last."""
    return halves(line[0])[0], halves(line[-1])[1]


def fits(text: str, ends: tuple[int, int]) -> bool:
    """Whether a tile shows one of the open ends' numbers (T3)."""
    return bool(set(halves(text)) & set(ends))


def laid_right(text: str, end: int) -> str:
    """A tile turned to be laid at the right end `end`: its matching half against the line."""
    a, b = halves(text)
    return f"{a}-{b}" if a == end else f"{b}-{a}"


def placing() -> dict:
    """A short line, a hand, the one tile of it that fits and where it goes."""
    left, right = open_ends(LINE)
    fitting = [t for t in HAND if fits(t, (left, right))]
    placed = laid_right(fitting[0], right)
    return {"line": LINE, "hand": HAND, "tile": fitting[0], "placed": placed, "left": left, "right": right,
            "end": right, "new": halves(placed)[1]}


def stuck(variant: Variant) -> dict:
    """A hand with nothing for either open end; in Draw, the tiles drawn until one fits (D3)."""
    ends = open_ends(STUCK_LINE)
    drawn: list[str] = []
    if variant.draws:
        for text in BONEYARD:
            drawn.append(text)
            if fits(text, ends):
                break
    hit = drawn[-1] if drawn else None
    return {"line": STUCK_LINE, "hand": STUCK_HAND, "left": ends[0], "right": ends[1],
            "missing": ", ".join(str(n) for n in sorted(set(ends))), "drawn": tuple(drawn[:-1]), "hit": hit,
            "placed": laid_right(hit, ends[1]) if hit else None}


def seat_rows(variant: Variant, hands: tuple, winner_side: int) -> list[dict]:
    """Each seat's hand as a row: whose, its tiles and points, whether the winner scores it."""
    rows = []
    for seat, hand in enumerate(hands):
        side = variant.side_of(seat)
        who = "you" if seat == 0 else ("partner" if side == variant.side_of(0) else "opponent")
        rows.append({"who": who, "tiles": hand, "points": sum(tile(t).points for t in hand),
                     "counted": side != winner_side})
    return rows


def domino(variant: Variant) -> dict:
    """You place your last tile (T8): the points your side scores, as the game counts them (P6, D5)."""
    hands = DOMINO_HANDS[variant.teams]
    totals = tuple(sum(tile(t).points for t in hand) for hand in hands)
    result = variant.score("domino", 0, totals, (0,), 0)
    rows = [row for row in seat_rows(variant, hands, result.winner) if row["who"] != "you"]
    counted = [row["points"] for row in rows if row["counted"]]
    return {"line": DOMINO_LINE, "last": DOMINO_LINE[-1], "rows": rows, "points": result.points,
            "sum": f"{' + '.join(map(str, counted))} = {result.points}"}


def blocked(variant: Variant) -> dict:
    """Nobody can place: the hands' totals, and who scores what, as the game counts them (P7, D6)."""
    hands = BLOCKED_HANDS[variant.teams]
    totals = tuple(sum(tile(t).points for t in hand) for hand in hands)
    placers = tuple(reversed(range(len(hands))))  # the last seat placed last (only a tie would ask)
    result = variant.score("blocked", None, totals, placers, 0)
    rows = seat_rows(variant, hands, result.winner)
    if variant.teams:  # a row a team: its two hands' tiles and total
        teams = [{"who": "us" if side == result.winner else "them", "points": 0, "tiles": (),
                  "counted": side != result.winner} for side in range(variant.side_count(len(hands)))]
        for seat, row in enumerate(rows):
            team = teams[variant.side_of(seat)]
            team["tiles"] += row["tiles"]
            team["points"] += row["points"]
        return {"rows": teams, "points": result.points, "ours": teams[result.winner]["points"],
                "theirs": result.points, "sum": str(result.points)}
    others = [row["points"] for row in rows if row["counted"]]
    own = totals[result.winner]
    return {"rows": rows, "points": result.points, "ours": own, "theirs": sum(others),
            "sum": f"{' + '.join(map(str, others))} − {own} = {result.points}"}


def how_to(variant: Variant) -> dict:
    """Everything the how-to shows of one game: its examples, in the order a round meets them."""
    return {"game": variant, "placing": placing(), "stuck": stuck(variant), "domino": domino(variant),
            "blocked": blocked(variant)}
