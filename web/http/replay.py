"""Replays: any finished round of a table's matches, move by move with every hand open (T9), and any
domino-match/1 record a visitor brings (checked by the engine, never stored).

A position is its own URL (`?move=14`, shown at `#move-14`): plain links without JavaScript; htmx swaps
#replay alone on a step. The round being played has no replay: the table's record holds finished rounds
only (game/record.py export_match), so nothing of it can reach these pages.
"""

from __future__ import annotations

import html
import json
import logging

from flask import Blueprint, Response, abort, make_response, render_template, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup

from game.errors import BadRecord
from game.match import Match
from game.record import load_match
from game.replay import fault, moves_of, position
from live.store import TableGone
from live.table import plain_number
from web.guard.security import share_url
from web.http.routes import load_table
from web.parts import fichas
from web.templating.dominoes import LaidLine, tiles_of
from web.templating.refusals import says

bp = Blueprint("replay", __name__)
log = logging.getLogger(__name__)
RECORD_MAX = 256 * 1024  # an uploaded or pasted record, in bytes
FORM_ROOM = 16 * 1024  # the form around it (its other fields, the multipart boundaries)


@bp.url_value_preprocessor
def room_for_a_record(endpoint: str | None, values: dict | None) -> None:
    """A record's form may be larger than any other request (16 KB): set before the guard reads it."""
    if endpoint == "replay.upload":
        request.max_content_length = RECORD_MAX + FORM_ROOM


@bp.errorhandler(413)
def too_large(error):
    """A record past the limit, however sent (the guard reads the form first): the form again, saying so."""
    return refused(_("A record may be at most 256 KB."), 413)


@bp.get("/t/<table_id>/matches/<int:match_no>/rounds/<int:number>")
def table_round(table_id: str, match_no: int, number: int):
    """Round `number` of the table's match `match_no`, at `?move=`; 404 for a round still played."""
    table, match = finished_rounds(table_id, match_no, number)
    base = url_for(".table_round", table_id=table.id, match_no=match_no, number=number)
    where = {"table": table, "match_no": match_no, "base": base,
             "back": url_for("fichas.show_table", table_id=table.id),
             "rounds_urls": [url_for(".table_round", table_id=table.id, match_no=match_no, number=n)
                             for n in range(1, len(match.rounds) + 1)],
             "text_url": url_for(".table_round_text", table_id=table.id, match_no=match_no, number=number),
             "share": share_url(base)}
    return replay_page(match, number, wanted_move(), where)


@bp.get("/t/<table_id>/matches/<int:match_no>/rounds/<int:number>.txt")
def table_round_text(table_id: str, match_no: int, number: int):
    """The round in words, one line a move, in the viewer's language: to paste in a message."""
    table, match = finished_rounds(table_id, match_no, number)
    text = round_text(match, number, _("match %(number)s", number=match_no))
    response = Response(text, mimetype="text/plain")
    name = f"fichas-{table.id}-match-{match_no}-round-{number}.txt"
    response.headers["Content-Disposition"] = f'inline; filename="{name}"'
    return response


def finished_rounds(table_id: str, match_no: int, number: int) -> tuple:
    """The table and its match `match_no` replayed from its record (finished rounds only), or 404: no such
    match, the round is being played or there is none, or an earlier match that cannot be read."""
    table = load_table(table_id)
    try:
        record = fichas().tables.record(table, match_no)
    except TableGone:
        raise
    except Exception:  # an earlier match whose record no longer reads (live/records.py leaves it off too)
        log.exception("table %s: match %s cannot be replayed", table.id, match_no)
        record = None
    if record is None:
        abort(404, says("no_match", number=match_no))
    if not 1 <= number <= len(record["rounds"]):
        abort(404, not_replayable(table, match_no, number))
    try:
        return table, load_match(record)  # checked again: a record is never trusted, not even the table's own
    except BadRecord:
        log.exception("table %s: match %s's record does not replay", table.id, match_no)
        abort(404, says("no_match", number=match_no))


def not_replayable(table, match_no: int, number: int) -> str:
    """Why round `number` of match `match_no` has no replay: it is being played, or there is none."""
    with fichas().tables.locked(table) as table:
        match = table.match
        live = (match_no == table.match_no and match is not None and match.round is not None
                and match.round.number == number and not match.round.over)
    if live:
        return _("Round %(number)s is still being played: its replay opens once it ends.", number=number)
    return _("Match %(match)s has no finished round %(number)s.", match=match_no, number=number)


def wanted_move(field: str | None = None) -> int | None:
    """The position asked for (`?move=`), None: the round's start."""
    value = field if field is not None else request.args.get("move")
    return plain_number(value, 4) if value else None


@bp.get("/replay")
def form():
    """The form: a record file from any Fichas table, or pasted."""
    return render_template("replay_form.html", error=None)


