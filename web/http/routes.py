"""Every URL of Fichas but the websocket: pages, forms, the HTTP API of moves, the record."""

from __future__ import annotations

import re

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import ngettext
from markupsafe import Markup
from werkzeug.exceptions import Gone

from game.errors import BadInput, GameError, StaleVersion
from game.match import DEFAULT_TARGET, TARGETS
from game.variants import DEFAULT_VARIANT, VARIANTS
from game.views import shown_name, variant_menu
from live.store import TableGone
from live.table import CHAT_RULES, NAME_FIELD_MAX, Table, clean_name, default_chat, plain_number
from web.guard.security import (
    SEAT_COOKIE,
    browser_id,
    check_csrf,
    check_handshake,
    csrf_token,
    host_allowed,
    my_seat,
    protect,
    same_origin,
    seat_cookie,
    seat_holder,
    share_url,
    urls_available,
)
from web.http.howto import how_to
from web.http.yours import your_tables
from web.parts import fichas
from web.push.own_part import Mine
from web.push.publish import asked_as, flash_answer, name_field, render_partials, render_table, table_context
from web.templating.languages import current_language, in_words
from web.templating.refusals import refusal, says

bp = Blueprint("fichas", __name__)
TABLE_ID_MAX = 64


@bp.before_app_request
def guard():
    """A known Host; POSTs carry the CSRF token; a bad websocket handshake is refused before any upgrade."""
    if not host_allowed():
        abort(400, says("host"))
    if request.method == "POST":
        check_csrf()
    if request.path.endswith("/ws"):
        # No permessage-deflate: its zlib state costs ~250 KB per socket, and pushes are small.
        request.environ.pop("HTTP_SEC_WEBSOCKET_EXTENSIONS", None)
        check_handshake()
        if not same_origin():
            abort(403, says("origin"))
        if request.view_args is None:
            abort(404, says("no_table"))
        load_table(request.view_args.get("table_id", ""))


bp.after_app_request(protect)


@bp.app_context_processor
def template_globals():
    return {"csrf_token": csrf_token, "share_url": share_url}


@bp.app_errorhandler(400)
@bp.app_errorhandler(403)
@bp.app_errorhandler(404)
@bp.app_errorhandler(405)
@bp.app_errorhandler(410)
@bp.app_errorhandler(413)
@bp.app_errorhandler(500)
def http_error(error):
    """A readable page, or for htmx a message to show in #flash."""
    message = error.description
    if error.code in (413, 500) or message == type(error).description:  # Werkzeug's own English
        message = says({404: "no_page", 413: "too_large", 500: "server"}.get(error.code, "bad_request"))
    if not urls_available():  # a Host no URL can be built for: the page's links cannot be made
        return Response(message + "\n", error.code, mimetype="text/plain")
    if request.headers.get("HX-Request"):
        return render_template("_flash.html", message=message), error.code
    return render_template("error.html", code=error.code, message=message), error.code


@bp.app_errorhandler(TableGone)
def table_gone(error):
    """A table purged while this server held it (python -m live.purge): said so, on any route."""
    return http_error(Gone(says("removed")))


@bp.app_errorhandler(ConnectionError)
def client_gone(error):
    """The client hung up mid-answer (a phone losing its network during a handshake): nothing to
    log as a server error, and nobody left to read an answer."""
    return Response("", 400)


@bp.get("/")
def home():
    form = {"variant": DEFAULT_VARIANT, "seats": VARIANTS[DEFAULT_VARIANT].default_seats,
            "target": DEFAULT_TARGET, "chat": default_chat(VARIANTS[DEFAULT_VARIANT])}
    yours = your_tables()
    page = make_response(render_template("home.html", form=form, errors={}, yours=yours, **choices()))
    if yours:  # this browser's own tables: for it alone, and as they are now
        page.headers["Cache-Control"] = "no-store"
    return page


@bp.get("/rules")
def rules():
    """The rules page: how to play one game (`?game=`, the default game when none or unknown) above
    the full rules, with the times this server is set to (the spec's are 45, 5, 30, 15, 3 and 60 s)."""
    config = current_app.config
    times = {name: in_seconds(config[key]) for name, key in (
        ("turn", "TURN_SECONDS"), ("offline", "OFFLINE_SECONDS"), ("pause", "PAUSE_SECONDS"),
        ("grace", "GRACE_SECONDS"), ("settle", "SETTLE_SECONDS"), ("host_wait", "HOST_AWAY_SECONDS"))}
    variant = VARIANTS.get(request.args.get("game", ""), VARIANTS[DEFAULT_VARIANT])
    return render_template("rules.html", times=times, howto=how_to(variant), games=list(VARIANTS))


