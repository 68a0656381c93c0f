"""Rendering a table for its viewers: the shared #table once per change, each viewer's own #me."""

from __future__ import annotations

from itertools import product

from flask import Flask, current_app, render_template
from markupsafe import Markup

from game.chain import Spot, chain
from game.views import player_panel, spectator_view, variant_facts
from live.table import NAME_MAX, Table
from live.tables import HANDOVER_PHASES, Tables

from .hub import Hub
from .i18n import LANGUAGES, speaking, viewer_language

DOMINOES: dict[tuple[int, int, bool, bool], Markup] = {}  # (a, b, in_line, cross) -> markup
# A domino in the line, in three pieces: its spot's classes and its id go between them.
IN_LINE: dict[tuple[int, int, bool], tuple[str, str, str]] = {}  # (a, b, cross) -> pieces
CLASSES, ID = "\x01", "\x02"  # where those go when the pieces are rendered


def render_dominoes(app: Flask) -> None:
    """Render _domino.html once for every way a domino is shown (7 x 7 x in line x across)."""
    if DOMINOES:
        return
    template = app.jinja_env.get_template("_domino.html")
    for a, b, in_line, cross in product(range(7), range(7), (False, True), (False, True)):
        html = template.render(a=a, b=b, in_line=in_line, cross=cross).strip()
        DOMINOES[a, b, in_line, cross] = Markup(html)
        if in_line:
            html = template.render(a=a, b=b, in_line=True, cross=cross, at=CLASSES, key=ID).strip()
            head, rest = html.split(CLASSES)
            IN_LINE[a, b, cross] = (head, *rest.split(ID))


def domino(a: int, b: int, in_line: bool = False, cross: bool = False) -> Markup:
    """A domino showing a then b (rendered at start-up: a push shows up to 40 of them)."""
    return DOMINOES[a, b, in_line, cross]


def spot_classes(spot: Spot) -> str:
    """A spot on the felt as classes (static/fichas.css places them): " at x12 y-1 vert flip"."""
    return f" at x{spot.x} y{spot.y}{' vert' if spot.vertical else ''}{' flip' if spot.flip else ''}"


def line_of(rnd: dict, across: bool) -> tuple[Markup, list[str]]:
    """The line as a chain on the felt, in line order, and the classes of its two open ends' spots.

    Each domino is placed by classes, with an id that names its place from the opening tile (it
    keeps both as the line grows); the latest tile placed is marked `last` (and `fresh` if it
    was the latest move). One join instead of a template loop per tile.
    """
    line, last = rnd["line"], rnd["last"]
    spots, ends = chain(line, rnd["left"], across)
    mark = " last fresh" if rnd["fresh"] else " last"
    html = []
    for i, ((a, b), spot) in enumerate(zip(line, spots, strict=True)):
        head, middle, tail = IN_LINE[a, b, spot.cross]
        classes = spot_classes(spot) + mark if i == last else spot_classes(spot)
        html.append(f"{head}{classes}{middle}t-{spot.key}{tail}")
    return Markup("".join(html)), [spot_classes(spot) for spot in ends] if ends else ["", ""]


def domino_of(text: str) -> Markup:
    """The domino for a tile written "a-b"."""
    a, b = text.split("-")
    return domino(int(a), int(b))


def init_rendering(app: Flask) -> None:
    """Templates get the domino helpers; the dominoes are rendered once."""
    app.jinja_env.globals.update(domino=domino, domino_of=domino_of, line_of=line_of)
    render_dominoes(app)


def table_context(table: Table, tables: Tables, seat: int | None) -> dict:
    """What the partials of a table need, for one viewer; built under the table's lock."""
    now = tables.now()
    due = table.due_at()
    view = spectator_view(table.match) if table.match else None
    # Templates get the table's public facts only, never the Table (its round holds every hand).
    public = {"id": table.id, "version": table.version, "seats": table.seats, "target": table.target,
              "variant": variant_facts(table.variant, table.seats), "match_no": table.match_no}
    return {"table": public, "base": f"/t/{table.id}", "view": view, "seat": seat, "phase": table.phase,
            "players": table.players, "connected": [table.connected(s) for s in range(len(table.players))],
            "remaining_ms": None if due is None else max(0, int((due - now) * 1000)),
            "total_ms": int(table.clock.timing.turn * 1000),  # a full turn: the countdown bar's length
            "panel": player_panel(table.match, seat) if table.match else None,
            "host_away": table.away(0, now), "name_max": NAME_MAX, "handover": handover_of(table)}


def me_key(context: dict) -> tuple:
    """Everything `_me.html` shows: equal keys mean #me need not be re-sent.

    Kept rather than comparing rendered #me: rendering every seat's #me at every push costs
    about 120 µs more per move (a tenth of a move's CPU), and this key also leaves out the
    clock, so a presence push does not wipe a tile being chosen. The unseen counts are not in
    #me: they change at almost every move and travel as #unseen, after #table (see `publish`).
    """
    panel = context["panel"]
    if panel:
        panel = {name: value for name, value in panel.items() if name != "unseen"}
    acting = bool(panel and panel["can"]["act"])
    # While acting, each new state (not each push: presence changes must not wipe a chosen tile).
    now_playing = context["table"]["version"] if acting else None
    # Seats changing hands: what a spectator may ask for, and what the host may hand over (only
    # between rounds: a presence change while the host plays must not wipe a tile being chosen).
    handover = context["handover"]
    if context["seat"] is not None and not (context["seat"] == 0 and handover and handover["open"]):
        handover = None
    return (context["phase"], context["seat"], len(context["players"]), repr(panel), now_playing,
            context["host_away"], repr(handover))


