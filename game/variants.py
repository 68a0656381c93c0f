"""Partnership, Block and Draw: hand size, opener, drawing, sides and scoring (P, D rules)."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import BadInput
from .tiles import Tile, rank

DOUBLE_SIX = Tile(6, 6)


@dataclass(frozen=True)
class RoundResult:
    """How a round ended: by domino or blocked, which side won and how many points."""

    reason: str  # "domino" | "blocked"
    winner: int  # a side: team in Partnership, seat otherwise
    points: int
    hand_totals: tuple[int, ...]  # by seat
    tie_break: str | None = None  # "last_placer" | "turn_order" when a tie decided it

    def to_dict(self) -> dict:
        """The record form (domino-match/1): reason, winner, points, hand_totals."""
        return {"reason": self.reason, "winner": self.winner, "points": self.points,
                "hand_totals": list(self.hand_totals)}


class Variant:
    """Hooks shared by the three variants; subclasses fill in what differs."""

    name: str
    title: str
    seat_choices: tuple[int, ...]
    draws: bool = False
    teams: bool = False

    def check_seats(self, seats: int) -> None:
        """Refuse a seat count this variant cannot be played with."""
        if seats not in self.seat_choices:
            choices = " or ".join(str(s) for s in self.seat_choices)
            raise BadInput(f"{self.title} is played by {choices} players.")

    def hand_size(self, seats: int) -> int:
        """How many tiles each seat is dealt."""
        raise NotImplementedError

    def side_of(self, seat: int) -> int:
        """The side (team or seat) a seat scores for."""
        return seat

    def side_count(self, seats: int) -> int:
        """How many sides keep a score."""
        return seats

    def opener(self, hands, number: int, previous_opener: int | None) -> tuple[int, Tile | None]:
        """Who opens this round, and the tile they must open with (None: any tile)."""
        raise NotImplementedError


class Partnership(Variant):
    """Four players, two teams of partners sitting opposite (P1-P9)."""

    name, title, seat_choices, teams = "partnership", "Partnership", (4,), True

    def hand_size(self, seats: int) -> int:
        return 7

    def side_of(self, seat: int) -> int:
        return seat % 2

    def side_count(self, seats: int) -> int:
        return 2

    def opener(self, hands, number, previous_opener):
        """P3: the 6-6 holder opens round one with any tile; P4: then it rotates."""
        if previous_opener is None:
            return next(s for s, hand in enumerate(hands) if DOUBLE_SIX in hand), None
        return (previous_opener + 1) % len(hands), None


class Individual(Variant):
    """Block and Draw: 2-4 players each for themselves (D1-D8)."""

    seat_choices = (2, 3, 4)

    def hand_size(self, seats: int) -> int:
        """D1: seven each for two players, five each for three or four."""
        return 7 if seats == 2 else 5

    def opener(self, hands, number, previous_opener):
        """D2: the highest double opens with it; with no double, the highest tile."""
        holder = {tile: seat for seat, hand in enumerate(hands) for tile in hand}
        for pips in range(6, -1, -1):
            double = Tile(pips, pips)
            if double in holder:
                return holder[double], double
        best = max(holder, key=rank)
        return holder[best], best


class Block(Individual):
    """Block: a player who cannot place passes."""

    name, title = "block", "Block"


class Draw(Individual):
    """Draw: a player who cannot place draws from the boneyard first (D3)."""

    name, title, draws = "draw", "Draw", True


VARIANTS: dict[str, Variant] = {v.name: v for v in (Partnership(), Block(), Draw())}


def get_variant(name: str) -> Variant:
    """The variant called `name`, or BadInput."""
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        raise BadInput(f"Unknown variant {str(name)[:20]!r}; choose partnership, block or draw.") from None


