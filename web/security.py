"""Who may do what: CSRF for forms and the API, the websocket's Origin, seat cookies, headers."""

from __future__ import annotations

import hmac
import secrets
from urllib.parse import urlsplit

from flask import Response, abort, g, request

from live.table import Table

SEAT_COOKIE = "fichas_seat"
CSRF_COOKIE = "fichas_csrf"
SEAT_COOKIE_DAYS = 30


def csrf_token() -> str:
    """This browser's CSRF token (double-submit: a cookie and a header or field)."""
    if "csrf" not in g:
        g.csrf = request.cookies.get(CSRF_COOKIE) or secrets.token_urlsafe(24)
    return g.csrf


def check_csrf() -> None:
    """Refuse a POST whose token does not match this browser's cookie."""
    cookie = request.cookies.get(CSRF_COOKIE, "")
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token", "")
    if not cookie or not hmac.compare_digest(cookie, sent):
        abort(403, "Your session expired or the request was forged: reload the page and try again.")


def same_origin() -> bool:
    """Whether the websocket handshake comes from a page of this host."""
    origin = urlsplit(request.headers.get("Origin", ""))
    if ":" in request.host:  # browsers send the port in Host; some clients leave it out
        return origin.netloc == request.host
    return bool(origin.hostname) and origin.hostname == request.host


def my_seat(table: Table) -> int | None:
    """The seat this browser holds at `table`, from its cookie."""
    return table.seat_of(request.cookies.get(SEAT_COOKIE))


def seat_cookie(response: Response, table: Table, secret: str) -> Response:
    """Give this browser its seat, for this table's URLs only."""
    response.set_cookie(SEAT_COOKIE, secret, max_age=60 * 60 * 24 * SEAT_COOKIE_DAYS,
                        path=f"/t/{table.id}", httponly=True, samesite="Lax", secure=request.is_secure)
    return response


def protect(response: Response) -> Response:
    """Every answer: the CSRF cookie where it is new, and headers that keep pages to themselves."""
    if "csrf" in g and request.cookies.get(CSRF_COOKIE) != g.csrf:
        response.set_cookie(CSRF_COOKIE, g.csrf, httponly=True, samesite="Lax", secure=request.is_secure)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Content-Security-Policy", "frame-ancestors 'none'")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response
