"""QR codes of a table's link and of a seat's private link, drawn on the server as SVG (segno).

Each is its own same-origin image (an <img>), so a table page stays as light as before: a browser
fetches the code only where it is shown (the waiting room, the menu). The table's code is anyone's who
can see the table's link; the private link's code only its seat's own browser gets (its cookie).
"""

from __future__ import annotations

import io

import segno
from flask import Blueprint, Response, abort, request, url_for

from web.guard.security import SEAT_COOKIE, my_seat, share_url
from web.http.routes import load_table
from web.templating.cache import Cache
from web.templating.refusals import says

bp = Blueprint("qr", __name__)
DAY = 60 * 60 * 24
TABLE_CODES = Cache(256)  # a table's link -> its QR code (a waiting room's page may be opened often)


def qr_svg(link: str) -> bytes:
    """`link` as a QR code in SVG: black on white with its quiet zone (4 modules), crisp at any size.

    Error correction M (15 %): a screen's glare or a finger over a corner still scans, and a table's
    link stays a version 3 code (29 modules), whose modules are large enough to read across a room.
    """
    out = io.BytesIO()
    segno.make(link, error="m", micro=False, boost_error=False).save(
        out, kind="svg", border=4, xmldecl=False, svgns=True, omitsize=True, light="#fff", dark="#000",
        svgclass=None, lineclass=None)
    return out.getvalue().replace(b"<path ", b'<path shape-rendering="crispEdges" ')


def svg(data: bytes) -> Response:
    return Response(data, mimetype="image/svg+xml")


@bp.get("/t/<table_id>/qr.svg")
def table_qr(table_id: str):
    """The table's link as a QR code (FICHAS_PUBLIC_URL's address, like the link beside it)."""
    table = load_table(table_id)
    link = share_url(url_for("fichas.show_table", table_id=table.id))
    code = TABLE_CODES.get(link)
    response = svg(code if code is not None else TABLE_CODES.keep(link, qr_svg(link)))
    response.headers["Cache-Control"] = f"public, max-age={DAY}"  # a table's link never changes
    return response


@bp.get("/t/<table_id>/seat-qr.svg")
def seat_qr(table_id: str):
    """The seat's private link as a QR code, for its own browser only (never stored: it opens the seat)."""
    table = load_table(table_id)
    if my_seat(table) is None:
        abort(403, says("no_seat"))
    link = share_url(url_for("seats.reclaim", table_id=table.id)) + "#" + request.cookies[SEAT_COOKIE]
    return svg(qr_svg(link))  # never kept: a secret stays out of memory
