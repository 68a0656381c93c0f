"""Partnership, Block and Draw: everything that differs between variants (P, D rules).

The rest of the engine, the views and the web layer ask a Variant; none of them tests which
variant it is. A new variant is a subclass registered in VARIANTS.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import BadInput
from .tiles import Tile, rank

DOUBLE_SIX = Tile(6, 6)


def N_(words: str) -> str:
    """Marks a variant's words for the catalogs (pybabel extracts N_); the web layer translates them."""
    return words


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
    """The hooks every variant answers; subclasses fill in what differs."""

    name: str
    title: str  # its name for players, and `description` its line on the create form: both in N_()
    description: str
    seat_choices: tuple[int, ...]
    default_seats: int
    draws: bool = False  # D3: a seat that cannot place draws from the boneyard first
    doubles_across: bool = False  # D4: doubles are shown across the line (P5: in line)
    teams: bool = False  # a side is a team of several seats: "Ana & Carl score", not "Ana scores"

    def check_seats(self, seats: int) -> None:
        """Refuse a seat count this variant cannot be played with."""
        if seats not in self.seat_choices:
            choices = " or ".join(str(s) for s in self.seat_choices)
            raise BadInput(f"{self.title} is played by {choices} players.", "seats", game=self.name,
                           choices=list(self.seat_choices))

    def hand_size(self, seats: int) -> int:
        """How many tiles each seat is dealt; the rest is the boneyard."""
        raise NotImplementedError

    def opener(self, hands, number: int, previous_opener: int | None) -> tuple[int, Tile | None]:
        """Who opens this round, and the tile they must open with (None: any tile)."""
        raise NotImplementedError

    # -- sides -----------------------------------------------------------------

    def side_count(self, seats: int) -> int:
        """How many sides keep a score."""
        return seats

    def side_of(self, seat: int) -> int:
        """The side (team or seat) a seat scores for."""
        return seat

    def side_name(self, side: int, players: list[str]) -> str:
        """A side's name from its players' names: "Ana", or "Ana & Carl" for a team."""
        return " & ".join(name for seat, name in enumerate(players) if self.side_of(seat) == side)

    # -- scoring ---------------------------------------------------------------

    def score(self, reason: str, domino_seat: int | None, totals: tuple[int, ...],
              placers: tuple[int, ...], opener: int) -> RoundResult:
        """Score a finished round.

        `reason` is "domino" (then `domino_seat` placed its last tile) or "blocked"; `totals`
        are the points left in each seat's hand; `placers` the seats that placed a tile this
        round, the most recent first.
        """
        raise NotImplementedError


class Partnership(Variant):
    """Four players, two teams of partners sitting opposite (P1-P9)."""

    name, title, description = "partnership", N_("Partnership"), N_("4 players in two teams")
    seat_choices, default_seats, teams = (4,), 4, True

    def hand_size(self, seats: int) -> int:
        """P2: all 28 tiles, seven each."""
        return 7

    def side_of(self, seat: int) -> int:
        """P1: partners sit opposite."""
        return seat % 2

    def side_count(self, seats: int) -> int:
        return 2

    def opener(self, hands, number, previous_opener):
        """P3: the 6-6 holder opens round one with any tile; P4: then it rotates."""
        if previous_opener is None:
            return next(s for s, hand in enumerate(hands) if DOUBLE_SIX in hand), None
        return (previous_opener + 1) % len(hands), None

    def score(self, reason, domino_seat, totals, placers, opener):
        """P6 on a domino; P7 when blocked, and its tie rule P8."""
        team_totals = self._team_totals(totals)
        tie_break = None
        if domino_seat is not None:
            team = self.side_of(domino_seat)
        elif team_totals[0] != team_totals[1]:
            team = 0 if team_totals[0] < team_totals[1] else 1
        else:
            team, tie_break = self.side_of(placers[0]), "last_placer"
        return RoundResult(reason, team, team_totals[1 - team], totals, tie_break)

    def _team_totals(self, totals) -> list[int]:
        team_totals = [0, 0]
        for seat, points in enumerate(totals):
            team_totals[self.side_of(seat)] += points
        return team_totals


class Individual(Variant):
    """Block and Draw: 2-4 players each for themselves (D1-D8)."""

    seat_choices, default_seats, doubles_across = (2, 3, 4), 4, True

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

    def score(self, reason, domino_seat, totals, placers, opener):
        """D5 on a domino; D6 when blocked, and its tie rule D7."""
        if domino_seat is not None:
            return RoundResult(reason, domino_seat, sum(totals) - totals[domino_seat], totals)
        lowest = min(totals)
        tied = [seat for seat, points in enumerate(totals) if points == lowest]
        winner, tie_break = tied[0], None
        if len(tied) > 1:
            recent = [seat for seat in placers if seat in tied]
            if recent:
                winner, tie_break = recent[0], "last_placer"
            else:
                winner, tie_break = min(tied, key=lambda s: (s - opener) % len(totals)), "turn_order"
        return RoundResult(reason, winner, sum(totals) - 2 * lowest, totals, tie_break)


class Block(Individual):
    """Block: a player who cannot place passes."""

    name, title, description = "block", N_("Block"), N_("2 to 4, each for themselves")


class Draw(Individual):
    """Draw: a player who cannot place draws from the boneyard first (D3)."""

    name, title, description, draws = "draw", N_("Draw"), N_("2 to 4, draw when you cannot play"), True


VARIANTS: dict[str, Variant] = {v.name: v for v in (Partnership(), Block(), Draw())}
DEFAULT_VARIANT = "partnership"


def get_variant(name: str) -> Variant:
    """The variant called `name`, or BadInput."""
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        *others, last = VARIANTS
        raise BadInput(f"Unknown variant {str(name)[:20]!r}; choose {', '.join(others)} or {last}.",
                       "unknown_variant") from None
