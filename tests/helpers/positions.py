"""Named positions shared by several test modules, written in the compact notation."""

from __future__ import annotations

from game.rules import Round
from helpers.notation import round_from

# Partnership, round one: seat 0 holds 6-6 and opens. Filled in, the hands are
#   0: 0-0 0-1 0-2 0-3 0-4 0-5 6-6     1: 0-6 1-1 1-2 1-3 1-4 1-5 3-6
#   2: 1-6 2-2 2-3 2-4 2-5 2-6 3-3     3: 3-4 3-5 4-4 4-5 4-6 5-5 5-6
PARTNERSHIP = "6-6 | 3-6 | 2-6 | 3-5"

# Ten tiles that close the line: both ends show 6 and all seven 6s are placed, so nobody
# can place again. They are played in this order, one per turn, starting with the opener.
CLOSING_PLAYS = ("6-6", "1-6>left", "0-1>left", "0-6>left", "2-6>right", "2-3>right",
                 "3-6>right", "4-6>right", "4-5>right", "5-6>right")

# The 18 other tiles (90 points), kept by the opener (4 tiles), the next seat (4), the
# opener's partner (5) and the seat before the opener (5): the two teams hold 45 and 45
# (TIED_REST), or 27 for the opener's team and 63 for the other (LOW_REST).
TIED_REST = ("0-0 0-2 0-3 0-4", "1-1 1-2 1-3 1-5", "0-5 1-4 3-5 4-4 5-5", "2-2 2-4 2-5 3-3 3-4")
LOW_REST = ("0-0 0-2 0-3 0-4", "2-4 2-5 3-3 3-4", "0-5 1-1 1-2 1-3 2-2", "1-4 1-5 3-5 4-4 5-5")


def partnership_blocked(opener: int = 0, rest: tuple[str, ...] = TIED_REST) -> Round:
    """A full Partnership deal played until the four seats pass in a row (P7).

    `rest` lists the unplayed tiles of the opener, the next seat, the opener's partner and the
    seat before the opener. The opener's team never places the last tile: seat opener+1 does.
    Round one if seat 0 opens (P3: it holds 6-6), else a later round (P4).
    """
    held = [[] for _ in range(4)]
    events = []
    for i, play in enumerate(CLOSING_PLAYS):
        seat = (opener + i) % 4
        held[seat].append(play.split(">")[0])
        events.append(f"{seat}:{play}")
    for offset, tiles in enumerate(rest):
        held[(opener + offset) % 4].extend(tiles.split())
    events += [f"{(opener + 2 + j) % 4}:pass" for j in range(4)]
    hands = " | ".join(" ".join(h) for h in held)
    if opener == 0:
        return round_from("partnership", hands, events=" ".join(events))
    return round_from("partnership", hands, events=" ".join(events), number=2,
                      previous_opener=opener - 1)


# Block, three seats (five tiles each, thirteen in the boneyard). Seat 0 opens with 6-6 and
# places its five tiles while the others, holding only 0s to 3s, pass: a domino (D5, T8).
BLOCK_DOMINO = dict(
    variant="block",
    hands="4-4 4-5 5-5 5-6 6-6 | 0-0 0-1 0-2 0-3 1-1 | 1-2 1-3 2-2 2-3 3-3",
    events="0:6-6 1:pass 2:pass 0:5-6 1:pass 2:pass 0:5-5 1:pass 2:pass 0:4-5 1:pass 2:pass 0:4-4",
)

# Block, three seats. Seat 1 opens with 6-6 (D2) and nobody holds another 6: blocked after
# three passes. Seats 0 and 2 tie at 14, lowest; neither placed a tile (D7, turn order).
BLOCK_TIE_NOBODY_PLACED = dict(
    variant="block",
    hands="0-0 0-1 0-4 0-5 1-3 | 3-5 4-4 4-5 5-5 6-6 | 0-2 0-3 1-1 1-2 2-2",
    events="1:6-6 2:pass 0:pass 1:pass",
)

# Block, three seats. Seat 0 opens with 6-6, seat 1 places 5-6, then nobody holds a 5 or 6:
# blocked. Seats 0 and 1 tie at 11; seat 1 placed most recently (D7).
BLOCK_TIE_LAST_PLACER = dict(
    variant="block",
    hands="0-0 0-1 0-3 3-4 6-6 | 0-2 0-4 1-1 1-2 5-6 | 1-4 2-3 2-4 3-3 4-4",
    events="0:6-6 1:5-6 2:pass 0:pass 1:pass",
)

# Draw, two seats (seven tiles each, fourteen in the boneyard). The line closes with both
# ends at 6 (CLOSING_PLAYS); seat 0 then draws the whole boneyard, which holds no 6, and both
# pass: blocked with an empty boneyard (D6). Seat 0 keeps 0-0 0-2, seat 1 keeps 0-3 0-4.
DRAW_CLOSED = dict(
    variant="draw",
    hands="6-6 0-1 2-6 3-6 4-5 | 1-6 0-6 2-3 4-6 5-6",
    events=" ".join(f"{i % 2}:{play}" for i, play in enumerate(CLOSING_PLAYS)),
)
DRAW_EMPTY_BONEYARD = dict(DRAW_CLOSED, events=DRAW_CLOSED["events"] + " 0:draw" * 14)
DRAW_BLOCKED = dict(DRAW_CLOSED, events=DRAW_EMPTY_BONEYARD["events"] + " 0:pass 1:pass")

# Draw, two seats: seat 0 opens with 6-6; seat 1 holds no 6 and the boneyard gives 0-0, 1-1
# and then 2-6, which fits.
DRAW_OPENED = dict(
    variant="draw",
    hands="6-6 | 0-1 0-2 0-3 0-4 0-5 1-2 1-3",
    boneyard="0-0 1-1 2-6",
    events="0:6-6",
)


def position(spec: dict, events: str | None = None, **extra) -> Round:
    """A Round from one of the dicts above, optionally with other `events`."""
    spec = dict(spec, **extra)
    if events is not None:
        spec["events"] = events
    variant = spec.pop("variant")
    return round_from(variant, **spec)


# Partnership, round two (seat 0 opens, P4). After 0-2 and 0-5 the ends are 5 and 2, and
# seat 2's first tile that fits, 2-5, fits both ends (T3, S3).
BOTH_ENDS = dict(
    variant="partnership",
    hands="0-2 | 0-5 | 0-0 0-1 0-3 0-4 0-6 1-1 2-5 | ",
    events="0:0-2 1:0-5>left",
    number=2,
    previous_opener=3,
)


# Block, three seats: 6-6, 5-6, 4-5, then nobody holds a 4 or a 6. Seats 0 and 1 tie at 13;
# seat 2 placed last but holds 27. Of the tied seats, seat 1 placed most recently (D7).
BLOCK_TIE_EARLIER_PLACER = dict(
    variant="block",
    hands="0-0 0-1 0-2 5-5 6-6 | 0-3 0-5 1-1 1-2 5-6 | 1-5 2-5 3-3 3-5 4-5",
    events="0:6-6 1:5-6 2:4-5 0:pass 1:pass 2:pass",
)