def render_partials(table: Table, tables: Tables, seat: int | None, oob: bool = False,
                    message: str | None = None) -> tuple[str, tuple]:
    """The swappable parts of a table page for one viewer (#table, #unseen, #me), and #me's key.

    In an HTTP answer they go out of band (`oob`), with `message` shown in #me's #flash.
    """
    context = table_context(table, tables, seat)
    context.update(oob=oob, message=message)
    unseen = unseen_part(current_app, seat, unseen_of(context["panel"]), viewer_language())
    html = render_template("_table.html", **context) + unseen + render_template("_me.html", **context)
    return html, me_key(context)


def publish(app: Flask, hub: Hub, tables: Tables, table: Table) -> None:
    """Push every browser the shared #table (once per language in use), its #unseen, and its #me if changed.

    Each page reads its own language (chosen at its handshake): #table is rendered once for each
    language someone at the table reads, #me once per seat and language, both under that locale.
    """
    connections = hub.connections(table.id)
    if not connections:
        return
    # Straight to Jinja: partials need none of render_template's per-call context processors.
    # Each language has its own compiled templates (web/wording.py).
    templates = app.jinja_env.in_language
    with app.app_context():
        context = table_context(table, tables, None)
        shared_in: dict[str, str] = {}  # language -> the shared #table in it
        mine: dict[tuple, list] = {}  # (seat, language) -> [key, panel, html rendered on demand]
        for connection in connections:
            if not connection.alive:  # cut off or closing: its handler is about to unregister it
                continue
            seat = connection.seat
            if not still_holds(table, connection):  # a seat changed hands: it reconnects as what it is now
                connection.close()
                continue
            lang = getattr(connection, "lang", LANGUAGES[0])
            shared = shared_in.get(lang)
            if shared is None:
                context["seat"], context["panel"] = None, None
                with speaking(app, lang):
                    shared = shared_in[lang] = templates(lang).get_template("_table.html").render(context)
            if (seat, lang) not in mine:
                context["seat"] = seat
                context["panel"] = player_panel(table.match, seat) if table.match else None
                mine[seat, lang] = [me_key(context), context["panel"], None]
            key, panel, html = mine[seat, lang]
            # #table holds an empty #unseen: this viewer's counts follow it in the same message.
            shared_and_unseen = shared + unseen_part(app, seat, unseen_of(panel), lang)
            if key == connection.me_key:
                connection.send(shared_and_unseen)
                continue
            if html is None:
                context["seat"], context["panel"] = seat, panel
                with speaking(app, lang):
                    html = mine[seat, lang][2] = templates(lang).get_template("_me.html").render(context)
            if connection.send(shared_and_unseen + html):
                connection.me_key = key


UNSEEN_PARTS: dict[tuple, str] = {}  # (spectator, counts, language) -> #unseen


def unseen_of(panel: dict | None) -> tuple | None:
    """The counts of tiles not yet seen that a viewer's #unseen shows (None outside play)."""
    counts = panel.get("unseen") if panel else None
    return tuple(counts) if counts else None


def unseen_part(app: Flask, seat: int | None, unseen: tuple | None, lang: str) -> str:
    """This viewer's #unseen, swapped by id into #table's empty one (rendered once per value)."""
    if unseen is None:
        return ""
    key = (seat is None, unseen, lang)
    if key not in UNSEEN_PARTS:
        if len(UNSEEN_PARTS) > 10_000:  # a few hundred values occur; never grow without bound
            UNSEEN_PARTS.clear()
        with speaking(app, lang):
            template = app.jinja_env.in_language(lang).get_template("_unseen.html")
            html = template.render(unseen=unseen, spectator=seat is None)
        UNSEEN_PARTS[key] = html.strip()
    return UNSEEN_PARTS[key]


def still_holds(table: Table, connection) -> bool:
    """Whether a page's seat is still its own (and a spectator's page was not handed one)."""
    holder = getattr(connection, "holder", None)
    if connection.seat is not None:
        return table.secret_hashes[connection.seat] == holder
    return holder is None or holder not in table.secret_hashes


def handover_of(table: Table) -> dict | None:
    """Seats that may change hands (disconnected ones) and the spectators asking for one, once play began."""
    if table.phase == "waiting":
        return None
    free = [{"seat": s, "name": name} for s, name in enumerate(table.players) if not table.connected(s)]
    asks = [{"id": key, "name": ask.name} for key, ask in table.asks.items()]
    return {"free": free, "asks": asks, "open": table.phase in HANDOVER_PHASES}


def flash_alone(message: str) -> str:
    """A refusal pushed to one page: it replaces what that page's #flash shows."""
    return current_app.jinja_env.get_template("_flash_box.html").render(message=message, alone=True)
