"""A match: rounds one after another, opener rotation, scores and the target (T11, T12)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from .errors import BadInput, GameError, MatchOver, RoundOver
from .rules import Event, Round
from .tiles import Tile
from .variants import RoundResult, Variant, get_variant

TARGETS = tuple(range(50, 501, 50))
DEFAULT_TARGET = 100


class Match:
    """The rounds of one match and its scores.

    Moves go through the match (check, then apply), so that a round's result is counted in
    `scores` and `winner` when the move that ends it is applied. A round played on its own,
    outside Match.apply, does not count.
    """

    def __init__(self, variant: Variant | str, seats: int, target: int = DEFAULT_TARGET,
                 players: list[str] | None = None):
        self.variant = variant if isinstance(variant, Variant) else get_variant(variant)
        self.variant.check_seats(seats)
        if target not in TARGETS:
            raise BadInput("The target is 50 to 500 points, in steps of 50.", "target")
        self.seats = seats
        self.target = target
        self.players = list(players) if players else [f"Seat {s + 1}" for s in range(seats)]
        self.rounds: list[Round] = []
        # The names each round was dealt with: a seat may change hands between rounds (the host hands
        # it over), and a round's result and log must keep naming who played it.
        self.round_players: list[list[str]] = []
        self.scores = [0] * self.variant.side_count(seats)  # by side, over the finished rounds
        self.winner: int | None = None  # T11: the first side to reach the target

    # -- state -----------------------------------------------------------------

    @property
    def round(self) -> Round | None:
        """The current (or last) round, None before the first deal."""
        return self.rounds[-1] if self.rounds else None

    @property
    def over(self) -> bool:
        """True once a side has reached the target."""
        return self.winner is not None

    def players_of(self, rnd: Round) -> list[str]:
        """The names `rnd` (one of this match's rounds) was dealt with."""
        return self.round_players[rnd.number - 1]

    def side_of(self, seat: int) -> int:
        """The side a seat scores for."""
        return self.variant.side_of(seat)

    # -- flow ------------------------------------------------------------------

    def start_round(self, rng: random.Random) -> Round:
        """Deal the next round and play it (the previous one must be over, the match not)."""
        rnd = self.deal_next(rng)
        self.add_round(rnd)
        return rnd

    def deal_next(self, rng: random.Random) -> Round:
        """The next round, dealt but not yet added (add_round): the table stores it first."""
        if self.over:
            raise MatchOver("The match is over.", "match_over")
        if self.round is not None and not self.round.over:
            raise GameError("The current round is not over yet.", "not_over")
        previous = self.round.opener if self.round else None
        return Round.deal(self.variant, self.seats, rng, len(self.rounds) + 1, previous)

    def add_round(self, rnd: Round, players: list[str] | None = None) -> None:
        """Append a round dealt or replayed from a record (its place already checked), played by
        `players` (None: the match's players now); count its result."""
        self.rounds.append(rnd)
        self.round_players.append(list(players) if players else list(self.players))
        if rnd.result is not None:
            self._count(rnd.result)

    # -- moves -----------------------------------------------------------------

    def check(self, seat: int, action: str, tile: Tile | None = None, end: str | None = None,
              auto: bool = False) -> Event:
        """The event an action in the current round would be, or its GameError (Round.check)."""
        return self._current().check(seat, action, tile, end, auto)

    def check_auto(self, seat: int) -> list[Event]:
        """The table's move for `seat` (S3) as events, not applied (Round.check_auto)."""
        return self._current().check_auto(seat)

    def phase_after(self, events: Sequence[Event]) -> str:
        """What follows checked, not yet applied, `events`: "playing", "pause" (round over) or "over"."""
        result = events[-1].result if events else None
        if result is None:
            return "playing"
        return "over" if self.scores[result.winner] + result.points >= self.target else "pause"

    def turn_after(self, events: Sequence[Event]) -> int | None:
        """Who plays once checked, not yet applied, `events` are (None when the round ends)."""
        return self.round.turn_after(events[-1])

    def apply(self, events: Iterable[Event]) -> None:
        """Apply events checked on the current state, in order; a round's result counts here."""
        rnd = self.round
        for event in events:
            rnd.apply(event)
            if event.result is not None:
                self._count(event.result)

    def play(self, seat: int, tile: Tile, end: str | None = None, auto: bool = False) -> None:
        """Place a tile in the current round."""
        self.apply([self.check(seat, "play", tile, end, auto)])

    def pass_turn(self, seat: int, auto: bool = False) -> None:
        """Pass in the current round."""
        self.apply([self.check(seat, "pass", auto=auto)])

    def draw(self, seat: int, auto: bool = False) -> Tile:
        """Draw in the current round; the tile drawn."""
        event = self.check(seat, "draw", auto=auto)
        self.apply([event])
        return event.tile

    def play_for(self, seat: int) -> None:
        """The table's automatic move for `seat` (S3)."""
        self.apply(self.check_auto(seat))

    def _current(self) -> Round:
        if self.over:
            raise MatchOver("The match is over.", "match_over")
        if self.round is None:
            raise RoundOver("No round is being played.", "no_round")
        return self.round

    def _count(self, result: RoundResult) -> None:
        self.scores[result.winner] += result.points
        if self.winner is None and self.scores[result.winner] >= self.target:
            self.winner = result.winner

    # -- persistence -----------------------------------------------------------

    def to_dict(self, include_current: bool = True) -> dict:
        """The match record (domino-match/1); the unfinished round only with include_current."""
        rounds = [r for r in self.rounds if include_current or r.over]
        return {"format": "domino-match/1", "variant": self.variant.name, "seats": self.seats,
                "target": self.target, "players": list(self.players),
                "rounds": [{**r.to_dict(), "players": list(self.players_of(r))} for r in rounds],
                "scores": list(self.scores), "winner": self.winner}
