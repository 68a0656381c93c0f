"""Flask-Limiter on the routes a client may call only so often a minute, and its 429 in words."""

from __future__ import annotations

from flask import Flask, render_template, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

from web.guard.limits import ClientTurns, SocketGate
from web.push.publish import flash_answer
from web.templating.refusals import says

LIMITED = {"fichas.create_table": "TABLES_PER_MINUTE", "fichas.join": "JOINS_PER_MINUTE",
           # A seat taken back, asked for or handed over: a person makes a few. Each pushes to every page
           # at the table (a reclaim changes its version too): in a loop they flooded its pages and made
           # its players' moves stale, and stored a row each.
           "seats.reclaim": "SEAT_CHANGES_PER_MINUTE", "seats.ask": "SEAT_CHANGES_PER_MINUTE",
           "seats.hand_over": "SEAT_CHANGES_PER_MINUTE"}
# Their words are in templates/_refusals.html, by these codes.
MESSAGES = {"fichas.create_table": "too_many_tables", "fichas.join": "too_many_joins"}


def init_limits(app: Flask) -> Limiter:
    """Limit handshakes (SocketGate), requests served at once (ClientTurns) and the routes of LIMITED:
    a readable 429 with Retry-After."""
    if app.config["LIMITS"]:
        app.wsgi_app = ClientTurns(app.wsgi_app, app.config["REQUESTS_PER_CLIENT"])
        app.wsgi_app = SocketGate(app.wsgi_app, app.config["CONNECTS_PER_SECOND"])
    limiter = Limiter(get_remote_address, app=app, storage_uri="memory://", headers_enabled=True,
                      enabled=app.config["LIMITS"])
    # The limited views hold only a weak reference to it (and, turned off, nothing else does).
    app.extensions["fichas_limiter"] = limiter
    for endpoint, setting in LIMITED.items():
        per_minute = app.config[setting]
        app.view_functions[endpoint] = limiter.limit(f"{per_minute} per minute")(app.view_functions[endpoint])

    @app.errorhandler(429)
    def too_many(error):
        code = MESSAGES.get(request.endpoint, "too_many_requests")
        message = says(code)
        if request.headers.get("HX-Request"):
            return flash_answer(message, 429)
        return render_template("error.html", code=429, message=message), 429

    return limiter
