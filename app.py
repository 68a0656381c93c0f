"""Fichas: the app factory. Configuration, the live parts, and the web layer's blueprints, registered here."""

from __future__ import annotations

import os
import re
from functools import partial
from pathlib import Path
from urllib.parse import urlsplit

from flask import Flask

from live.clock import Clock
from live.collector import FrozenSurvivors, full_collection
from live.periodic import Periodic, off_the_loop
from live.store import SEEN_EVERY_SECONDS, Store
from live.tables import Tables
from live.turnclock import Timing
from web.guard.limits import OpenSockets, TakeTurns
from web.guard.proxies import TrustedProxies, networks
from web.http import installable, languages, qr, replay, routes, seats
from web.http.assets import init_assets
from web.http.limits import init_limits
from web.parts import Fichas
from web.push.publish import publish
from web.push.talk import heard, init_talk
from web.serve import stop_promptly_on_term
from web.templating.dominoes import init_rendering
from web.templating.languages import init_i18n
from web.ws import endpoint
from web.ws.endpoint import NotStarted, sock
from web.ws.hub import Hub, Pinger

EVICT_EVERY_SECONDS = 60  # how often idle tables are looked for
ASKS_EVERY_SECONDS = 10  # how often requests for a seat whose pages all went are looked for (live/table.py)
CHECKPOINT_EVERY_SECONDS = 1.0  # SQLite's log copied to the database file, off the worker's path
SHARD_NAME = re.compile(r"[a-z0-9]{1,16}")  # it starts table ids and nginx's routes (deploy/nginx.py)


def env_config() -> dict:
    """Settings from FICHAS_* environment variables (see the README)."""
    env = os.environ
    config = {"TURN_SECONDS": float(env.get("FICHAS_TURN_SECONDS", 45)),
              "OFFLINE_SECONDS": float(env.get("FICHAS_OFFLINE_SECONDS", 5)),
              "PAUSE_SECONDS": float(env.get("FICHAS_PAUSE_SECONDS", 30)),
              "GRACE_SECONDS": float(env.get("FICHAS_GRACE_SECONDS", 15)),
              "SETTLE_SECONDS": float(env.get("FICHAS_SETTLE_SECONDS", 3)),
              "HOST_AWAY_SECONDS": float(env.get("FICHAS_HOST_AWAY_SECONDS", 60)),
              "PING_SECONDS": float(env.get("FICHAS_PING_SECONDS", 5)),
              "SILENCE_SECONDS": float(env.get("FICHAS_SILENCE_SECONDS", 20)),
              "GC_SECONDS": float(env.get("FICHAS_GC_SECONDS", 0)),
              "IDLE_SECONDS": float(env.get("FICHAS_IDLE_SECONDS", 600)),
              "WS_MESSAGES_PER_SECOND": float(env.get("FICHAS_WS_MESSAGES_PER_SECOND", 20)),
              "LIMITS": env.get("FICHAS_LIMITS", "on") != "off",
              "TABLES_PER_MINUTE": int(env.get("FICHAS_TABLES_PER_MINUTE", 30)),
              "JOINS_PER_MINUTE": int(env.get("FICHAS_JOINS_PER_MINUTE", 120)),
              "SEAT_CHANGES_PER_MINUTE": int(env.get("FICHAS_SEAT_CHANGES_PER_MINUTE", 20)),
              "SOCKETS_PER_CLIENT": int(env.get("FICHAS_SOCKETS_PER_CLIENT", 300)),
              "CONNECTS_PER_SECOND": int(env.get("FICHAS_CONNECTS_PER_SECOND", 20)),
              "REQUESTS_PER_CLIENT": int(env.get("FICHAS_REQUESTS_PER_CLIENT", 8))}
    if "FICHAS_DB" in env:
        config["DATABASE"] = env["FICHAS_DB"]
    if shard := env.get("FICHAS_SHARD", ""):
        if not SHARD_NAME.fullmatch(shard):
            raise ValueError(f"FICHAS_SHARD={shard!r}: a shard's name is 1 to 16 of a-z and 0-9")
        config["SHARD"] = shard
    config.update(security_config(env))
    return config


