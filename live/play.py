"""Play: a player's action (play, pass, draw, the next round) and the clock's moves (S3, T10)."""

from __future__ import annotations

from game.errors import BadInput, GameError, NotYourTurn
from game.match import Match
from game.record import export_match
from game.tiles import Tile

from .change import Change
from .presence import Presence
from .records import finished_facts, listed
from .table import NotHost, Table

MOVES = ("play", "pass", "draw")


class Play(Presence):
    """Moves, whoever makes them: a player, or the clock (which first notices who is gone: Presence)."""

    def act(self, table: Table, seat: int | None, kind: str, version, tile: str | None = None,
            end: str | None = None) -> None:
        """A player's action (play, pass, draw, next_round), checked, committed and published."""
        if seat is None:
            raise NotYourTurn("Only a seated player can do that.", "not_seated")
        with self.locked(table) as table:
            self._check_version(table, version)
            now = self.now()
            if kind == "next_round":  # T13: the host, or while the host is gone the acting host only
                if not self.acts_as_host(table, seat):
                    raise NotHost("Only the host, or while the host is away the acting host, can start "
                                  "the next round.", "host_next")
                change = self._next_round(table, {"kind": kind, "seat": seat, "at": now})
            else:
                if table.match is None:
                    raise GameError("The match starts once every seat is taken.", "not_started")
                if kind not in MOVES:
                    raise BadInput(f"Unknown action {kind!r}.", "unknown_action")
                # The engine checks the end; "" is the opening tile's (none).
                event = table.match.check(seat, kind, Tile.parse(tile or "") if kind == "play" else None,
                                          end or None)
                detail = {"kind": kind, "seat": seat, "tile": tile, "end": end, "at": now}
                change = self._move(table, [event], detail)
            self._commit(change)

    def expire(self, table_id: str, version: int | None = None) -> bool:
        """The clock's move (S3, T10) if the table is due; True if something was applied."""
        table = self.get(table_id)
        if table is None:
            return False
        with self.locked(table) as table:
            now = self.now()
            self._notice(table, now)
            ends = table.ends_at(now)
            if ends is None or ends > now or (version is not None and version != table.version):
                self.schedule(table.id, table.due_at())
                return False
            if table.phase == "playing":
                seat = table.turn
                change = self._move(table, table.match.check_auto(seat), {"kind": "timeout", "seat": seat,
                                                                            "at": now})
            else:
                change = self._next_round(table, {"kind": "next_round", "seat": None, "at": now})
            self._commit(change)
        return True

    def _move(self, table: Table, events: list, detail: dict) -> Change:
        """A checked move's change: its events, and the clock for what follows (S3, T10)."""
        change = Change(table, detail, events=events)
        phase, now = table.match.phase_after(events), detail["at"]
        if phase == "playing":
            turn = table.match.turn_after(events)
            if turn != detail["seat"]:  # a draw keeps the turn, and its clock
                change.clock.start_turn(turn, now)
        elif phase == "pause":
            change.clock.start_pause(now)
        else:
            change.clock.stop()
        return change

    def _next_round(self, table: Table, detail: dict) -> Change:
        """T10: the next round (host early, or the clock); after a match, a new one, same seats."""
        phase = table.phase
        change = Change(table, detail)
        if phase == "pause":
            change.new_round = table.match.deal_next(self.rng)
        elif phase == "over":
            change.finished = number, record = table.match_no, export_match(table.match)
            change.finished_listed = listed(table, number, finished_facts(record))
            change.match_no += 1
            change.match = Match(table.variant, table.seats, table.target, table.players)
            change.new_round = change.match.deal_next(self.rng)
        else:
            raise GameError("The next round can start only once this one is over.", "not_over")
        change.clock.start_turn(change.new_round.turn, detail["at"])
        return change
