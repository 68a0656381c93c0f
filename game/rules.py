"""One round: the line with two ends, turns, moves checked into events and applied, round end."""

from __future__ import annotations

import random
from dataclasses import dataclass

from .errors import (
    BadInput,
    CannotDraw,
    IllegalMove,
    MustDraw,
    MustPlay,
    NotYourTurn,
    RoundOver,
    TileNotInHand,
)
from .tiles import ALL_TILES, Tile, hand_points, tiles_text
from .variants import RoundResult, Variant

ENDS = ("left", "right")


@dataclass(frozen=True, slots=True)
class Event:
    """One move as a value: what Round.check returns and Round.apply carries out."""

    seat: int
    action: str  # "play" | "pass" | "draw"
    tile: Tile | None = None  # the tile placed or drawn
    end: str | None = None  # "left" | "right" for a play; None for the opening tile
    ends: tuple[int, int] | None = None  # for a pass: the two end numbers it was made at (T7)
    auto: bool = False  # the table's move when time ran out (S3)
    result: RoundResult | None = None  # how the round ends, when this move ends it

    def to_dict(self) -> dict:
        """The record form (domino-match/1) of this event."""
        if self.action == "play":
            return {"seat": self.seat, "action": "play", "tile": self.tile.text, "end": self.end,
                    "auto": self.auto}
        if self.action == "pass":
            return {"seat": self.seat, "action": "pass", "ends": list(self.ends), "auto": self.auto}
        return {"seat": self.seat, "action": "draw", "tile": self.tile.text, "auto": self.auto}