def security_config(env) -> dict:
    """Hosts, the public address, proxies and the secret (README, "Security"; web/guard/security.py)."""
    public_url = env.get("FICHAS_PUBLIC_URL", "").strip().rstrip("/") or None
    if public_url:
        parts = urlsplit(public_url)
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.path or parts.query:
            raise ValueError(f"FICHAS_PUBLIC_URL={public_url!r}: write the address players open,"
                             " like https://fichas.example.com")
    hosts = env.get("FICHAS_ALLOWED_HOSTS", "")
    addresses = [a.strip() for a in env.get("FICHAS_PROXY_ADDRESSES", "").split(",") if a.strip()]
    networks(addresses)  # a typo stops the start, not every request
    config = {"PUBLIC_URL": public_url,
              "ALLOWED_HOSTS": [host.strip() for host in hosts.split(",") if host.strip()],
              # Naming the proxy's addresses means there is one: believe it unless told how many.
              "TRUSTED_PROXIES": int(env.get("FICHAS_TRUSTED_PROXIES", 1 if addresses else 0)),
              "PROXY_ADDRESSES": addresses,
              "LISTEN_HOST": env.get("FICHAS_HOST", "127.0.0.1")}
    if env.get("FICHAS_SECRET_KEY"):
        config["SECRET_KEY"] = env["FICHAS_SECRET_KEY"]
    return config


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app: configuration, store, live tables, hub, clock and routes."""
    app = Flask(__name__, instance_relative_config=True)
    app.config.update(MAX_CONTENT_LENGTH=16 * 1024, START_CLOCK=True)
    app.config.update(env_config())
    app.config.update(test_config or {})
    app.config.setdefault("DATABASE", str(Path(app.instance_path) / "fichas.sqlite3"))
    Path(app.config["DATABASE"]).parent.mkdir(parents=True, exist_ok=True)  # a first start needs no mkdir
    # Moves are small. Pings come from one Pinger for all sockets, not from each socket's reader.
    # simple-websocket's own reader is never started: web/ws/endpoint.py reads under a budget.
    app.config["SOCK_SERVER_OPTIONS"] = {"ping_interval": None, "max_message_size": 4096,
                                         "thread_class": NotStarted}
    init_i18n(app)  # before any template is compiled: they use gettext
    init_rendering(app)
    init_talk(app)
    init_assets(app)
    # The language first: its hook runs before the guard's, so a refusal is said in the viewer's language.
    # language, pages, seats, QR codes, the manifest, replays, socket
    for blueprint in (languages.bp, routes.bp, seats.bp, qr.bp, installable.bp, replay.bp, endpoint.bp):
        app.register_blueprint(blueprint)
    sock.init_app(app)
    init_limits(app)
    if (proxies := app.config.get("TRUSTED_PROXIES", 0)) > 0:  # their X-Forwarded-For and -Proto only
        # Outermost: every part inside sees the client's address.
        app.wsgi_app = TrustedProxies(app.wsgi_app, proxies, app.config.get("PROXY_ADDRESSES", []))
    app.wsgi_app = TakeTurns(app.wsgi_app)  # a pipelined request waits for the others' turn
    app.extensions["fichas"] = start_live_parts(app)
    stop_promptly_on_term(app.extensions["fichas"])
    return app


def start_live_parts(app: Flask) -> Fichas:
    """The tables, their store, the hub of websockets, the pings and the clock, wired and started."""
    config = app.config
    timing = Timing(turn=config["TURN_SECONDS"], offline=config["OFFLINE_SECONDS"],
                    pause=config["PAUSE_SECONDS"], grace=config["GRACE_SECONDS"],
                    settle=config["SETTLE_SECONDS"], host_wait=config["HOST_AWAY_SECONDS"])
    tables = Tables(Store(config["DATABASE"]), timing, idle_seconds=config["IDLE_SECONDS"],
                    shard=config.get("SHARD", ""), **config.get("TABLES_OPTIONS", {}))
    hub = Hub()
    sockets = OpenSockets(config["SOCKETS_PER_CLIENT"] if config["LIMITS"] else 0)
    pinger = Pinger(hub, config["PING_SECONDS"], config["SILENCE_SECONDS"])
    parts = Fichas(tables, hub, Clock(tables.expire, tables.now), pinger, sockets)
    tables.show = partial(publish, app, hub, parts.state)  # every change's snapshot
    tables.left = parts.left
    tables.schedule = parts.clock.schedule
    tables.gone = parts.table_removed
    tables.heard = partial(heard, app, hub)  # a message said at a table (web/push/talk.py)
    tables.resume()
    parts.pinger.start()  # a connection silent for SILENCE_SECONDS is cut off (S4 then counts)
    if config["START_CLOCK"]:
        parts.clock.start()
        parts.jobs.append(Periodic("evict", EVICT_EVERY_SECONDS, tables.evict_idle).start())
        parts.jobs.append(Periodic("asks", ASKS_EVERY_SECONDS, tables.expire_asks).start())
        # The tables it holds, stored as seen: `python -m live.purge` leaves them alone.
        parts.jobs.append(Periodic("seen", SEEN_EVERY_SECONDS, tables.mark_seen).start())
        checkpoint = partial(off_the_loop, tables.store.checkpoint)
        parts.jobs.append(Periodic("checkpoint", CHECKPOINT_EVERY_SECONDS, checkpoint).start())
        parts.jobs.append(FrozenSurvivors().start())
        if config["GC_SECONDS"] > 0:
            parts.jobs.append(Periodic("gc", config["GC_SECONDS"], full_collection).start())
    return parts


if __name__ == "__main__":
    from web.serve import main

    main()
