"""Seats changing hands: a player's private link back to their seat, and the host handing a
disconnected seat to a spectator who asked for it (or turning the request down). The rules are in
live/seating.py; here the pages and the cookie (the refusals: web/templating/refusals.py).

The private link is /t/<id>/seat#<secret>: the secret travels in the fragment, which browsers
never send, and comes back in a POST body, so no access log or Referer holds it.
"""

from __future__ import annotations

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)

from game.errors import GameError
from live.table import SeatRefused, Table
from web.guard.security import SEAT_COOKIE, browser_id, my_seat, seat_cookie, share_url
from web.http.routes import just_seated, load_table
from web.parts import fichas
from web.push.publish import flash_answer, name_field
from web.templating.refusals import refusal, says

bp = Blueprint("seats", __name__)


def refused(error: GameError, field: str | None = None) -> Response:
    """A refusal for htmx to show in #flash (`field`: the id of the form's name field, marked if the
    name was refused)."""
    return flash_answer(*refusal(error), name_field(error, field) if field else None)


@bp.post("/t/<table_id>/seat-link")
def seat_link(table_id: str):
    """The seat's private link, for its own page only (never pushed, never in #table)."""
    table = load_table(table_id)
    if my_seat(table) is None:
        abort(403, says("no_seat"))
    secret = request.cookies[SEAT_COOKIE]
    link = share_url(url_for(".reclaim", table_id=table.id)) + "#" + secret
    # Asked for by the offer made right after sitting down (templates/table.html), or by the folded panel.
    field = "seat-offer-input" if request.form.get("box") == "offer" else "seat-link-input"
    # Its QR code in the menu's panel, to move the seat to a phone (the offer's line has no room for it).
    qr = url_for("qr.seat_qr", table_id=table.id) if field == "seat-link-input" else None
    return render_template("_seat_link.html", link=link, field=field, qr=qr)


@bp.get("/t/<table_id>/seat")
def reclaim_page(table_id: str):
    """Where a private link lands; the secret is in its fragment, which the page posts."""
    table = load_table(table_id)
    return render_template("seat.html", table=public(table), error=None)


@bp.post("/t/<table_id>/seat")
def reclaim(table_id: str):
    """Take a seat back with its secret: this browser gets it under a new one, others lose it."""
    table = load_table(table_id)
    target = redirect(url_for("fichas.show_table", table_id=table.id), 303)
    secret = request.form.get("secret", "")
    if secret and my_seat(table) is not None and my_seat(table) == table.seat_of(secret):
        return target  # this browser has that seat already: nothing to change
    try:
        _, new_secret = fichas().tables.reclaim(table, secret, browser=browser_id())
    except SeatRefused as error:
        message, status = refusal(error)
        return render_template("seat.html", table=public(table), error=message), status
    return just_seated(seat_cookie(target, table, new_secret), table)  # its link changed: offer the new one


@bp.post("/t/<table_id>/ask")
def ask(table_id: str):
    """A spectator asks for a disconnected seat; its browser keeps the secret the seat will get."""
    table = load_table(table_id)
    if my_seat(table) is not None:
        return refused(SeatRefused("seated"))
    try:
        secret = fichas().tables.ask(table, request.form.get("name", ""), browser=browser_id(),
                                     address=client_address())
    except GameError as error:
        return refused(error, "ask-name")
    # Reload: the page's websocket then carries the new cookie, and is moved to the seat once given.
    response = make_response("", 204)
    response.headers["HX-Redirect"] = url_for("fichas.show_table", table_id=table.id)
    return seat_cookie(response, table, secret)


@bp.post("/t/<table_id>/hand-over")
def hand_over(table_id: str):
    """The host gives a disconnected seat to a spectator who asked (between rounds)."""
    table = load_table(table_id)
    form = request.form
    try:
        fichas().tables.hand_over(table, my_seat(table), form.get("seat"), form.get("ask"),
                                  form.get("version"))
    except GameError as error:
        return refused(error)
    return "", 204


@bp.post("/t/<table_id>/dismiss")
def dismiss(table_id: str):
    """The host turns a spectator's request for a seat down."""
    table = load_table(table_id)
    try:
        fichas().tables.dismiss(table, my_seat(table), request.form.get("ask"))
    except GameError as error:
        return refused(error)
    return "", 204


def client_address() -> str | None:
    """The client's address as the per-client limits see it (web/guard/limits.py, web/guard/proxies.py): one
    address holds a few requests for a seat at a table; None where those limits are off."""
    return request.remote_addr if current_app.config["LIMITS"] else None


def public(table: Table) -> dict:
    """What the reclaim page shows of a table."""
    return {"id": table.id, "variant": {"name": table.variant.name}}  # game_title words it
