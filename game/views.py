"""What one seat, or a spectator, may see: the only input to templates.

Before a round ends a view holds the viewer's own hand and nothing of any other hand or of
the boneyard but their sizes; at round end every hand is shown (T9). The boneyard's contents
are never in a view. Variants differ only through the facts their Variant gives.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from .match import Match
from .rules import Event, Round
from .tiles import hand_points
from .variants import DEFAULT_VARIANT, VARIANTS, Variant

LOG_SHOWN = 8  # moves listed in a view's log (the latest)
RIGHT_TO_LEFT = ("R", "AL")  # Hebrew, Arabic, ... (Unicode bidirectional classes)


@lru_cache(maxsize=4096)
def shown_name(name: str) -> str:
    """A player's name as a page shows it inside a sentence: one with right-to-left letters is set
    apart (first strong isolate ... pop directional isolate), so that it does not reorder the words
    and numbers around it ("Round 7 to Miriam: +17" read "Round 7 to 17+ :Miriam")."""
    if any(unicodedata.bidirectional(c) in RIGHT_TO_LEFT for c in name):
        return f"\u2068{name}\u2069"
    return name


@lru_cache(maxsize=1024)
def shown_names(players: tuple[str, ...]) -> list[str]:
    """`shown_name` of each (kept: every push shows a table's names, which rarely change). Read only."""
    return [shown_name(name) for name in players]


@lru_cache(maxsize=64)
def variant_facts(variant: Variant, seats: int) -> dict:
    """What templates may know of a variant played at `seats` seats: plain facts, no rules.

    Kept (a few variants, a few seat counts): every push shows them. Read, never changed.

    draws: a seat that cannot place draws (the boneyard's size is worth showing);
    doubles_across: doubles are drawn across the line; teams: a side is a team (its name takes
    a plural verb, its seats a badge); seat_sides: each seat's side. Its name and line in words: the
    variant's own (game/variants.py), which the web layer translates.
    """
    return {"name": variant.name, "seats": seats, "draws": variant.draws,
            "doubles_across": variant.doubles_across, "teams": variant.teams,
            "seat_sides": [variant.side_of(seat) for seat in range(seats)]}


def variant_menu() -> list[dict]:
    """The create form's choices: name, seat choices, default seats, default (its words: the variant's)."""
    return [{"name": v.name, "seat_choices": list(v.seat_choices), "default_seats": v.default_seats,
             "default": v.name == DEFAULT_VARIANT} for v in VARIANTS.values()]


def seat_view(match: Match, seat: int | None) -> dict:
    """Everything `seat` may see of `match`; seat None is a spectator."""
    rnd = match.round
    revealed = rnd is not None and rnd.over
    players = [_player(match, rnd, s, revealed or s == seat) for s in range(match.seats)]
    return {
        "variant": variant_facts(match.variant, match.seats), "seats": match.seats, "target": match.target,
        "you": seat, "players": players, "sides": _sides(match), "round": _round(match, rnd, seat),
        "hand": _hand(rnd, seat) if rnd is not None and seat is not None else [],
        "can": _can(match, rnd, seat), "match_over": match.over, "winner": match.winner,
        "winner_name": _side_name(match, match.winner) if match.over else None,
        "sheet": score_sheet(match),
    }


def player_panel(match: Match, seat: int | None) -> dict:
    """What differs from one viewer to the next: the hand, the moves, the tiles not yet seen."""
    rnd = match.round
    seated = rnd is not None and seat is not None
    hand = _hand(rnd, seat) if seated else []
    return {"you": seat, "hand": hand, "fitting": sum(1 for tile in hand if tile["ends"]),
            "can": _can(match, rnd, seat), "unseen": unseen_counts(rnd, seat),
            "timed_out": timed_out(rnd, seat) if seated else 0,
            "drew": just_drew(rnd, seat) if seated else None,
            "mine": own_latest(rnd, seat) if seated else None}


def timed_out(rnd: Round, seat: int) -> int:
    """How many of `seat`'s latest turns of the round in a row the table made, its time having run
    out (S3, S4); 0 if it made its latest move itself (or has not moved)."""
    turns, previous = 0, None
    for event in reversed(rnd.events):  # a turn: the seat's events in a row (draws, then a play or a pass)
        if event.seat == seat:
            if not event.auto:
                break
            if previous != seat:
                turns += 1
        previous = event.seat
    return turns


def own_latest(rnd: Round, seat: int) -> dict | None:
    """`seat`'s latest play or pass of the round, with its number in the round (n), while its turn has
    not come again (then None, as before its first): its page says it in its own words."""
    if rnd.turn == seat and not rnd.over:
        return None
    for n in range(len(rnd.events), 0, -1):  # a few events back: every seat moves in turn
        event = rnd.events[n - 1]
        if event.seat == seat and event.action != "draw":
            return {**event.to_dict(), "n": n, "table_drew": table_drew(rnd, n)}
    return None


def table_drew(rnd: Round, n: int) -> int:
    """How many tiles the table drew just before move n, itself made when time ran out (S3, D3), for the
    same seat: all in one push, and said with it."""
    events, count = rnd.events, 0
    if not events[n - 1].auto:
        return 0
    while count < n - 1 and (before := events[n - 2 - count]).action == "draw" and before.auto \
            and before.seat == events[n - 1].seat:
        count += 1
    return count


def just_drew(rnd: Round, seat: int) -> str | None:
    """The tile `seat` drew with its latest move, while the turn is still its own (D3); else None."""
    if rnd.over or rnd.turn != seat or not rnd.events:
        return None
    last = rnd.events[-1]
    return last.tile.text if last.action == "draw" and last.seat == seat else None


def unseen_counts(rnd: Round | None, seat: int | None) -> list[int] | None:
    """For each number 0-6, how many of its seven tiles `seat` has not seen; None outside play.

    Seen are the tiles on the line and the viewer's own hand (a spectator: the line only);
    never another seat's hand, nor the boneyard, nor a tile another seat drew.
    """
    if rnd is None or rnd.over:
        return None
    counts = [7 - placed for placed in rnd.on_line]
    for tile in rnd.hands[seat] if seat is not None else ():
        counts[tile.low] -= 1
        if tile.high != tile.low:
            counts[tile.high] -= 1
    return counts


def score_sheet(match: Match) -> dict:
    """The paper pad: each finished round's points by side, with running totals after it."""
    totals = [0] * len(match.scores)
    rows = []
    for rnd in match.rounds:
        if rnd.result is None:
            continue
        result = rnd.result
        totals[result.winner] += result.points
        points = [result.points if side == result.winner else None for side in range(len(totals))]
        rows.append({"number": rnd.number, "reason": result.reason, "points": points,
                     "totals": list(totals)})
    return {"sides": [_side_name(match, side) for side in range(len(totals))], "rows": rows,
            "totals": list(match.scores), "target": match.target}


def at_a_glance(match: Match | None, seat: int) -> dict:
    """What a list of one's tables shows of one (the home page): whether it is `seat`'s turn, the sides'
    scores (none before the first deal), and whether the match is over."""
    if match is None:
        return {"your_turn": False, "sides": [], "over": False}
    return {"your_turn": _can(match, match.round, seat)["act"], "sides": _sides(match), "over": match.over}


def spectator_view(match: Match) -> dict:
    """What a visitor without a seat sees: no hand at all before the round ends."""
    return seat_view(match, None)


def round_view(match: Match, shown: int = LOG_SHOWN) -> dict | None:
    """The round as a spectator sees it (spectator_view's "round"), its log the latest `shown` moves:
    a push of one move in a round's play needs no more (web/push/publish.py)."""
    return _round(match, match.round, None, shown)


def player_view(match: Match, seat: int) -> dict:
    """What a spectator sees of `seat` (spectator_view's "players"[seat])."""
    rnd = match.round
    return _player(match, rnd, seat, rnd is not None and rnd.over)


def hand_sizes(rnd: Round) -> list[int]:
    """How many tiles each seat holds (what every viewer sees of the hands during play)."""
    return [len(hand) for hand in rnd.hands]


def shown_missing(rnd: Round) -> list[tuple[int, ...]]:
    """Per seat, the numbers it showed it lacks by passing (T7): what every viewer sees of it."""
    return [tuple(rnd.known_missing(seat)) for seat in range(len(rnd.hands))]


def own_hand(rnd: Round, seat: int) -> str:
    """`seat`'s tiles as one string ("6-4 3-3"), in the order shown: what its own #me hangs on."""
    return " ".join([tile.text for tile in rnd.hands[seat]])  # a list: join makes one of a generator


def _player(match: Match, rnd: Round | None, seat: int, show_hand: bool) -> dict:
    hand = rnd.hands[seat] if rnd is not None else []
    player = {"seat": seat, "name": shown_name(match.players[seat]), "side": match.side_of(seat),
              "tiles": len(hand), "missing": rnd.known_missing(seat) if rnd else [],
              "is_turn": rnd is not None and not rnd.over and rnd.turn == seat}
    if show_hand and rnd is not None and rnd.over:
        player["hand"] = [t.text for t in hand]
        player["points"] = hand_points(hand)
    return player


def _hand(rnd: Round, seat: int) -> list[dict]:
    """The seat's tiles in the order shown; on its turn, the ends each fits (None: it opens the line)."""
    my_turn = not rnd.over and rnd.turn == seat
    return [{"tile": t.text, "low": t.low, "high": t.high,
             "ends": list(rnd.ends_for(t)) if my_turn else []}
            for t in rnd.hands[seat]]


def _can(match: Match, rnd: Round | None, seat: int | None) -> dict:
    my_turn = (seat is not None and rnd is not None and not rnd.over and not match.over
               and rnd.turn == seat)
    return {"act": my_turn,
            "play": my_turn and rnd.can_place(seat),
            "draw": my_turn and rnd.must_draw(seat),
            "pass": my_turn and rnd.must_pass(seat)}


def _round(match: Match, rnd: Round | None, seat: int | None, shown: int = LOG_SHOWN) -> dict | None:
    if rnd is None:
        return None
    left, last = _sides_of_line(rnd)
    return {"number": rnd.number, "opener": rnd.opener, "turn": None if rnd.over else rnd.turn,
            "line": [list(pair) for pair in rnd.line], "left": left, "last": last,
            "fresh": bool(rnd.events) and rnd.events[-1].action == "play",
            "ends": None if rnd.left is None else [rnd.left, rnd.right],
            "opening_tile": rnd.opening_tile.text if rnd.opening_tile and rnd.left is None else None,
            "boneyard": len(rnd.boneyard), "draws": match.variant.draws, "over": rnd.over,
            # The page lists the latest moves only: copying every event at each push grew with the round.
            "log": [_public_event(e, seat) for e in rnd.events[-shown:]], "moves": len(rnd.events),
            "table_drew": table_drew(rnd, len(rnd.events)) if rnd.events else 0,
            # Who played the round (a seat may change hands before the next): its log and result name them.
            "players": shown_names(tuple(match.players_of(rnd))),
            "result": _result(match, rnd) if rnd.over else None}


def _sides_of_line(rnd: Round) -> tuple[int, int | None]:
    """How many tiles lie left of the opening tile, and the line index of the latest placed (None: none)."""
    if not rnd.line:
        return 0, None
    return rnd.placed_left, len(rnd.line) - 1 if rnd.last_end == "right" else 0


def _public_event(event: Event, seat: int | None) -> dict:
    """An event's record form; a drawn tile is named to its drawer only."""
    if event.action == "draw" and event.seat != seat:
        return {"seat": event.seat, "action": "draw", "auto": event.auto}
    return event.to_dict()


def _sides(match: Match) -> list[dict]:
    return [{"side": side, "name": _side_name(match, side), "score": score}
            for side, score in enumerate(match.scores)]


def _side_name(match: Match, side: int) -> str:
    return _named(match.variant, side, tuple(match.players))


@lru_cache(maxsize=4096)
def _named(variant: Variant, side: int, players: tuple[str, ...]) -> str:
    """A side's name as pages show it (kept: every push names every side; a table's names rarely change)."""
    return variant.side_name(side, shown_names(players))


def match_result(variant: Variant, scores: list[int], winner: int, players: tuple[str, ...]) -> dict:
    """A finished match's result as the score sheet lists it: each side's name (`players`: who played
    its last round) and final score, and the winning side."""
    sides = [{"side": side, "name": _named(variant, side, players), "score": score}
             for side, score in enumerate(scores)]
    return {"sides": sides, "winner": winner}


def round_result(match: Match, rnd: Round) -> dict | None:
    """How `rnd` (one of `match`'s rounds) ended, as templates/_result.html words it; None: in play."""
    return _result(match, rnd) if rnd.over else None


def _result(match: Match, rnd: Round) -> dict:
    """The round's result as facts: pages word it from them (templates/_result.html)."""
    result, players = rnd.result, tuple(match.players_of(rnd))
    sides = range(match.variant.side_count(match.seats))
    side_names = [_named(match.variant, side, players) for side in sides]
    side_totals = [0] * len(side_names)  # each side's points left in hand (a team's two hands summed)
    for seat, points in enumerate(result.hand_totals):
        side_totals[match.side_of(seat)] += points
    return {"reason": result.reason, "winner": result.winner, "winner_name": side_names[result.winner],
            "placer": rnd.last_placer, "side_names": side_names, "side_totals": side_totals,
            "points": result.points, "hand_totals": list(result.hand_totals),
            "tie_break": result.tie_break}
