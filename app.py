"""Fichas' web layer: the app factory, the routes and the websocket; the rules live in game/."""

from __future__ import annotations

import gc
import hmac
import json
import logging
import os
import secrets
import threading
import time
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

from flask import (
    Flask,
    Response,
    abort,
    current_app,
    g,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.templating import Environment
from flask_sock import ConnectionClosed, Sock
from markupsafe import Markup

from game.clock import Clock
from game.errors import BadInput, GameError, StaleVersion
from game.hub import Connection, Hub, Pinger
from game.match import DEFAULT_TARGET, TARGETS, Match
from game.record import export_match
from game.store import Store
from game.table import NAME_MAX, Table, Tables, Timing, clean_name
from game.variants import VARIANTS
from game.views import player_panel, spectator_view
from web.assets import init_assets

log = logging.getLogger(__name__)
SEAT_COOKIE = "fichas_seat"
CSRF_COOKIE = "fichas_csrf"
SERVER_ERROR = "Something went wrong on our side; nothing was changed. Try again."
ACTIONS = ("play", "pass", "draw", "next_round")  # what a page may send over its websocket
STATUS = {"bad_input": 400, "not_host": 403, "full": 409, "name_taken": 409}
VARIANT_CHOICES = [("partnership", "Partnership — 4 players in two teams"),
                   ("block", "Block — 2 to 4, each for themselves"),
                   ("draw", "Draw — 2 to 4, draw when you cannot play")]


def env_config() -> dict:
    """Settings from FICHAS_* environment variables (see the README)."""
    env = os.environ
    config = {"TURN_SECONDS": float(env.get("FICHAS_TURN_SECONDS", 45)),
              "OFFLINE_SECONDS": float(env.get("FICHAS_OFFLINE_SECONDS", 5)),
              "PAUSE_SECONDS": float(env.get("FICHAS_PAUSE_SECONDS", 30)),
              "GRACE_SECONDS": float(env.get("FICHAS_GRACE_SECONDS", 15)),
              "PING_SECONDS": float(env.get("FICHAS_PING_SECONDS", 5)),
              "GC_SECONDS": float(env.get("FICHAS_GC_SECONDS", 300))}
    if "FICHAS_DB" in env:
        config["DATABASE"] = env["FICHAS_DB"]
    return config


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app: configuration, store, live tables, hub, clock and routes."""
    app = Flask(__name__, instance_relative_config=True)
    app.jinja_environment = ViewEnvironment
    app.config.update(MAX_CONTENT_LENGTH=16 * 1024, START_CLOCK=True)
    app.config.update(env_config())
    app.config.update(test_config or {})
    app.config.setdefault("DATABASE", str(Path(app.instance_path) / "fichas.sqlite3"))
    Path(app.config["DATABASE"]).parent.mkdir(parents=True, exist_ok=True)  # a first start needs no mkdir
    # Moves are small. Pings come from one Pinger for all sockets, not from each socket's reader.
    app.config["SOCK_SERVER_OPTIONS"] = {"ping_interval": None, "max_message_size": 4096}
    timing = Timing(turn=app.config["TURN_SECONDS"], offline=app.config["OFFLINE_SECONDS"],
                    pause=app.config["PAUSE_SECONDS"], grace=app.config["GRACE_SECONDS"])
    tables = Tables(Store(app.config["DATABASE"]), timing, **app.config.get("TABLES_OPTIONS", {}))
    hub = Hub()
    pinger = Pinger(hub, app.config["PING_SECONDS"])  # a dead connection is noticed within two pings (S4)
    clock = Clock(tables.expire, tables.now)
    tables.publish = lambda table: publish(app, hub, tables, table)
    tables.schedule = clock.schedule
    app.extensions["fichas"] = Fichas(tables, hub, clock, pinger)
    tables.resume()
    pinger.start()
    if app.config["START_CLOCK"]:
        clock.start()
        if app.config["GC_SECONDS"] > 0:
            threading.Thread(target=short_gc_pauses, args=(app.config["GC_SECONDS"],), daemon=True,
                             name="fichas-gc").start()
    app.jinja_env.globals.update(domino=domino, domino_of=domino_of, line_of=line_of)
    init_assets(app)
    register_routes(app, Sock(app))
    return app


def short_gc_pauses(interval: float) -> None:
    """Keep the garbage collector's pauses short, for ever (a daemon thread or greenlet).

    Thousands of websockets keep about a million objects alive; a full collection over them
    all stopped every table for 0.4 s several times a minute at 1,000 tables. What survives a
    full collection is frozen, so the next automatic ones look only at younger objects; one
    full pass over everything every `interval` seconds still frees cycles among the old ones.
    """
    gc.callbacks.append(_freeze_after_full_collection)
    while True:
        time.sleep(interval)
        gc.unfreeze()
        gc.collect()


def _freeze_after_full_collection(phase: str, info: dict) -> None:
    if phase == "stop" and info["generation"] == 2:
        gc.freeze()


class Fichas:
    """The live parts of one app, reachable as app.extensions["fichas"]."""

    def __init__(self, tables: Tables, hub: Hub, clock: Clock, pinger: Pinger):
        self.tables, self.hub, self.clock, self.pinger = tables, hub, clock, pinger

    def close(self) -> None:
        """Stop the clock and the pings, close every websocket and the store (tests build many apps)."""
        self.clock.stop()
        self.pinger.stop()
        self.hub.close_all()
        self.tables.store.close()


def fichas() -> Fichas:
    """The live parts of the current app."""
    return current_app.extensions["fichas"]


# -- rendering -----------------------------------------------------------------

class ViewEnvironment(Environment):
    """Jinja for templates fed plain dicts (the views): `view.round` tries the key first.

    Jinja's own order, attribute then key, raises and catches an AttributeError for every
    dotted name on a dict: about 200 per push, the largest single cost of rendering a move.
    """

    def getattr(self, obj, attribute):
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


@cache
def domino(a: int, b: int, in_line: bool = False, cross: bool = False) -> Markup:
    """A domino showing a then b, pips drawn by CSS; cached, as there are only 49 ways to show one."""
    classes = "domino" + (" double" if a == b else "") + (" cross" if cross and a == b else "")
    data = f' data-tile="{min(a, b)}-{max(a, b)}"' if in_line else ""
    return Markup(f'<span class="{classes}"{data} role="img" aria-label="{a}-{b}" title="{a}-{b}">'
                  f'<i class="h p{a}"></i><i class="h p{b}"></i></span>')


def line_of(line: list, cross: bool) -> Markup:
    """The whole line of dominoes, left to right: one join instead of a template loop per tile."""
    return Markup("").join([domino(a, b, True, cross) for a, b in line])


def domino_of(text: str) -> Markup:
    """The domino for a tile written "a-b"."""
    a, b = text.split("-")
    return domino(int(a), int(b))


def table_context(table: Table, tables: Tables, seat: int | None) -> dict:
    """What the partials of a table need, for one viewer; built under the table's lock."""
    now = tables.now()
    due = table.due_at(tables.timing)
    view = spectator_view(table.match) if table.match else None
    # Templates get the table's public facts only, never the Table (its round holds every hand).
    public = {"id": table.id, "version": table.version, "seats": table.seats, "target": table.target,
              "variant": {"name": table.variant.name, "title": table.variant.title,
                          "teams": table.variant.teams}}
    return {"table": public, "base": f"/t/{table.id}", "view": view, "seat": seat, "phase": table.phase,
            "players": table.players, "connected": [table.connected(s) for s in range(len(table.players))],
            "remaining_ms": None if due is None else max(0, int((due - now) * 1000)),
            "panel": player_panel(table.match, seat) if table.match else None,
            "host_away": table.away(0, now), "name_max": NAME_MAX}


def me_key(context: dict) -> tuple:
    """Everything `_me.html` shows, cheaply: equal keys mean an identical #me."""
    panel = context["panel"]
    acting = bool(panel and panel["can"]["act"])
    # While acting, each new state (not each push: presence changes must not wipe a chosen tile).
    now_playing = context["table"]["version"] if acting else None
    return (context["phase"], context["seat"], len(context["players"]), repr(panel), now_playing,
            context["host_away"])


def render_partials(table: Table, tables: Tables, seat: int | None, oob: bool = False,
                    message: str | None = None) -> tuple[str, tuple]:
    """The two swappable parts of a table page for one viewer (#table and #me), and #me's key.

    In an HTTP answer they go out of band (`oob`), with `message` shown in #me's #flash.
    """
    context = table_context(table, tables, seat)
    context.update(oob=oob, message=message)
    html = render_template("_table.html", **context) + render_template("_me.html", **context)
    return html, me_key(context)


def publish(app: Flask, hub: Hub, tables: Tables, table: Table) -> None:
    """Push every browser the shared #table, rendered once, and its own #me only if it changed."""
    connections = hub.connections(table.id)
    if not connections:
        return
    # Straight to Jinja: partials need none of render_template's per-call context processors.
    shared_template = app.jinja_env.get_template("_table.html")
    me_template = app.jinja_env.get_template("_me.html")
    with app.app_context():
        context = table_context(table, tables, None)
        shared = shared_template.render(context)
        mine: dict[int | None, list] = {}  # seat -> [key, panel, html rendered on demand]
        for connection in connections:
            if not connection.alive:  # cut off or closing: its handler is about to unregister it
                continue
            seat = connection.seat
            if seat not in mine:
                context["seat"] = seat
                context["panel"] = player_panel(table.match, seat) if table.match else None
                mine[seat] = [me_key(context), context["panel"], None]
            key, panel, html = mine[seat]
            if key == connection.me_key:
                connection.send(shared)
                continue
            if html is None:
                context["seat"], context["panel"] = seat, panel
                html = mine[seat][2] = me_template.render(context)
            if connection.send(shared + html):
                connection.me_key = key


# -- security helpers ----------------------------------------------------------

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


def load_table(table_id: str) -> Table:
    """The table for a URL, or 404."""
    if len(table_id) > 64:
        abort(404)
    table = fichas().tables.get(table_id)
    if table is None:
        abort(404, "There is no table at this address. Check the link, or open a new table.")
    return table


def my_seat(table: Table) -> int | None:
    """The seat this browser holds at `table`, from its cookie."""
    return table.seat_of(request.cookies.get(SEAT_COOKIE))


def seat_cookie(response: Response, table: Table, secret: str) -> Response:
    """Give this browser its seat, for this table's URLs only."""
    response.set_cookie(SEAT_COOKIE, secret, max_age=60 * 60 * 24 * 30, path=f"/t/{table.id}",
                        httponly=True, samesite="Lax", secure=request.is_secure)
    return response


def refusal(table: Table, error: GameError) -> Response:
    """A readable refusal; a stale action also gets a fresh render of the table."""
    status = STATUS.get(error.code, 409)
    body = render_template("_flash.html", message=str(error))
    if isinstance(error, StaleVersion):
        with table.lock:
            body += render_partials(table, fichas().tables, my_seat(table), True, str(error))[0]
    return Response(body, status, mimetype="text/html")


# -- routes --------------------------------------------------------------------

def register_routes(app: Flask, sock: Sock) -> None:
    """Attach every URL of the app."""

    @app.before_request
    def guard():
        if request.method == "POST":
            check_csrf()
        if request.path.endswith("/ws"):  # refuse at the handshake, before any upgrade
            # No permessage-deflate: its zlib state costs ~250 KB per socket, and pushes are small.
            request.environ.pop("HTTP_SEC_WEBSOCKET_EXTENSIONS", None)
            if not same_origin():
                abort(403, "This websocket only serves pages of this site.")
            if request.view_args and fichas().tables.get(request.view_args.get("table_id", "")) is None:
                abort(404)

    @app.after_request
    def set_csrf_cookie(response: Response) -> Response:
        if "csrf" in g and request.cookies.get(CSRF_COOKIE) != g.csrf:
            response.set_cookie(CSRF_COOKIE, g.csrf, httponly=True, samesite="Lax",
                                secure=request.is_secure)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Content-Security-Policy", "frame-ancestors 'none'")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        return response

    @app.context_processor
    def template_globals():
        return {"csrf_token": csrf_token}

    @app.errorhandler(400)
    @app.errorhandler(403)
    @app.errorhandler(404)
    @app.errorhandler(405)
    @app.errorhandler(413)
    @app.errorhandler(500)
    def http_error(error):
        message = {413: "That request is too large.", 500: SERVER_ERROR}.get(
            error.code, error.description)
        if request.headers.get("HX-Request"):
            return render_template("_flash.html", message=message), error.code
        return render_template("error.html", code=error.code, message=message), error.code

    @app.get("/")
    def home():
        return render_template("home.html", form={"variant": "partnership", "seats": 4,
                                                  "target": DEFAULT_TARGET}, errors={}, **choices())

    @app.get("/rules")
    def rules():
        return render_template("rules.html")

    @app.post("/tables")
    def create_table():
        form, errors = read_create_form()
        if not errors:
            try:
                table, secret = fichas().tables.create(form["name"], form["variant"], form["seats"],
                                                       form["target"])
            except BadInput as error:
                errors["name"] = str(error)
            else:
                return seat_cookie(redirect(url_for("show_table", table_id=table.id), 303), table, secret)
        return render_template("home.html", form=form, errors=errors, **choices()), 400

    @app.get("/t/<table_id>")
    def show_table(table_id: str):
        table = load_table(table_id)
        seat = my_seat(table)
        with table.lock:
            html = render_template("table.html", **table_context(table, fichas().tables, seat))
        return html

    @app.post("/t/<table_id>/join")
    def join(table_id: str):
        table = load_table(table_id)
        target = url_for("show_table", table_id=table.id)
        # htmx would follow a 303 and swap the whole page into #flash: tell it to load the page.
        if request.headers.get("HX-Request"):
            response = make_response("", 204)
            response.headers["HX-Redirect"] = target
        else:
            response = redirect(target, 303)
        if my_seat(table) is not None:
            return response
        try:
            _, secret = fichas().tables.join(table, request.form.get("name", ""))
        except GameError as error:
            return Response(render_template("_flash.html", message=str(error)),
                            STATUS.get(error.code, 409), mimetype="text/html")
        return seat_cookie(response, table, secret)

    def action(table_id: str, kind: str):
        table = load_table(table_id)
        seat = my_seat(table)
        if seat is None:
            abort(403, "You do not have a seat at this table.")
        try:
            fichas().tables.act(table, seat, kind, request.form.get("version"),
                                tile=request.form.get("tile"), end=request.form.get("end"))
        except GameError as error:
            return refusal(table, error)
        return "", 204

    app.post("/t/<table_id>/play", endpoint="play")(lambda table_id: action(table_id, "play"))
    app.post("/t/<table_id>/pass", endpoint="pass")(lambda table_id: action(table_id, "pass"))
    app.post("/t/<table_id>/draw", endpoint="draw")(lambda table_id: action(table_id, "draw"))
    app.post("/t/<table_id>/next-round", endpoint="next_round")(
        lambda table_id: action(table_id, "next_round"))

    @app.get("/t/<table_id>/record.json")
    def record(table_id: str):
        table = load_table(table_id)
        with table.lock:
            match = table.match
            if match is None:  # still a valid record: "" names a seat nobody has taken yet
                players = table.players + [""] * (table.seats - len(table.players))
                match = Match(table.variant, table.seats, table.target, players)
            data = export_match(match)
        return jsonify(data)

    @sock.route("/t/<table_id>/ws")
    def websocket(ws, table_id: str):
        live = fichas()
        table = live.tables.get(table_id)  # known to exist: the guard refused unknown tables
        seat = my_seat(table)
        connection = Connection(ws, seat, wake=ws.event)  # simple-websocket sets it on close too
        # ... but not when it drops a socket for an oversized message: look again at each ping.
        wait = current_app.config["PING_SECONDS"]
        try:
            with table.lock:  # a full refresh first (to all, if this seat just came back)
                live.hub.add(table.id, connection)
                if not live.tables.connect(table, seat):
                    html, connection.me_key = render_partials(table, live.tables, seat)
                    connection.send(html)
            # This handler is the connection's writer (pushes are queued, never written under a
            # table's lock) and its reader: the page sends its moves over this websocket.
            moved_at = None  # the version this page's last accepted move was made on
            while connection.alive and ws.connected:
                connection.flush(timeout=wait)
                while (message := ws.receive(timeout=0)) is not None:
                    refused, moved_at = websocket_action(live.tables, table, seat, message, moved_at)
                    if refused is not None:
                        connection.send(refused)
                if connection.pending():  # receive() may have cleared a wake-up meant for us
                    connection.wake()
        except ConnectionClosed:
            pass
        finally:
            connection.close()
            live.hub.remove(table.id, connection)
            live.tables.disconnect(table, seat)


def websocket_action(tables: Tables, table: Table, seat: int | None, message,
                     moved_at: str | None) -> tuple[str | None, str | None]:
    """Do the move a page sent over its websocket (htmx's ws-send JSON).

    Returns the refusal to show (or None) and the version this page last moved on. A second
    message on that same version is a double click, already done: it only clears #flash.
    Untrusted like any POST, but needs no CSRF token: the handshake checked the Origin.
    """
    try:
        data = json.loads(message)
    except (TypeError, ValueError, RecursionError):  # RecursionError: a deeply nested message
        data = None
    if not isinstance(data, dict) or data.get("action") not in ACTIONS:
        return flash_alone("That message is not a move Fichas knows."), moved_at
    tile, end, version = data.get("tile"), data.get("end"), data.get("version")
    if not all(isinstance(value, str | None) for value in (tile, end, version)):
        return flash_alone("A move's tile, end and version are written as text."), moved_at
    if moved_at is not None and version == moved_at:
        return flash_alone(""), moved_at  # answered all the same: the page waits for an answer
    try:
        tables.act(table, seat, data["action"], version, tile=tile, end=end)
    except GameError as error:
        return flash_alone(str(error)), moved_at
    except Exception:  # a bug or the disk: the table was put back; say so, keep the socket
        log.exception("move on table %s failed", table.id)
        return flash_alone(SERVER_ERROR), moved_at
    return None, version


def flash_alone(message: str) -> str:
    """A refusal pushed to one page: it replaces what that page's #flash shows."""
    return current_app.jinja_env.get_template("_flash_box.html").render(message=message, alone=True)


def choices() -> dict:
    """The host's options for the create form (rules T11, S1)."""
    return {"variants": VARIANT_CHOICES, "targets": TARGETS, "name_max": NAME_MAX}


def read_create_form() -> tuple[dict, dict]:
    """The create form's fields, and a message per invalid field."""
    form, errors = dict(request.form), {}
    form.pop("csrf_token", None)
    if form.get("variant") not in VARIANTS:
        errors["variant"] = "Choose Partnership, Block or Draw."
    for field, allowed in (("seats", (2, 3, 4)), ("target", TARGETS)):
        try:
            form[field] = int(form.get(field, ""))
        except ValueError:
            form[field] = None
        if form[field] not in allowed:
            errors[field] = ("Choose 2, 3 or 4 seats." if field == "seats"
                             else "Choose a target from 50 to 500, in steps of 50.")
    if form.get("variant") == "partnership" and form.get("seats") not in (None, 4):
        errors["seats"] = "Partnership is played by 4 players."
    name = form.get("name", "")
    form["name"] = name
    try:  # every field's message at once, the name's length and characters too
        clean_name(name)
    except BadInput as error:
        errors["name"] = "Please give your name." if not name.strip() else str(error)
    return form, errors


if __name__ == "__main__":
    from web.serve import main

    main()
