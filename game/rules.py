"""One round: the line with two ends, turns, play / pass / draw, round end and scoring."""

from __future__ import annotations

import random

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
from .tiles import ALL_TILES, Tile, hand_points, parse_tiles, tiles_text
from .variants import RoundResult, Variant, get_variant

ENDS = ("left", "right")


class Round:
    """A round in play; every action is checked fully before anything changes."""

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
        self.left: int | None = None
        self.right: int | None = None
        self.passes_in_a_row = 0
        self.last_placer: int | None = None
        self.events: list[dict] = []
        self.result: RoundResult | None = None

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

    def fits(self, tile: Tile) -> bool:
        """Whether `tile` can be placed on either end now (T3)."""
        if self.left is None:
            return self.opening_tile is None or tile is self.opening_tile
        return self.left in (tile.low, tile.high) or self.right in (tile.low, tile.high)

    def ends_for(self, tile: Tile) -> tuple[str | None, ...]:
        """The ends `tile` fits, left first; (None,) for the opening tile."""
        if self.left is None:
            return (None,) if self.fits(tile) else ()
        ends = []
        if self.left in (tile.low, tile.high):
            ends.append("left")
        if self.right in (tile.low, tile.high):
            ends.append("right")
        return tuple(ends)

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
        numbers = set()
        for event in self.events:
            if event["action"] == "pass" and event["seat"] == seat:
                numbers.update(event["ends"])
        return sorted(numbers)

    # -- actions ---------------------------------------------------------------

    def play(self, seat: int, tile: Tile, end: str | None = None, auto: bool = False) -> None:
        """Place `tile` from `seat`'s hand on `end` (T3); None picks the only end it fits."""
        self._check_turn(seat)
        if tile not in self.hands[seat]:
            raise TileNotInHand(f"You do not hold {tile}.")
        end = self._choose_end(tile, end)
        if auto and self.playable(seat)[0] != (tile, end):
            raise IllegalMove(f"The table's move (S3) is the first tile that fits, not {tile}.")
        self.hands[seat].remove(tile)
        self._place(tile, end)
        self.events.append({"seat": seat, "action": "play", "tile": tile.text, "end": end, "auto": auto})
        self.passes_in_a_row = 0
        self.last_placer = seat
        if not self.hands[seat]:
            self._finish("domino", seat)  # T8
        else:
            self.turn = (seat + 1) % self.seats  # T5

    def pass_turn(self, seat: int, auto: bool = False) -> None:
        """Pass (T6); the n-th pass in a row blocks the round (P7, D6)."""
        self._check_turn(seat)
        if self.can_place(seat):
            raise MustPlay("You have a tile that fits, so you cannot pass.")
        if self.variant.draws and self.boneyard:
            raise MustDraw("You cannot place: draw from the boneyard first.")
        self.events.append({"seat": seat, "action": "pass", "ends": [self.left, self.right], "auto": auto})
        self.passes_in_a_row += 1
        if self.passes_in_a_row == self.seats:
            self._finish("blocked", None)
        else:
            self.turn = (seat + 1) % self.seats

    def draw(self, seat: int, auto: bool = False) -> Tile:
        """D3: take the next boneyard tile into the hand; the turn stays with `seat`."""
        self._check_draw(seat)
        tile = self.boneyard.pop(0)
        self.hands[seat].append(tile)
        self.events.append({"seat": seat, "action": "draw", "tile": tile.text, "auto": auto})
        return tile

    def play_for(self, seat: int) -> None:
        """S3: the table's move when time runs out: draw as D3 says, then the first fit, or pass."""
        self._check_turn(seat)
        while self.must_draw(seat):
            self.draw(seat, auto=True)
        moves = self.playable(seat)
        if moves:
            tile, end = moves[0]
            self.play(seat, tile, end, auto=True)
        else:
            self.pass_turn(seat, auto=True)

    # -- internals -------------------------------------------------------------

    def _check_draw(self, seat: int) -> None:
        self._check_turn(seat)
        if not self.variant.draws:
            raise CannotDraw(f"Nobody draws in {self.variant.title}.")
        if self.can_place(seat):
            raise MustPlay("You have a tile that fits, so you cannot draw.")
        if not self.boneyard:
            raise CannotDraw("The boneyard is empty: pass.")

    def _check_turn(self, seat: int) -> None:
        if self.result is not None:
            raise RoundOver("This round is over.")
        if seat != self.turn:
            raise NotYourTurn("It is not your turn.")

    def _choose_end(self, tile: Tile, end: str | None) -> str | None:
        if end is not None and end not in ENDS:
            raise BadInput("The end must be left or right.")
        ends = self.ends_for(tile)
        if not ends:
            if self.left is None:
                raise IllegalMove(f"This round must be opened with {self.opening_tile}.")
            raise IllegalMove(f"{tile} fits neither end ({self.left} and {self.right}).")
        if ends == (None,):
            return None
        if end is None:
            if len(ends) == 2 and self.left != self.right:
                raise IllegalMove(f"{tile} fits both ends: choose left or right.")
            return ends[0]
        if end not in ends:
            number = self.left if end == "left" else self.right
            raise IllegalMove(f"{tile} does not fit the {end} end ({number}).")
        return end

    def _place(self, tile: Tile, end: str | None) -> None:
        if end is None:
            self.line.append((tile.low, tile.high))
            self.left, self.right = tile.low, tile.high
        elif end == "left":
            self.left = tile.other(self.left)
            self.line.insert(0, (self.left, tile.other(self.left)))
        else:
            self.right = tile.other(self.right)
            self.line.append((tile.other(self.right), self.right))

    def _finish(self, reason: str, domino_seat: int | None) -> None:
        totals = tuple(hand_points(hand) for hand in self.hands)
        if self.variant.teams:
            self.result = _partnership_result(reason, domino_seat, totals, self.last_placer)
        else:
            self.result = self._individual_result(reason, domino_seat, totals)

    def _individual_result(self, reason, domino_seat, totals) -> RoundResult:
        if domino_seat is not None:  # D5
            points = sum(totals) - totals[domino_seat]
            return RoundResult(reason, domino_seat, points, totals)
        lowest = min(totals)  # D6
        tied = [s for s in range(self.seats) if totals[s] == lowest]
        tie_break = None
        winner = tied[0]
        if len(tied) > 1:  # D7
            winner, tie_break = self._most_recent_placer(tied)
        points = sum(totals) - totals[winner] - totals[winner]
        return RoundResult(reason, winner, points, totals, tie_break)

    def _most_recent_placer(self, tied: list[int]) -> tuple[int, str]:
        for event in reversed(self.events):
            if event["action"] == "play" and event["seat"] in tied:
                return event["seat"], "last_placer"
        by_turn = sorted(tied, key=lambda s: (s - self.opener) % self.seats)
        return by_turn[0], "turn_order"

    # -- persistence -----------------------------------------------------------

    def to_dict(self) -> dict:
        """The round as in a match record (domino-match/1); result and ends once it is over."""
        data = {"number": self.number, "opener": self.opener,
                "hands": [tiles_text(h) for h in self.dealt_hands],
                "boneyard": tiles_text(self.dealt_boneyard),
                "events": [dict(e) for e in self.events]}
        if self.result is not None:
            data["ends"] = [self.left, self.right]
            data["result"] = self.result.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: dict, variant: Variant | str, previous_opener: int | None = None) -> Round:
        """Rebuild a round by replaying its events; any broken rule raises a GameError."""
        if isinstance(variant, str):
            variant = get_variant(variant)
        hands = [parse_tiles(h) for h in data["hands"]]
        rnd = cls(variant, hands, parse_tiles(data["boneyard"]), data["number"], previous_opener)
        if data.get("opener", rnd.opener) != rnd.opener:
            raise IllegalMove(f"Seat {rnd.opener} opens this round, not seat {data['opener']}.")
        for event in data["events"]:
            rnd.apply_event(event)
        return rnd

    def apply_event(self, event: dict) -> None:
        """Apply one recorded event; an automatic one must be what S3 would have done."""
        seat, action, auto = event["seat"], event["action"], bool(event.get("auto", False))
        if auto and action != "draw":
            expected = self._automatic_choice(seat)
            if _event_key(event) != expected:
                raise IllegalMove(f"Event {event} is marked automatic but S3 would do {expected}.")
        if action == "play":
            self.play(seat, Tile.parse(event["tile"]), event.get("end"), auto)
        elif action == "pass":
            if "ends" in event and event["ends"] != [self.left, self.right]:
                raise IllegalMove(f"The ends were {[self.left, self.right]}, not {event['ends']} (T7).")
            self.pass_turn(seat, auto)
        elif action == "draw":
            self._check_draw(seat)  # checked in full before the boneyard changes
            if event.get("tile") != self.boneyard[0].text:
                raise IllegalMove(f"The boneyard gives {self.boneyard[0]}, not {event.get('tile')}.")
            self.draw(seat, auto)
        else:
            raise BadInput(f"Unknown action {action!r}.")

    def _automatic_choice(self, seat: int) -> tuple:
        moves = self.playable(seat)
        if moves:
            return ("play", moves[0][0].text, moves[0][1])
        return ("pass",)


def _event_key(event: dict) -> tuple:
    if event["action"] == "play":
        return ("play", event.get("tile"), event.get("end"))
    return (event["action"],)


def _hand_order(tile: Tile) -> tuple[int, int]:
    return (tile.low, tile.high)


def _partnership_result(reason, domino_seat, totals, last_placer) -> RoundResult:
    """P6 on a domino; P7 and its tie rule P8 when blocked."""
    team_totals = (totals[0] + totals[2], totals[1] + totals[3])
    if domino_seat is not None:
        team = domino_seat % 2
        return RoundResult(reason, team, team_totals[1 - team], totals)
    if team_totals[0] != team_totals[1]:
        team = 0 if team_totals[0] < team_totals[1] else 1
        return RoundResult(reason, team, team_totals[1 - team], totals)
    team = last_placer % 2
    return RoundResult(reason, team, team_totals[1 - team], totals, "last_placer")
