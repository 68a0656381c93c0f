"""A round replayed move by move: the position after each of its events, every hand open (T9).

Only for a round that is over (a table's replay page) or a record a visitor brought: the positions
show every hand, which no page may show while the round is played; the boneyard only by its size (D1).
Pure: rebuilt from the round's deal and events with the engine itself (game/rules.py).
"""

from __future__ import annotations

from .errors import BadRecord, GameError
from .match import Match
from .record import FORMAT, _record_key, load_match, replay_event
from .rules import Round
from .tiles import hand_points
from .views import round_result, shown_names, unseen_counts, variant_facts


def replayed(match: Match, number: int, moves: int) -> Round:
    """Round `number` of `match` (from 1) as it stood after its first `moves` events, dealt afresh."""
    done = match.rounds[number - 1]
    previous = match.rounds[number - 2].opener if number > 1 else None
    rnd = Round(match.variant, done.dealt_hands, done.dealt_boneyard, done.number, previous)
    for event in done.events[:moves]:
        rnd.apply(event)
    return rnd


def position(match: Match, number: int, moves: int) -> dict:
    """What a replay shows after `moves` events of round `number` (clamped to 0..all): the line, each
    seat's hand and passes, the boneyard's size, whose turn, and the unseen counts as the
    seat to move saw them."""
    done = match.rounds[number - 1]
    total = len(done.events)
    moves = max(0, min(moves, total))
    rnd = replayed(match, number, moves)
    names = shown_names(tuple(match.players_of(done)))
    turn = None if rnd.over else rnd.turn
    left, last = _sides_of_line(rnd)
    return {
        "number": number, "rounds": len(match.rounds), "at": moves, "total": total,
        "variant": variant_facts(match.variant, match.seats), "opener": rnd.opener,
        "line": [list(pair) for pair in rnd.line], "left": left, "last": last,
        "ends": None if rnd.left is None else [rnd.left, rnd.right],
        "boneyard": len(rnd.boneyard), "turn": turn,  # its tiles stay face down (D1), even after
        "seats": [{"seat": seat, "name": names[seat], "side": match.side_of(seat),
                   "hand": [tile.text for tile in rnd.hands[seat]], "points": hand_points(rnd.hands[seat]),
                   "missing": rnd.known_missing(seat), "is_turn": seat == turn}
                  for seat in range(match.seats)],
        "unseen": unseen_counts(rnd, turn) if turn is not None else None,
        "event": moves_of(match, number)[moves - 1] if moves else None,
        "over": rnd.over, "result": round_result(match, rnd), "players": names,
    }


def moves_of(match: Match, number: int) -> list[dict]:
    """Every event of round `number` in record form, numbered from 1, with its seat's name."""
    done = match.rounds[number - 1]
    names = shown_names(tuple(match.players_of(done)))
    return [{**event.to_dict(), "n": n, "name": names[event.seat],
             "ends": list(event.ends) if event.ends else None}
            for n, event in enumerate(done.events, start=1)]


def _sides_of_line(rnd: Round) -> tuple[int, int | None]:
    """How many tiles lie left of the opening tile, and the line index of the latest placed."""
    if not rnd.line:
        return 0, None
    return rnd.placed_left, len(rnd.line) - 1 if rnd.last_end == "right" else 0


# -- a record brought from elsewhere: where it first goes wrong -------------------------------------

def fault(data) -> dict:
    """Where a record that load_match refuses first goes wrong, as facts the web layer words:
    {"kind": "format" | "shape" | "deal" | "event" | "auto" | "drawn" | "result" | "scores", "round",
    "move", "seat", "error" (a GameError, for "event"), "tile", "written"}. Called after load_match
    refused it; load_match stays the judge, this only points at the first event it trips on."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return {"kind": "format"}
    rounds = data.get("rounds")
    if not isinstance(rounds, list):
        return {"kind": "shape"}
    head = {key: value for key, value in data.items() if key not in ("scores", "winner", "rounds")}
    if not _loads(head, rounds, 0):
        return {"kind": "shape"}
    if _loads(head, rounds, len(rounds)):
        return {"kind": "scores"}
    good, bad = 0, len(rounds)  # the first `good` rounds load, the first `bad` do not: halve the gap
    while bad - good > 1:
        middle = (good + bad) // 2
        good, bad = (middle, bad) if _loads(head, rounds, middle) else (good, middle)
    return _fault_in_round(head, rounds, bad)


def _loads(head: dict, rounds: list, count: int) -> bool:
    """Whether the record's first `count` rounds load (its scores and winner left aside)."""
    try:
        load_match({**head, "rounds": rounds[:count]})
    except BadRecord:
        return False
    return True


def _fault_in_round(head: dict, rounds: list, number: int) -> dict:
    """The first wrong thing in round `number`, the rounds before it being right."""
    round_data = rounds[number - 1]
    at = {"round": number}
    if not isinstance(round_data, dict) or not isinstance(round_data.get("events"), list):
        return {"kind": "shape", **at}
    bare = {key: value for key, value in round_data.items() if key not in ("events", "result", "ends")}
    try:
        match = load_match({**head, "rounds": [*rounds[:number - 1], {**bare, "events": []}]})
    except BadRecord:
        return {"kind": "deal", **at}
    rnd = match.rounds[-1]
    for move, event in enumerate(round_data["events"], start=1):
        found = _fault_in_event(rnd, event)
        if found is not None:
            return {**found, **at, "move": move}
    return {"kind": "result", **at}


def _fault_in_event(rnd: Round, event) -> dict | None:
    """What is wrong with one event in record form at `rnd` (then applied), or None: nothing."""
    try:
        seat = event["seat"]
        if event.get("auto") and event.get("action") != "draw" and not rnd.over and seat == rnd.turn:
            expected = rnd.check_auto(seat)[0]
            if (event.get("action"), event.get("tile"), event.get("end")) != _record_key(expected):
                tile = expected.tile.text if expected.tile is not None else None
                return {"kind": "auto", "seat": seat, "action": expected.action, "tile": tile}
        if event.get("action") == "draw" and not rnd.over and seat == rnd.turn and rnd.boneyard \
                and rnd.must_draw(seat) and event.get("tile") != rnd.boneyard[0].text:
            return {"kind": "drawn", "seat": seat, "tile": rnd.boneyard[0].text,
                    "written": str(event.get("tile"))}
        replay_event(rnd, event)
    except GameError as error:
        return {"kind": "event", "seat": event.get("seat"), "error": error}
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return {"kind": "event", "seat": None, "error": None}
    return None
