"""What a page says over its websocket (a phrase, a reaction, a chat message, the host's chat rule): untrusted
like a move, held to a budget per seat, answered in the talk panel's own #talk-flash."""

from __future__ import annotations

import logging

from flask import render_template

from game.errors import GameError
from live.table import Table
from web.guard.budget import Budget
from web.templating.refusals import refusal, says

log = logging.getLogger(__name__)
TALK_ACTIONS = ("talk", "chat_rule")
PER_SECOND, BURST = 1.0, 5  # a seat's messages: one a second on average, five at once


def talk_flash(message: str) -> str:
    """The talk panel's refusal (or nothing: the last one cleared), for this page alone."""
    return render_template("_talk_flash.html", message=message, alone=True).strip()


def talk_action(parts, table: Table, seat: int | None, data: dict, connection) -> str:
    """Say what a page sent (htmx's ws-send JSON, an action of TALK_ACTIONS); the answer for that page.

    The seat is the one the page's cookie opened: a message naming another is refused. Its words reach the
    pages by the `heard` hook (web/push/talk.py), the sender's too.
    """
    claimed = data.get("seat")
    if claimed is not None and str(claimed) != ("s" if seat is None else str(seat)):
        return talk_flash(says("talk_seat"))
    if not budget(parts, table.id, seat, connection).spend():
        return talk_flash(says("talk_fast"))
    lang = connection.lang
    try:
        if data["action"] == "chat_rule":
            parts.tables.set_chat(table, seat, data.get("chat"), lang)
        else:
            kind = next((kind for kind in ("phrase", "reaction", "talk") if kind in data), None)
            parts.tables.say(table, seat, "chat" if kind == "talk" else kind or "", data.get(kind), lang)
    except GameError as error:
        return talk_flash(refusal(error)[0])
    except Exception:  # a bug or the disk: nothing was said; say so, keep the socket
        log.exception("talk at table %s failed", table.id)
        return talk_flash(says("server"))
    return talk_flash("")


def budget(parts, table_id: str, seat: int | None, connection) -> Budget:
    """The budget of messages of this seat at this table (its pages share it); a spectator's page's own."""
    if seat is None:
        if connection.talk_budget is None:
            connection.talk_budget = Budget(PER_SECOND, burst=BURST)
        return connection.talk_budget
    seats = parts.talk_budgets.setdefault(table_id, {})
    if seat not in seats:
        seats[seat] = Budget(PER_SECOND, burst=BURST)
    return seats[seat]
