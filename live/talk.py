"""Table talk, the part of Tables that takes what is said at a table and the host's chat rule (the words and
rules: live/said.py)."""

from __future__ import annotations

import logging

from .change import Changes
from .said import KEPT, Said, TalkRefused, check_rule, check_said
from .store import TableGone
from .table import NotHost, Table

log = logging.getLogger(__name__)


class Talking(Changes):
    """What is said at a table, and the host's chat rule (the third part of Tables)."""

    def say(self, table: Table, seat: int | None, kind: str, body, lang: str) -> Said:
        """A message from `seat` (None: a spectator): checked, stored, kept and shown (the `heard` hook)."""
        with self.locked(table) as table:
            body, spectators_only = check_said(table, seat, kind, body)
            return self._said(table, seat, kind, body, lang, spectators_only)

    def set_chat(self, table: Table, seat: int | None, rule, lang: str) -> Said:
        """The host (T13: or who stands in) sets when the table may chat, between rounds: said to all."""
        with self.locked(table) as table:
            rule = check_rule(rule)
            if seat is None or not self.acts_as_host(table, seat):
                raise NotHost("Only the host, or while the host is away the acting host, sets the chat.",
                              "host_chat")
            if table.phase == "playing":
                raise TalkRefused("rule_in_round")
            return self._said(table, seat, "rule", rule, lang, False)

    def _said(self, table: Table, seat: int | None, kind: str, body: str, lang: str,
              spectators_only: bool) -> Said:
        """Durable first (a new rule with its message, in one transaction), then kept and shown; never a
        version: a message makes no move stale."""
        name = table.players[seat] if seat is not None else ""
        said = Said(table.talk_seq + 1, self.now(), seat, name, kind, body, lang, spectators_only)
        rule = body if kind == "rule" else None
        try:
            self.store.say(said.row(table.id), KEPT, rule)
        except TableGone:  # purged while held: it leaves memory and its pages are told, as for a move
            self.forget(table)
            raise
        if rule is not None:
            table.chat = rule
        table.talk = (*table.talk[1 - KEPT:], said)  # a new tuple: snapshots share it, never copy it
        table.talk_seq = said.seq
        try:
            self.heard(table.id, said)
        except Exception:  # as a change's push: a failure to show never loses what was stored
            log.exception("showing a message at table %s failed", table.id)
        return said