class Round:
    """A round in play: check() turns an action into an Event or refuses it; apply() carries it out."""

    def __init__(self, variant: Variant, hands: list[list[Tile]], boneyard: list[Tile],
                 number: int = 1, previous_opener: int | None = None):
        variant.check_seats(len(hands))
        self.variant = variant
        self.seats = len(hands)
        self.number = number
        self.dealt_hands = [list(h) for h in hands]
        self.dealt_boneyard = list(boneyard)
        self.hands = [list(h) for h in hands]
        self.boneyard = list(boneyard)
        self.opener, self.opening_tile = variant.opener(self.hands, number, previous_opener)
        self.turn = self.opener
        self.line: list[tuple[int, int]] = []  # placed tiles, left to right, as shown
        self.placed_left = 0  # tiles placed left of the opening one
        self.last_end: str | None = None  # where the latest tile went: "left", "right", None (the opening)
        self.on_line = [0] * 7  # for each number, how many of its tiles lie on the line (a double: one)
        self.left: int | None = None
        self.right: int | None = None
        self.passes_in_a_row = 0
        self.events: list[Event] = []
        self.result: RoundResult | None = None
        self._placed_at = [-1] * self.seats  # move number of each seat's latest tile, -1: none (P8, D7)
        self._missing = [set() for _ in hands]  # T7: the end numbers each seat passed at

    # -- dealing ---------------------------------------------------------------

    @classmethod
    def deal(cls, variant: Variant, seats: int, rng: random.Random, number: int = 1,
             previous_opener: int | None = None) -> Round:
        """Shuffle the 28 tiles with `rng` and deal (P2, D1); hands are shown sorted."""
        variant.check_seats(seats)
        tiles = list(ALL_TILES)
        rng.shuffle(tiles)
        size = variant.hand_size(seats)
        hands = [sorted(tiles[i * size:(i + 1) * size], key=_hand_order) for i in range(seats)]
        return cls(variant, hands, tiles[seats * size:], number, previous_opener)

    # -- what may be done ------------------------------------------------------

    @property
    def over(self) -> bool:
        """True once the round has a result."""
        return self.result is not None

    @property
    def last_placer(self) -> int | None:
        """The seat that placed the latest tile, None before the first."""
        seat = max(range(self.seats), key=self._placed_at.__getitem__)
        return seat if self._placed_at[seat] >= 0 else None

    def fits(self, tile: Tile) -> bool:
        """Whether `tile` can be placed on either end now (T3)."""
        if self.left is None:
            return self.opening_tile is None or tile is self.opening_tile
        return self.left in (tile.low, tile.high) or self.right in (tile.low, tile.high)

    def ends_for(self, tile: Tile) -> tuple[str | None, ...]:
        """The ends `tile` fits, left first; (None,) for the opening tile."""
        if self.left is None:
            return (None,) if self.fits(tile) else ()
        halves = (tile.low, tile.high)
        if self.left in halves:
            return ("left", "right") if self.right in halves else ("left",)
        return ("right",) if self.right in halves else ()

    def playable(self, seat: int) -> list[tuple[Tile, str | None]]:
        """Every legal (tile, end) for `seat`, in hand order, left before right."""
        return [(tile, end) for tile in self.hands[seat] for end in self.ends_for(tile)]

    def can_place(self, seat: int) -> bool:
        """Whether any tile in `seat`'s hand fits."""
        return any(self.fits(tile) for tile in self.hands[seat])

    def must_draw(self, seat: int) -> bool:
        """D3: in Draw, a seat that cannot place draws while the boneyard lasts."""
        return self.variant.draws and bool(self.boneyard) and not self.can_place(seat)

    def must_pass(self, seat: int) -> bool:
        """T6: a seat passes only when it cannot place and cannot draw."""
        return not self.can_place(seat) and not (self.variant.draws and self.boneyard)

    def known_missing(self, seat: int) -> list[int]:
        """T7: the numbers `seat` showed it lacks by passing at them, ascending."""
        return sorted(self._missing[seat])

    # -- checking moves --------------------------------------------------------

    def check(self, seat: int, action: str, tile: Tile | None = None, end: str | None = None,
              auto: bool = False) -> Event:
        """The event `seat`'s action would be, or the GameError that refuses it; changes nothing.

        `action` is "play" (`tile` on `end`; None picks the only end it fits), "pass" or "draw".
        `auto` marks the table's move (S3); a play so marked must be the first tile that fits.
        The event's `result` says whether, and how, it ends the round.
        """
        self._check_turn(seat)
        if action == "play":
            return self._check_play(seat, tile, end, auto)
        if action == "pass":
            return self._check_pass(seat, auto)
        if action == "draw":
            return self._check_draw(seat, auto)
        raise BadInput(f"Unknown action {action!r}.", "unknown_action")

    def check_auto(self, seat: int) -> list[Event]:
        """S3: the table's move for `seat` when time runs out, as events; changes nothing.

        In Draw, first the draws D3 requires (the boneyard's order is known), then the first
        tile that fits in hand order on its first end (left, then right), or else a pass.
        """
        self._check_turn(seat)
        first = self._first_fit(seat)
        drawn: list[Tile] = []
        if first is None and self.variant.draws:
            for tile in self.boneyard:
                drawn.append(tile)
                ends = self.ends_for(tile)
                if ends:
                    first = (tile, ends[0])
                    break
        events = [Event(seat, "draw", tile, None, None, True) for tile in drawn]
        if first is not None:
            events.append(self._play_event(seat, *first, True, len(drawn)))
        else:  # having drawn, this pass cannot block: passes in a row leave the boneyard empty
            events.append(self._pass_event(seat, True))
        return events

    # -- applying moves --------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Carry out an event that check() or check_auto() returned for the current state."""
        seat, action = event.seat, event.action
        if action == "play":
            self.hands[seat].remove(event.tile)
            self._place(event.tile, event.end)
            self.passes_in_a_row = 0
            self._placed_at[seat] = len(self.events)
        elif action == "pass":
            self.passes_in_a_row += 1
            self._missing[seat].update(event.ends)
        else:
            self.boneyard.pop(0)  # D3: the drawn tile is the boneyard's first; the turn stays
            self.hands[seat].append(event.tile)
        self.events.append(event)
        if event.result is not None:
            self.result = event.result  # T8, P7, D6
        else:
            self.turn = self.turn_after(event)

    def turn_after(self, event: Event) -> int | None:
        """Who plays once `event` is applied: the next seat (T5), the same after a draw (D3), or
        None when it ends the round."""
        if event.result is not None:
            return None
        return event.seat if event.action == "draw" else (event.seat + 1) % self.seats

    def play(self, seat: int, tile: Tile, end: str | None = None, auto: bool = False) -> None:
        """Place `tile` from `seat`'s hand on `end` (T3); None picks the only end it fits."""
        self.apply(self.check(seat, "play", tile, end, auto))

    def pass_turn(self, seat: int, auto: bool = False) -> None:
        """Pass (T6); the n-th pass in a row blocks the round (P7, D6)."""
        self.apply(self.check(seat, "pass", auto=auto))

    def draw(self, seat: int, auto: bool = False) -> Tile:
        """D3: take the next boneyard tile into the hand; the turn stays with `seat`."""
        event = self.check(seat, "draw", auto=auto)
        self.apply(event)
        return event.tile

    def play_for(self, seat: int) -> None:
        """S3: the table's move when time runs out: draw as D3 says, then the first fit, or pass."""
        for event in self.check_auto(seat):
            self.apply(event)

    # -- internals -------------------------------------------------------------

    def _check_turn(self, seat: int) -> None:
        if self.result is not None:
            raise RoundOver("This round is over.", "round_over")
        if seat != self.turn:
            raise NotYourTurn("It is not your turn.", "not_your_turn")

    def _check_play(self, seat: int, tile: Tile, end: str | None, auto: bool) -> Event:
        if tile not in self.hands[seat]:
            raise TileNotInHand(f"You do not hold {tile}.", "not_in_hand", tile=str(tile))
        end = self._choose_end(tile, end)
        if auto and self._first_fit(seat) != (tile, end):
            raise IllegalMove(f"The table's move (S3) is the first tile that fits, not {tile}.", "auto_move",
                              tile=str(tile))
        return self._play_event(seat, tile, end, auto)

    def _check_pass(self, seat: int, auto: bool) -> Event:
        if self.can_place(seat):
            raise MustPlay("You have a tile that fits, so you cannot pass.", "fits_no_pass")
        if self.variant.draws and self.boneyard:
            raise MustDraw("You cannot place: draw from the boneyard first.", "must_draw")
        return self._pass_event(seat, auto)

    def _check_draw(self, seat: int, auto: bool) -> Event:
        if not self.variant.draws:
            raise CannotDraw(f"Nobody draws in {self.variant.title}.", "no_drawing", game=self.variant.name)
        if self.can_place(seat):
            raise MustPlay("You have a tile that fits, so you cannot draw.", "fits_no_draw")
        if not self.boneyard:
            raise CannotDraw("The boneyard is empty: pass.", "boneyard_empty")
        return Event(seat, "draw", self.boneyard[0], None, None, auto)

    def _choose_end(self, tile: Tile, end: str | None) -> str | None:
        if end is not None and end not in ENDS:
            raise BadInput("The end must be left or right.", "bad_end")
        ends = self.ends_for(tile)
        if not ends:
            if self.left is None:
                raise IllegalMove(f"This round must be opened with {self.opening_tile}.", "open_with",
                                  tile=str(self.opening_tile))
            raise IllegalMove(f"{tile} fits neither end ({self.left} and {self.right}).", "fits_neither",
                              tile=str(tile), left=self.left, right=self.right)
        if ends == (None,):
            return None
        if end is None:
            if len(ends) == 2 and self.left != self.right:
                raise IllegalMove(f"{tile} fits both ends: choose left or right.", "fits_both",
                                  tile=str(tile))
            return ends[0]
        if end not in ends:
            number = self.left if end == "left" else self.right
            raise IllegalMove(f"{tile} does not fit the {end} end ({number}).", f"no_fit_{end}",
                              tile=str(tile), number=number)
        return end

    def _first_fit(self, seat: int) -> tuple[Tile, str | None] | None:
        """S3's choice: the first tile in hand order that fits, on its first end."""
        for tile in self.hands[seat]:
            ends = self.ends_for(tile)
            if ends:
                return tile, ends[0]
        return None

    def _play_event(self, seat: int, tile: Tile, end: str | None, auto: bool, drawn: int = 0) -> Event:
        """A play, `drawn` tiles having just been drawn; placing the last tile in hand ends the round (T8)."""
        domino = len(self.hands[seat]) + drawn == 1
        return Event(seat, "play", tile, end, None, auto, self._result(seat) if domino else None)

    def _pass_event(self, seat: int, auto: bool) -> Event:
        """A pass; when every seat has passed in a row the round is blocked (P7, D6)."""
        blocked = self.passes_in_a_row + 1 == self.seats
        return Event(seat, "pass", None, None, (self.left, self.right), auto,
                     self._result(None) if blocked else None)

    def _result(self, domino_seat: int | None) -> RoundResult:
        """The variant's score if the round ends now: `domino_seat` places its last tile, or None: blocked."""
        totals = [hand_points(hand) for hand in self.hands]
        placed_at = list(self._placed_at)
        if domino_seat is not None:
            totals[domino_seat] = 0
            placed_at[domino_seat] = len(self.events)
        placers = sorted((s for s in range(self.seats) if placed_at[s] >= 0), key=lambda s: -placed_at[s])
        reason = "blocked" if domino_seat is None else "domino"
        return self.variant.score(reason, domino_seat, tuple(totals), tuple(placers), self.opener)

    def _place(self, tile: Tile, end: str | None) -> None:
        self.last_end = end
        self.on_line[tile.low] += 1
        if tile.high != tile.low:
            self.on_line[tile.high] += 1
        if end is None:
            self.line.append((tile.low, tile.high))
            self.left, self.right = tile.low, tile.high
        elif end == "left":
            outer = tile.other(self.left)
            self.line.insert(0, (outer, self.left))
            self.left = outer
            self.placed_left += 1
        else:
            outer = tile.other(self.right)
            self.line.append((self.right, outer))
            self.right = outer

    # -- persistence -----------------------------------------------------------

    def to_dict(self) -> dict:
        """The round as in a match record (domino-match/1); result and ends once it is over."""
        data = {"number": self.number, "opener": self.opener,
                "hands": [tiles_text(h) for h in self.dealt_hands],
                "boneyard": tiles_text(self.dealt_boneyard),
                "events": [e.to_dict() for e in self.events]}
        if self.result is not None:
            data["ends"] = [self.left, self.right]
            data["result"] = self.result.to_dict()
        return data


def _hand_order(tile: Tile) -> tuple[int, int]:
    return (tile.low, tile.high)
