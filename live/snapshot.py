"""A table as the web layer reads it: a frozen snapshot made under the table's lock, never the Table.

Every push (Changes._publish) and every page's read (Changes.snapshot) gets one. The web reads the
match only through the engine's views (game/views.py), while the lock is still held.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.match import Match
from game.variants import Variant

from .said import PHRASES, REACTIONS, TEAM_PHRASES, TEXT_MAX, Said
from .table import CHAT_RULES, HANDOVER_PHASES, NAME_FIELD_MAX, Table

# NAME_FIELD_MAX: the forms a push renders carry it; table talk's ids and limits and its messages (Said):
# the talk panel offers them and a push shows them (web/push/talk.py).
__all__ = ["CHAT_RULES", "NAME_FIELD_MAX", "PHRASES", "REACTIONS", "TEAM_PHRASES", "TEXT_MAX", "Said",
           "Snapshot", "snapshot"]


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What a page may be shown of one table at one version, and who holds which seat."""

    id: str
    version: int
    seats: int
    target: int
    variant: Variant
    match_no: int
    earlier: tuple[dict, ...]  # earlier matches' numbers and results
    phase: str  # waiting, playing, pause or over (Table.phase)
    players: tuple[str, ...]
    holders: tuple[str, ...]  # each seat's secret, hashed: a page whose seat changed hands is cut off
    present: tuple[bool, ...]  # per seat: shown as here (a page open, or a reload within the settle)
    free: tuple[int, ...]  # seats that may be handed over: gone, not the host's, not reseated since the deal
    asks: tuple[tuple[str, str, str], ...]  # spectators asking for a seat: (id shown, name, secret hash)
    handover_open: bool  # seats change hands now (between rounds)
    now: float  # when it was taken: the clocks shown count from it
    due: float | None  # the running turn's or pause's end, as the players see it
    turn_seconds: float  # a full turn: the countdown bar's length
    cut_to: int  # the seconds a turn was cut to, its seat having been away (S4); else 0
    host_away: bool  # the host is disconnected (S4)
    acting_host: int | None  # T13: the seat holding the host's choices, or None
    chat: str  # when free chat is allowed (live/table.py CHAT_RULES)
    talk: tuple  # the table's last messages (live/said.py Said), oldest first
    match: Match | None  # for game/views.py only, read while the table's lock is held


def snapshot(table: Table, now: float) -> Snapshot:
    """`table` as the web layer may read it; taken under its lock."""
    present = tuple(table.present(seat, now) for seat in range(len(table.players)))
    cut_to = max(1, round(table.clock.timing.offline)) if table.clock.cut_short() else 0
    return Snapshot(
        id=table.id, version=table.version, seats=table.seats, target=table.target, variant=table.variant,
        match_no=table.match_no, earlier=tuple(table.earlier), phase=table.phase,
        players=tuple(table.players), holders=tuple(table.secret_hashes), present=present,
        free=tuple(s for s in range(1, len(present)) if not present[s] and not table.reseated(s)),
        asks=tuple((key, ask.name, ask.secret_hash) for key, ask in table.asks.items()),
        handover_open=table.phase in HANDOVER_PHASES, now=now, due=table.ends_at(now),
        turn_seconds=table.clock.timing.turn, cut_to=cut_to, host_away=table.away(0, now),
        acting_host=table.acting_host(now), chat=table.chat, talk=table.talk, match=table.match)