@bp.post("/replay")
def upload():
    """A record replayed (checked completely, never stored); a refused one says where it first goes wrong."""
    text = sent_record()
    if text is None:
        return too_large(None)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return refused(not_a_record())
    try:
        match = load_match(data)
    except (BadRecord, RecursionError):
        return refused(fault_words(fault(data)))
    except Exception:  # anything the engine did not foresee in a made-up record: refused, never a 500
        return refused(_("This record cannot be read as a Fichas match."))
    if not match.rounds:
        return refused(_("This record has no round to replay."))
    number, moves = asked_position(request.form.get("at", ""))
    where = {"table": None, "match_no": None, "base": url_for(".upload"), "back": url_for(".form"),
             "rounds_urls": None, "text_url": None, "record": text, "share": None}
    return replay_page(match, max(1, min(number, len(match.rounds))), moves, where)


def asked_position(at: str) -> tuple[int, int]:
    """A step's button ("2-14": round 2 after 14 moves); the first round's deal when none or unreadable."""
    round_text, _dash, move_text = at.partition("-")
    return plain_number(round_text, 3) or 1, plain_number(move_text, 4) or 0


def sent_record() -> str | None:
    """The record sent: the file `record`, else the pasted text `record`; None past RECORD_MAX bytes."""
    upload = request.files.get("record")
    raw = upload.read(RECORD_MAX + 1) if upload is not None and upload.filename else None
    if raw is None:
        raw = request.form.get("record", "").encode()
    if len(raw) > RECORD_MAX:
        return None
    if not raw.strip():
        abort(400, _("Choose a record file, or paste one."))
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        abort(400, not_a_record())


def not_a_record() -> str:
    return _("This is not a match record: a record is a JSON file, as a table's score sheet gives.")


def refused(message: str, status: int = 400) -> Response:
    """The form again, with why the record was refused (400, or 413: too large)."""
    if request.headers.get("HX-Request"):
        return make_response(render_template("_flash.html", message=message), status)
    return make_response(render_template("replay_form.html", error=message), status)


def fault_words(found: dict) -> str:
    """Where a record first goes wrong, in the viewer's language."""
    kind, number, move = found["kind"], found.get("round"), found.get("move")
    if kind == "format":
        return _("This is not a Fichas match record: its format must be domino-match/1.")
    if kind == "shape":
        return _("The record's game, seats, target or players are not those of a match Fichas plays.")
    if kind == "deal":
        return _("Round %(round)s: its deal is wrong (each of the 28 tiles once, the right number in each "
                 "hand).", round=number)
    if kind == "auto":
        return _("Round %(round)s, move %(move)s is marked as the table's move, but the table plays the "
                 "first tile that fits (S3): %(tile)s.", round=number, move=move,
                 tile=found["tile"] or _("a pass"))
    if kind == "drawn":
        return _("Round %(round)s, move %(move)s: the boneyard gives %(tile)s, not %(written)s.",
                 round=number, move=move, tile=found["tile"], written=found["written"])
    if kind == "event":
        error = found["error"]
        why = says(error.why, **error.facts) if error is not None else ""
        why = why or _("it is not a move the rules allow there.")
        return _("Round %(round)s, move %(move)s is wrong: %(why)s", round=number, move=move, why=why)
    if kind == "result":
        return _("Round %(round)s: its result or its ends are not what its moves give.", round=number)
    return _("The match's scores or its winner are not what its rounds give.")


def replay_page(match: Match, number: int, moves: int | None, where: dict) -> Response:
    """The replay at a position: the whole page, or for htmx #replay alone."""
    pos = position(match, number, 0 if moves is None else moves)
    share = where["share"] and f"{where['share']}?move={pos['at']}#move-{pos['at']}"
    context = {**where, "share": share, "pos": pos, "moves": moves_of(match, number),
               "line": line_html(match, pos), "text": round_text(match, number, None)}
    if request.headers.get("HX-Request") and request.headers.get("HX-Target") == "replay":
        return make_response(render_template("_replay.html", **context))
    return make_response(render_template("replay.html", **context))


def line_html(match: Match, pos: dict) -> dict:
    """The line at `pos` as the table draws it (game/chain.py's grid), and its box's classes."""
    laid = LaidLine()
    cross = match.variant.doubles_across
    tiles, _ends = laid.laid(pos["line"], pos["left"], cross, ("replay", pos["number"]))
    html = "".join(markup for _id, markup in tiles_of({"last": pos["last"], "fresh": False}, tiles))
    return {"tiles": Markup(html), "fit": laid.fit}


def round_text(match: Match, number: int, heading: str | None) -> str:
    """Round `number` as plain text, one line a move ("12. Ana placed 5-3 on the right"), in the viewer's
    language."""
    pos = position(match, number, len(match.rounds[number - 1].events))
    dealt = [seat["hand"] for seat in position(match, number, 0)["seats"]]
    text = render_template("replay.txt", pos=pos, moves=moves_of(match, number), heading=heading,
                           game=match.variant.name, dealt=dealt)
    # The sentences come from HTML templates, escaped: a name with "&" reads as typed in plain text.
    return html.unescape(str(text)).strip() + "\n"
