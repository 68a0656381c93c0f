"""A match: rounds one after another, opener rotation, scores and the target (T11, T12)."""

from __future__ import annotations

import random

from .errors import BadInput, GameError, MatchOver, RoundOver
from .rules import Round
from .tiles import Tile
from .variants import Variant, get_variant

TARGETS = tuple(range(50, 501, 50))
DEFAULT_TARGET = 100


class Match:
    """The rounds of one match and its scores; actions go to the current round."""

    def __init__(self, variant: Variant | str, seats: int, target: int = DEFAULT_TARGET,
                 players: list[str] | None = None):
        self.variant = variant if isinstance(variant, Variant) else get_variant(variant)
        self.variant.check_seats(seats)
        if target not in TARGETS:
            raise BadInput("The target is 50 to 500 points, in steps of 50.")
        self.seats = seats
        self.target = target
        self.players = list(players) if players else [f"Seat {s + 1}" for s in range(seats)]
        self.rounds: list[Round] = []

    # -- state -----------------------------------------------------------------

    @property
    def round(self) -> Round | None:
        """The current (or last) round, None before the first deal."""
        return self.rounds[-1] if self.rounds else None

    @property
    def scores(self) -> list[int]:
        """Points by side (team in Partnership, seat otherwise), summed over finished rounds."""
        return list(self._tallied()[0])

    @property
    def winner(self) -> int | None:
        """T11: the first side to reach the target at the end of a round."""
        return self._tallied()[1]

    def _tallied(self) -> tuple[list[int], int | None]:
        """Scores and winner, recounted only when a round has been added or has ended."""
        key = (len(self.rounds), self.rounds[-1].result if self.rounds else None)
        if getattr(self, "_tally_key", None) != key:
            self._tally_key = key
            self._tally_value = _tally(self.target, self.variant, self.seats, self.rounds)
        return self._tally_value

    @property
    def over(self) -> bool:
        """True once a side has reached the target."""
        return self.winner is not None

    def side_of(self, seat: int) -> int:
        """The side a seat scores for."""
        return self.variant.side_of(seat)

    # -- flow ------------------------------------------------------------------

    def start_round(self, rng: random.Random) -> Round:
        """Deal the next round (the previous one must be over, the match not)."""
        self._check_can_deal()
        previous = self.round.opener if self.round else None
        rnd = Round.deal(self.variant, self.seats, rng, len(self.rounds) + 1, previous)
        self.rounds.append(rnd)
        return rnd

    def play(self, seat: int, tile: Tile, end: str | None = None, auto: bool = False) -> None:
        """Place a tile in the current round."""
        self._current().play(seat, tile, end, auto)

    def pass_turn(self, seat: int, auto: bool = False) -> None:
        """Pass in the current round."""
        self._current().pass_turn(seat, auto)

    def draw(self, seat: int, auto: bool = False) -> Tile:
        """Draw in the current round."""
        return self._current().draw(seat, auto)

    def play_for(self, seat: int) -> None:
        """The table's automatic move for `seat` (S3)."""
        self._current().play_for(seat)

    def _current(self) -> Round:
        if self.over:
            raise MatchOver("The match is over.")
        if self.round is None:
            raise RoundOver("No round is being played.")
        return self.round

    def _check_can_deal(self) -> None:
        if self.over:
            raise MatchOver("The match is over.")
        if self.round is not None and not self.round.over:
            raise GameError("The current round is not over yet.")

    # -- persistence -----------------------------------------------------------

    def to_dict(self, include_current: bool = True) -> dict:
        """The match record (domino-match/1); the unfinished round only with include_current."""
        rounds = [r for r in self.rounds if include_current or r.over]
        return {"format": "domino-match/1", "variant": self.variant.name, "seats": self.seats,
                "target": self.target, "players": list(self.players),
                "rounds": [r.to_dict() for r in rounds],
                "scores": _tally(self.target, self.variant, self.seats, rounds)[0],
                "winner": _tally(self.target, self.variant, self.seats, rounds)[1]}

    @classmethod
    def from_dict(cls, data: dict) -> Match:
        """Load and replay a record through the rules; a record that breaks one is refused."""
        from .record import load_match  # the record module owns validation
        return load_match(data)


def _tally(target, variant, seats, rounds) -> tuple[list[int], int | None]:
    """Scores by side over the finished rounds, and the first side to reach the target."""
    scores, winner = [0] * variant.side_count(seats), None
    for rnd in rounds:
        if rnd.result is not None:
            scores[rnd.result.winner] += rnd.result.points
            if winner is None and scores[rnd.result.winner] >= target:
                winner = rnd.result.winner
    return scores, winner