def in_seconds(seconds: float) -> str:
    """A time as the rules page says it, in whole seconds ("45 seconds", "1 second"; none: "0 seconds")."""
    return ngettext("%(num)s second", "%(num)s seconds", whole_seconds(seconds))


def whole_seconds(seconds: float) -> int:
    """A configured time said in whole seconds: a fraction of one is 1, none is 0."""
    return max(1, round(seconds)) if seconds > 0 else 0


@bp.post("/tables")
def create_table():
    form, errors = read_create_form()
    if not errors:
        try:
            table, secret = fichas().tables.create(form["name"], form["variant"], form["seats"],
                                                   form["target"], browser=browser_id(), chat=form["chat"])
        except BadInput as error:
            errors["name"] = refusal(error)[0]
        else:
            to_table = redirect(url_for(".show_table", table_id=table.id), 303)
            return just_seated(seat_cookie(to_table, table, secret), table)
    return render_template("home.html", form=form, errors=errors, **choices()), 400


# What a chat sticks to a link pasted at the end of a sentence ("…/t/abc." or "(…/t/abc)"): ids never end so.
PASTED_TAIL = re.compile(r"[^A-Za-z0-9_-]+$")


@bp.get("/t/<table_id>")
def show_table(table_id: str):
    clean = PASTED_TAIL.sub("", table_id)
    if clean != table_id and len(table_id) <= TABLE_ID_MAX and clean and fichas().tables.get(clean):
        return redirect(url_for(".show_table", table_id=clean), 302)
    table = load_table(table_id)
    seat = my_seat(table)
    message = lost_seat(table) if seat is None else None
    new_seat = seat is not None and JUST_SEATED in request.cookies
    # Through Tables, as the socket and every change take it: a table that left memory since it was found
    # (idle, or purged) is read as loaded again, or said to be gone, never from the copy left behind.
    with fichas().tables.locked(table) as table:
        page = make_response(render_template("table.html", **render_context(table, seat, message),
                                             new_seat=new_seat))
    if message is not None:  # told once: the cookie opens nothing any more
        page.delete_cookie(SEAT_COOKIE, path=f"/t/{table.id}", httponly=True, samesite="Lax",
                           secure=request.is_secure)
    if JUST_SEATED in request.cookies:  # offered once
        page.delete_cookie(JUST_SEATED, path=f"/t/{table.id}", httponly=True, samesite="Lax",
                           secure=request.is_secure)
    return page


# Set with a seat just taken (a table opened, a seat joined), for the table page that follows only: it
# then offers the private link back to the seat in sight (templates/table.html), for a second device.
JUST_SEATED = "fichas_seated"


def just_seated(response: Response, table: Table) -> Response:
    """Mark the answer that gives a seat, so that the next table page offers the seat's private link."""
    response.set_cookie(JUST_SEATED, "1", max_age=600, path=f"/t/{table.id}", httponly=True, samesite="Lax",
                        secure=request.is_secure)
    return response


@bp.post("/t/<table_id>/join")
def join(table_id: str):
    table = load_table(table_id)
    target = url_for(".show_table", table_id=table.id)
    # htmx would follow a 303 and swap the whole page into #flash: tell it to load the page.
    if request.headers.get("HX-Request"):
        response = make_response("", 204)
        response.headers["HX-Redirect"] = target
    else:
        response = redirect(target, 303)
    if my_seat(table) is not None:
        return response
    try:
        _, secret = fichas().tables.join(table, request.form.get("name", ""), browser=browser_id())
    except GameError as error:
        return flash_answer(*refusal(error), name_field(error, "join-name"))
    return just_seated(seat_cookie(response, table, secret), table)


@bp.post("/t/<table_id>/<any(play, pass, draw, 'next-round'):action>")
def act(table_id: str, action: str):
    """The HTTP API of the four moves (scripts, tests); pages send the same over their websocket."""
    table = load_table(table_id)
    seat = my_seat(table)
    if seat is None:
        abort(403, says("no_seat"))
    try:
        fichas().tables.act(table, seat, action.replace("-", "_"), request.form.get("version"),
                            tile=request.form.get("tile"), end=request.form.get("end"))
    except GameError as error:
        return refused(table, error)
    return "", 204


