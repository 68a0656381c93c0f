"""Table talk's words and rules: the set phrases and reactions, free chat, who may say what and when (the
host's chat rule), and a message as a table keeps it (its last KEPT, stored with it: live/talk.py).

Partnership's house rule: nobody tells a partner their tiles during a round. Phrases and reactions are
fixed words (never made from a hand) and always allowed; free text follows the host's rule, and a
spectator's during a round reaches spectators only (no advice to a player mid-round).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from game.errors import BadInput, GameError

from .table import CHAT_RULES, has_control

# Ids, not words: each viewer reads a phrase in their own language (web/push/talk.py words them).
PHRASES = ("hello", "good_move", "well_played_partner", "bad_luck", "thanks", "sorry", "wow", "hurry",
           "back", "go_soon", "one_more", "good_game")
TEAM_PHRASES = ("well_played_partner",)  # only where there are partners
REACTIONS = ("thumbs_up", "clap", "laugh", "wow", "ouch", "heart")
TEXT_MAX = 200  # characters of free chat
KEPT = 50  # messages a table keeps (memory and store)


class TalkRefused(GameError):
    """A message the table does not take: `why` says why, and templates/_refusals.html words it."""

    code = "talk"

    def __init__(self, why: str, **facts):
        super().__init__(why, why, **facts)


@dataclass(frozen=True, slots=True)
class Said:
    """One message at a table: a phrase's or reaction's id, a chat's text, or the host's new chat rule."""

    seq: int  # numbers the table's messages, from 1
    at: float
    seat: int | None  # None: a spectator
    name: str  # the seat's name when it was said ("" for a spectator)
    kind: str  # phrase, reaction, chat or rule
    body: str
    lang: str  # the language the sender's page was in: a chat's words are in it, most likely
    spectators_only: bool = False  # a spectator's, during a round: spectators read it, players never

    def row(self, table_id: str) -> dict:
        """The message as the store keeps it."""
        return {"table_id": table_id, "seq": self.seq, "at": self.at, "seat": self.seat, "name": self.name,
                "kind": self.kind, "body": self.body, "lang": self.lang,
                "spectators": int(self.spectators_only)}


def check_rule(rule) -> str:
    """A chat rule the host may choose, or BadInput."""
    if rule not in CHAT_RULES:
        raise BadInput("Choose when the table may chat: always, between rounds, or never.", "chat_rule")
    return rule


def clean_text(text) -> str:
    """A chat message: 1-200 characters after trimming, one line, no control characters."""
    if not isinstance(text, str) or not text.strip():
        raise TalkRefused("talk_empty")
    text = unicodedata.normalize("NFC", text.strip())
    if len(text) > TEXT_MAX:
        raise TalkRefused("talk_long", max=TEXT_MAX)
    if has_control(text):  # as a name: a newline neither (a message is one line)
        raise TalkRefused("talk_control")
    return text


def check_said(table, seat: int | None, kind: str, body) -> tuple[str, bool]:
    """What `seat` (None: a spectator) may say now: the body as kept, and whether spectators alone read it."""
    playing = table.phase == "playing"
    if kind == "phrase":
        if body not in PHRASES or (body in TEAM_PHRASES and not table.variant.teams):
            raise TalkRefused("talk_unknown")
    elif kind == "reaction":
        if seat is None:
            raise TalkRefused("talk_react")
        if body not in REACTIONS:
            raise TalkRefused("talk_unknown")
    elif kind == "chat":
        body = clean_text(body)
        if table.chat == "off":
            raise TalkRefused("chat_off")
        if seat is not None and playing and table.chat == "rounds":
            raise TalkRefused("chat_rounds")
    else:
        raise TalkRefused("talk_unknown")
    return body, seat is None and playing


def said_from(row: dict) -> Said:
    """A stored message (Store.talk) as kept in memory."""
    return Said(row["seq"], row["at"], row["seat"], row["name"], row["kind"], row["body"], row["lang"],
                bool(row["spectators"]))
