"""A table's match records: the current one, the earlier ones (kept, or replayed), the score sheet's lines."""

from __future__ import annotations

import logging

from game.match import Match
from game.record import export_match, load_match
from game.views import match_result

from .store import Store
from .table import Table

log = logging.getLogger(__name__)


def current_record(table: Table) -> dict:
    """The record of the table's current match as it stands (a valid one before it starts too)."""
    match = table.match
    if match is None:  # still a valid record: "" names a seat nobody has taken yet
        match = Match(table.variant, table.seats, table.target,
                      table.players + [""] * (table.seats - len(table.players)))
    return export_match(match)


def earlier_record(store: Store, table: Table, match_no: int, players: list[str] | None = None) -> dict:
    """The record of an earlier match: as kept when it ended, or, for a match that ended before the
    store kept them (schema 4), replayed from its rounds."""
    kept = store.finished_match(table.id, match_no)
    if kept is not None:
        return kept
    rounds = store.rounds(table.id, match_no)
    return export_match(load_match({"format": "domino-match/1", "variant": table.variant.name,
                                    "seats": table.seats, "target": table.target,
                                    "players": players or list(table.players), "rounds": rounds}))


def earlier_results(store: Store, table: Table) -> list[dict]:
    """Each earlier match's result, for the score sheet. One that cannot be read (a match from
    before schema 4 whose rounds no longer replay, or replay unfinished) is left out and logged:
    it never keeps the table from loading."""
    try:
        kept = store.finished_results(table.id)
    except Exception:  # a kept record that cannot be read: each match is read whole instead
        log.exception("table %s: the earlier matches' results cannot be read", table.id)
        kept = {}
    results = []
    for number in range(1, table.match_no):
        try:
            facts = kept.get(number) or finished_facts(earlier_record(store, table, number))
            results.append(listed(table, number, facts))
        except Exception:
            log.exception("table %s: match %s cannot be listed", table.id, number)
    return results


def listed(table: Table, number: int, facts: tuple[list, int | None, list]) -> dict:
    """Match `number` of the table as its score sheet lists it, from `finished_facts`."""
    scores, winner, players = facts
    if winner is None:  # replayed unfinished: a round of it is missing
        raise ValueError(f"match {number} has no winner")
    return {"number": number, **match_result(table.variant, scores, winner, tuple(players))}


def finished_facts(record: dict) -> tuple[list, int | None, list]:
    """A finished match's scores, winner and players (its last round's, else the match's), from its record."""
    rounds = record["rounds"]
    players = (rounds[-1].get("players") if rounds else None) or record["players"]
    return record["scores"], record["winner"], players