@bp.get("/t/<table_id>/record.json")
def record(table_id: str):
    """The current match's record, or with ?match=N that of the table's match N (earlier ones too)."""
    table = load_table(table_id)
    wanted = request.args.get("match")
    match_no = None if wanted is None else plain_number(wanted)
    if wanted is not None and match_no is None:
        abort(400, says("match_number"))
    data = fichas().tables.record(table, match_no)
    if data is None:
        abort(404, says("no_match", number=match_no))
    return jsonify(data)


def load_table(table_id: str) -> Table:
    """The table for a URL, or 404; 410 for a table that `python -m live.purge` removed."""
    if len(table_id) > TABLE_ID_MAX:
        abort(404, says("no_table"))
    table = fichas().tables.get(table_id)
    if table is None:
        if fichas().tables.was_purged(table_id):
            abort(410, says("removed"))
        abort(404, says("no_table"))
    return table


def render_context(table: Table, seat: int | None, message: str | None = None) -> dict:
    """A table page's context for this browser, with its #table and #me rendered (`message`: in #flash)."""
    shown, state = fichas().shown(table)  # under the table's lock (show_table)
    context = table_context(shown, state, seat)
    context["message"], context["asked"] = message, asked_as(shown, seat, seat_holder())
    env = current_app.jinja_env.in_language(current_language())
    context["table_html"] = Markup(render_table(env, context))
    context["me_html"] = Markup(Mine(env, context).whole())
    return context


def lost_seat(table: Table) -> str | None:
    """Why this browser, which held a seat at `table`, holds none now (the host handed it to someone
    else, or its private link opened it in another browser), in words; None if it never held one."""
    holder = seat_holder()
    lost = fichas().tables.lost_seat(table, holder) if holder else None
    if lost is None:
        return None
    if lost["kind"] == "reclaim":
        return says("reclaimed")
    return says("handed_over", name=shown_name(lost["name"]))


def refused(table: Table, error: GameError) -> Response:
    """A move's refusal, readable; a stale move also gets a fresh render of the table."""
    message, status = refusal(error)
    body = render_template("_flash.html", message=message)
    if isinstance(error, StaleVersion):
        with fichas().tables.locked(table) as table:  # the copy the change was refused by (show_table)
            body += render_partials(*fichas().shown(table), my_seat(table), True, message, seat_holder())[0]
    return Response(body, status, mimetype="text/html")


def choices() -> dict:
    """The host's options for the create form (rules T11, S1)."""
    return {"variants": variant_menu(), "seat_counts": seat_counts(), "targets": TARGETS,
            "chat_rules": CHAT_RULES, "default_chat": lambda name: default_chat(VARIANTS[name]),
            "name_field_max": NAME_FIELD_MAX,
            # The turn as this server is set (45 s by default), said on the form in whole seconds.
            "turn_seconds": whole_seconds(current_app.config["TURN_SECONDS"])}


def seat_counts() -> list[int]:
    """Every number of players some game is played by (the variants say: game/variants.py)."""
    return sorted({n for v in VARIANTS.values() for n in v.seat_choices})


def read_create_form() -> tuple[dict, dict]:
    """The create form's fields, and a message per invalid field."""
    form, errors = dict(request.form), {}
    form.pop("csrf_token", None)
    if form.get("variant") not in VARIANTS:
        errors["variant"] = says("unknown_variant")
    counts = seat_counts()
    for field, allowed in (("seats", counts), ("target", TARGETS)):
        form[field] = plain_number(form.get(field, ""), 3)
        if form[field] not in allowed:
            errors[field] = (_("Choose %(choices)s seats.", choices=in_words([str(n) for n in counts]))
                             if field == "seats" else says("target"))
    if form.get("variant") in VARIANTS and form.get("seats") is not None and "seats" not in errors:
        try:  # the variant says how many play it
            VARIANTS[form["variant"]].check_seats(form["seats"])
        except BadInput as error:
            errors["seats"] = refusal(error)[0]
    if "chat" not in form:  # a script's form: the game's default
        form["chat"] = default_chat(VARIANTS[form["variant"]]) if form.get("variant") in VARIANTS else None
    elif form["chat"] not in CHAT_RULES:
        errors["chat"] = says("chat_rule")
    name = form.get("name", "")
    form["name"] = name
    try:  # every field's message at once, the name's length and characters too
        clean_name(name)
    except BadInput as error:
        errors["name"] = refusal(error)[0]
    return form, errors
