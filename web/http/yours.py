"""Your tables, on the home page: the tables this browser holds a seat at, each at a glance.

A seat's cookie is sent to its table's URLs only (web/guard/security.py seat_cookie), so the home page
finds the seats from what every seat already stores: the hash of the browser that holds it (its signed
CSRF cookie's, browser_id). Nothing new is kept about anyone. A seat handed to someone else, or taken
back with its private link in another browser, is stored with that browser from then on, so it leaves
this list; a purged table's seats go with it; a spectator holds no seat, so lists nothing.
"""

from __future__ import annotations

from game.views import at_a_glance, shown_names
from live.store import TableGone
from web.guard.security import browser_id
from web.parts import fichas

LISTED = 12  # the newest: more is no list to find one's table in at a glance


def your_tables() -> list[dict]:
    """This browser's tables, newest first: the game, the players, whose turn, the score."""
    browser = browser_id()
    if browser is None:  # a first visit: no seat anywhere
        return []
    tables, listed = fichas().tables, []
    for table_id, seat in tables.seats_of_browser(browser, LISTED):
        table = tables.get(table_id)
        if table is None:  # purged since the query
            continue
        try:
            with tables.locked(table) as table:
                shown = tables.snapshot(table)
                glance = at_a_glance(shown.match, seat)  # the match is read under the lock only
        except TableGone:  # purged while it left memory: the home page lists the others
            continue
        listed.append({"id": shown.id, "game": shown.variant.name, "phase": shown.phase, "seat": seat,
                       "players": shown_names(shown.players), **glance})
    return listed
