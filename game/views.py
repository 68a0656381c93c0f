"""What one seat, or a spectator, may see: the only input to templates.

Before a round ends a view holds the viewer's own hand and nothing of any other hand or of
the boneyard but their sizes; at round end every hand is shown (T9). The boneyard's contents
are never in a view.
"""

from __future__ import annotations

from .match import Match
from .rules import Round
from .tiles import hand_points

LOG_SHOWN = 8  # moves listed in a view's log (the latest)


def seat_view(match: Match, seat: int | None) -> dict:
    """Everything `seat` may see of `match`; seat None is a spectator."""
    rnd = match.round
    revealed = rnd is not None and rnd.over
    players = [_player(match, rnd, s, revealed or s == seat) for s in range(match.seats)]
    return {
        "variant": match.variant.name, "title": match.variant.title, "seats": match.seats,
        "target": match.target, "teams": match.variant.teams, "you": seat,
        "players": players, "sides": _sides(match), "round": _round(match, rnd, seat),
        "hand": _hand(rnd, seat) if rnd is not None and seat is not None else [],
        "can": _can(match, rnd, seat), "match_over": match.over, "winner": match.winner,
        "winner_name": _side_name(match, match.winner) if match.over else None,
    }


def player_panel(match: Match, seat: int | None) -> dict:
    """The part of a seat's view that differs from everyone else's: its hand and its moves."""
    rnd = match.round
    return {"you": seat, "hand": _hand(rnd, seat) if rnd is not None and seat is not None else [],
            "can": _can(match, rnd, seat)}


def spectator_view(match: Match) -> dict:
    """What a visitor without a seat sees: no hand at all before the round ends."""
    return seat_view(match, None)


def _player(match: Match, rnd: Round | None, seat: int, show_hand: bool) -> dict:
    hand = rnd.hands[seat] if rnd is not None else []
    player = {"seat": seat, "name": match.players[seat], "side": match.side_of(seat),
              "tiles": len(hand), "missing": rnd.known_missing(seat) if rnd else [],
              "is_turn": rnd is not None and not rnd.over and rnd.turn == seat}
    if show_hand and rnd is not None and rnd.over:
        player["hand"] = [t.text for t in hand]
        player["points"] = hand_points(hand)
    return player


def _hand(rnd: Round, seat: int) -> list[dict]:
    my_turn = not rnd.over and rnd.turn == seat
    return [{"tile": t.text, "low": t.low, "high": t.high,
             "ends": [e or "any" for e in rnd.ends_for(t)] if my_turn else []}
            for t in rnd.hands[seat]]


def _can(match: Match, rnd: Round | None, seat: int | None) -> dict:
    my_turn = (seat is not None and rnd is not None and not rnd.over and not match.over
               and rnd.turn == seat)
    return {"act": my_turn,
            "play": my_turn and rnd.can_place(seat),
            "draw": my_turn and rnd.must_draw(seat),
            "pass": my_turn and rnd.must_pass(seat)}


def _round(match: Match, rnd: Round | None, seat: int | None) -> dict | None:
    if rnd is None:
        return None
    return {"number": rnd.number, "opener": rnd.opener, "turn": None if rnd.over else rnd.turn,
            "line": [list(pair) for pair in rnd.line],
            "ends": None if rnd.left is None else [rnd.left, rnd.right],
            "opening_tile": rnd.opening_tile.text if rnd.opening_tile and rnd.left is None else None,
            "boneyard": len(rnd.boneyard), "draws": match.variant.draws, "over": rnd.over,
            # The page lists the latest moves only: copying every event at each push grew with the round.
            "log": [_public_event(e, seat) for e in rnd.events[-LOG_SHOWN:]], "moves": len(rnd.events),
            "result": _result(match, rnd) if rnd.over else None}


def _public_event(event: dict, seat: int | None) -> dict:
    """A drawn tile is known only to the drawer until the round ends."""
    if event["action"] == "draw" and event["seat"] != seat:
        return {"seat": event["seat"], "action": "draw", "auto": event["auto"]}
    return dict(event)


def _sides(match: Match) -> list[dict]:
    scores = match.scores
    return [{"side": side, "name": _side_name(match, side), "score": score}
            for side, score in enumerate(scores)]


def _side_name(match: Match, side: int) -> str:
    if match.variant.teams:
        a, b = match.players[side], match.players[side + 2]
        return f"{a} & {b}"
    return match.players[side]


def _result(match: Match, rnd: Round) -> dict:
    """The round's result with a sentence that explains it."""
    result = rnd.result
    names = match.players
    winner = _side_name(match, result.winner)
    if result.reason == "domino":
        domino_seat = rnd.last_placer
        text = f"{names[domino_seat]} placed their last tile: {winner} score{_s(match)} {result.points}."
    elif match.variant.teams:
        hands = result.hand_totals
        totals = [hands[0] + hands[2], hands[1] + hands[3]]
        text = (f"Blocked: nobody could place. Hands add up to {totals[0]} ({_side_name(match, 0)}) "
                f"and {totals[1]} ({_side_name(match, 1)}). ")
        if result.tie_break:
            text += f"A tie, so the team that placed the last tile, {winner}, scores {result.points}."
        else:
            text += f"{winner} have fewer and score {result.points}."
    else:
        text = f"Blocked: nobody could place. {winner} has the lowest hand "
        text += f"({result.hand_totals[result.winner]})"
        if result.tie_break == "last_placer":
            text += ", tied, and placed a tile most recently"
        elif result.tie_break == "turn_order":
            text += ", tied, and comes first in turn order"
        text += f", and scores {result.points}."
    return {"reason": result.reason, "winner": result.winner, "winner_name": winner,
            "points": result.points, "hand_totals": list(result.hand_totals),
            "tie_break": result.tie_break, "text": text}


def _s(match: Match) -> str:
    return "" if match.variant.teams else "s"
