"""Per-client limits over HTTP: tables opened and seats taken per minute, by client address.

A client is its address (`request.remote_addr`: behind a trusted proxy, the address the proxy
saw). The defaults are generous enough for a household or a carrier's shared address, where
many players come from one address. Websockets open at once are counted by OpenSockets, which
web/socket.py asks before it serves a socket.
"""

from __future__ import annotations

import threading
from collections import Counter

from flask import Flask, render_template, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

LIMITED = {"fichas.create_table": "TABLES_PER_MINUTE", "fichas.join": "JOINS_PER_MINUTE"}
MESSAGES = {"fichas.create_table": "Too many tables were opened from your address just now.",
            "fichas.join": "Too many seats were taken from your address just now."}


def init_limits(app: Flask) -> Limiter:
    """Limit the routes of LIMITED by the settings they name; a readable 429 with Retry-After."""
    limiter = Limiter(get_remote_address, app=app, storage_uri="memory://", headers_enabled=True,
                      enabled=app.config["LIMITS"])
    # The limited views hold only a weak reference to it (and, turned off, nothing else does).
    app.extensions["fichas_limiter"] = limiter
    for endpoint, setting in LIMITED.items():
        per_minute = app.config[setting]
        app.view_functions[endpoint] = limiter.limit(f"{per_minute} per minute")(app.view_functions[endpoint])

    @app.errorhandler(429)
    def too_many(error):
        message = MESSAGES.get(request.endpoint, "Too many requests.")
        message += " Please wait a minute and try again."
        if request.headers.get("HX-Request"):
            return render_template("_flash.html", message=message), 429
        return render_template("error.html", code=429, message=message), 429

    return limiter


class OpenSockets:
    """Websockets open at once, by client address, up to `limit` each (0: no limit)."""

    def __init__(self, limit: int):
        self.limit = limit
        self._open: Counter[str] = Counter()
        self._lock = threading.Lock()

    def open(self, address: str) -> bool:
        """Count one more socket of `address`; False (and nothing counted) past the limit."""
        with self._lock:
            if self.limit and self._open[address] >= self.limit:
                return False
            self._open[address] += 1
            return True

    def close(self, address: str) -> None:
        """One socket of `address` closed."""
        with self._lock:
            self._open[address] -= 1
            if self._open[address] <= 0:
                del self._open[address]
