"""The JSON match record (domino-match/1): export, load with full validation, replay."""

from __future__ import annotations

import json

from .errors import BadInput, BadRecord, GameError, IllegalMove
from .match import Match
from .rules import Event, Round
from .tiles import Tile, parse_tiles
from .variants import Variant

FORMAT = "domino-match/1"


def export_match(match: Match) -> dict:
    """The record of the finished rounds only (never a round in progress)."""
    return match.to_dict(include_current=False)


def dumps(record: dict) -> str:
    """One record as one line of compact JSON."""
    return json.dumps(record, separators=(",", ":"))


def load_match(data: dict) -> Match:
    """Replay a record through the engine; raise BadRecord where it breaks a rule."""
    try:
        return _replay(data)
    except BadRecord:
        raise
    except GameError as error:
        raise BadRecord(f"The record breaks a rule: {error}") from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        raise BadRecord(f"The record is malformed: {type(error).__name__} {error}") from None


def _replay(data: dict) -> Match:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadRecord(f"Not a {FORMAT} record.")
    if type(data["seats"]) is not int or type(data["target"]) is not int:
        raise BadRecord("The seats and the target must be whole numbers.")
    match = Match(data["variant"], data["seats"], data["target"], data["players"])
    players = data["players"]
    if not isinstance(players, list) or len(players) != match.seats \
            or not all(isinstance(p, str) for p in players):
        raise BadRecord("There must be one player name per seat.")
    if not isinstance(data["rounds"], list):
        raise BadRecord("The rounds must be a list.")
    for number, round_data in enumerate(data["rounds"], start=1):
        if not isinstance(round_data["events"], list):
            raise BadRecord("The events of a round must be a list.")
        if match.over:
            raise BadRecord("A round follows the end of the match.")
        if match.round is not None and not match.round.over:
            raise BadRecord("A round follows one that did not end.")
        if round_data["number"] != number:
            raise BadRecord(f"Round {round_data['number']} is out of order.")
        _check_deal(match, round_data)
        previous = match.round.opener if match.round else None
        rnd = load_round(round_data, match.variant, previous)
        _check_outcome(rnd, round_data)
        match.add_round(rnd, _round_players(match, round_data))
    if "scores" in data and data["scores"] != match.scores:
        raise BadRecord(f"The scores should be {match.scores}, not {data['scores']}.")
    if "winner" in data and data["winner"] != match.winner:
        raise BadRecord(f"The winner should be {match.winner}, not {data['winner']}.")
    return match


def _round_players(match: Match, round_data: dict) -> list[str] | None:
    """The names a round was played under (a seat may change hands between rounds); None: not
    recorded (a record made before they were), so the match's players."""
    players = round_data.get("players")
    if players is not None and (not isinstance(players, list) or len(players) != match.seats
                                or not all(isinstance(p, str) for p in players)):
        raise BadRecord(f"Round {round_data['number']} must name one player per seat.")
    return players


def _check_deal(match: Match, round_data: dict) -> None:
    """The hands and boneyard together hold the 28 tiles once each, in the right sizes."""
    hands = round_data["hands"]
    size = match.variant.hand_size(match.seats)
    if len(hands) != match.seats or any(len(h) != size for h in hands):
        raise BadRecord(f"Each of the {match.seats} seats is dealt {size} tiles.")
    tiles = [t for h in hands for t in h] + list(round_data["boneyard"])
    normal = {f"{min(a, b)}-{max(a, b)}" for a in range(7) for b in range(7)}
    if len(tiles) != 28 or set(tiles) != normal:
        raise BadRecord("A deal must hold each of the 28 tiles exactly once, written a-b with a <= b.")


def _check_outcome(rnd: Round, round_data: dict) -> None:
    """The recorded ends and result must be what the replay gives."""
    if "result" not in round_data:
        return
    if not rnd.over:
        raise BadRecord(f"Round {rnd.number} has a result but its events do not end it.")
    if round_data["result"] != rnd.result.to_dict():
        raise BadRecord(f"Round {rnd.number} should end {rnd.result.to_dict()}.")
    if round_data.get("ends") != [rnd.left, rnd.right]:
        raise BadRecord(f"Round {rnd.number} should end with ends {[rnd.left, rnd.right]}.")


def load_round(data: dict, variant: Variant, previous_opener: int | None = None) -> Round:
    """Rebuild a round from its record form, checking each event; a broken rule raises a GameError."""
    hands = [parse_tiles(h) for h in data["hands"]]
    rnd = Round(variant, hands, parse_tiles(data["boneyard"]), data["number"], previous_opener)
    if data.get("opener", rnd.opener) != rnd.opener:
        raise IllegalMove(f"Seat {rnd.opener} opens this round, not seat {data['opener']}.")
    for event in data["events"]:
        replay_event(rnd, event)
    return rnd


def replay_event(rnd: Round, data: dict) -> None:
    """Check one event in record form and apply it; an automatic one must be what S3 would do."""
    seat, action, auto = data["seat"], data["action"], bool(data.get("auto", False))
    if auto and action != "draw":  # a draw is forced anyway: nothing else to compare
        expected = rnd.check_auto(seat)[0]
        if (action, data.get("tile"), data.get("end")) != _record_key(expected):
            raise IllegalMove(f"Event {data} is marked automatic but S3 would do {expected.to_dict()}.")
    if action == "play":
        event = rnd.check(seat, "play", Tile.parse(data["tile"]), data.get("end"), auto)
    elif action == "pass":
        if "ends" in data and data["ends"] != [rnd.left, rnd.right]:
            raise IllegalMove(f"The ends were {[rnd.left, rnd.right]}, not {data['ends']} (T7).")
        event = rnd.check(seat, "pass", auto=auto)
    elif action == "draw":
        event = rnd.check(seat, "draw", auto=auto)
        if data.get("tile") != event.tile.text:
            raise IllegalMove(f"The boneyard gives {event.tile}, not {data.get('tile')}.")
    else:
        raise BadInput(f"Unknown action {action!r}.")
    rnd.apply(event)


def _record_key(event: Event) -> tuple:
    """(action, tile, end) as a record writes them; None where the action has none."""
    return (event.action, event.tile.text if event.action == "play" else None, event.end)
