"""Rendering a table for its viewers: #table once per change and language, each viewer's own #me.

It reads a table only as live hands it over, a frozen Snapshot (live/snapshot.py), and the match only
through the engine's views; what it keeps per table (the last push, the line as laid) is its own
(web/push/pieces.py TableState, by table id).
"""

from __future__ import annotations

import json

from flask import Flask, Response, current_app
from markupsafe import Markup

from game.views import (
    LOG_SHOWN,
    hand_sizes,
    own_hand,
    player_panel,
    player_view,
    round_view,
    shown_missing,
    shown_name,
    shown_names,
    spectator_view,
    unseen_counts,
    variant_facts,
)
from live.snapshot import NAME_FIELD_MAX, Snapshot
from web.push.own_part import Mine, me_key
from web.push.pieces import Pieces, Pushed, TableState, decide, host_key, kept, moved_on, seat_facts, snapshot
from web.push.talk import talk_log
from web.templating.cache import Cache
from web.templating.frames import rendered, with_globals
from web.templating.languages import LANGUAGES, current_language, speaking
from web.ws.hub import Hub


def table_context(table: Snapshot, state: TableState, seat: int | None, panel: bool = True) -> dict:
    """What the partials of a table need, for one viewer; built under the table's lock.

    `panel`: with the viewer's own panel (a push works out each viewer's apart: none here).
    """
    view = spectator_view(table.match) if table.match else None
    return context_of(table, state, seat, view, handover_of(table), panel)


def context_of(table: Snapshot, state: TableState, seat: int | None, view: dict | None,
               handover: dict | None, panel: bool = True) -> dict:
    """table_context from the view given (all of it, or what a push in a round's play reads)."""
    now, due = table.now, table.due  # the turn's or the pause's end, as the players see it (never a wake's)
    # Templates get the table's public facts only, never the match (its round holds every hand).
    public = {"id": table.id, "version": table.version, "seats": table.seats, "target": table.target,
              "variant": variant_facts(table.variant, table.seats), "match_no": table.match_no,
              "earlier": table.earlier, "chat": table.chat}
    return {"table": public, "base": f"/t/{table.id}", "view": view, "seat": seat, "phase": table.phase,
            "players": shown_names(table.players),
            # A seat shows as gone once it is disconnected (S4): not while a reload is back within the settle.
            "connected": list(table.present),
            "remaining_ms": None if due is None else max(0, int((due - now) * 1000)),
            "total_ms": int(table.turn_seconds * 1000),  # a full turn: the countdown bar's length
            # The seconds a turn was cut to, its seat having been away (S4): its prompt says why; else 0.
            "cut_to": table.cut_to,
            "panel": player_panel(table.match, seat) if table.match and panel else None,
            # T13: the seat holding the host's choices (0: the host; None: nobody here to hold them).
            "host_away": table.host_away, "acting_host": table.acting_host,
            "name_field_max": NAME_FIELD_MAX, "handover": handover,
            "asked": None,  # a spectator's own request for a seat: per browser (asked_as)
            "rnd": view["round"] if view else None, "cross": table.variant.doubles_across, "due": due,
            "seq": state.pushed.seq, "laid": state.laid,
            # The first round of a match after the first: said as a new match (templates/_announce.html).
            "new_match": table.match_no > 1 and bool(view and view["round"] and view["round"]["number"] == 1)}


def play_context(table: Snapshot, state: TableState, before: Pushed, spectators: bool) -> tuple | None:
    """A push's context when the table has only moved on in the round's play since the push `before`
    (moves made; the same round, seats, holders and host), with each seat's tile count and missing
    numbers as `seat_keys` gives them; None otherwise (the push takes table_context).

    Such a push sends none of what the rest of the view shows (the scores, the sheet, the seats):
    its view holds the round, its log the new moves only, and the seats whose pieces are sent
    (`Push.__init__` adds them). The seats changing hands only show between rounds, but to a
    spectator (`spectators`: one is watching).
    """
    match, shape = table.match, before.shape
    rnd = match.round if match else None
    if (shape is None or rnd is None or rnd.over or match.over or rnd.number != before.round
            or len(rnd.events) <= before.moves or shape[0] != table.match_no or shape[2] != table.seats
            or shape[1] != tuple(shown_names(table.players))):
        return None
    shown = min(LOG_SHOWN, len(rnd.events) - before.moves)
    context = context_of(table, state, None, {"round": round_view(match, shown), "players": {}},
                         handover_of(table) if spectators else None, panel=False)
    if host_key(context) != before.away or seat_facts(context) != before.seats:
        return None
    counts = hand_sizes(rnd)
    if not any(event.action == "pass" for event in rnd.events[before.moves:]):  # only a pass shows one (T7)
        return context, counts, before.missing
    return context, counts, shown_missing(rnd)


def line_of(context: dict) -> tuple[list[tuple[str, str, str]], tuple[str, str]]:
    """The line's tiles, unmarked (templating/dominoes.py `placed`), and its two open ends' spots' classes."""
    rnd = context["rnd"]
    if not rnd:
        return [], ("", "")
    return context["laid"].laid(rnd["line"], rnd["left"], context["cross"],
                                (context["table"]["match_no"], rnd["number"]))


def render_table(env, context: dict, line: tuple | None = None) -> str:
    """The whole #table in the language of `env` (web/templating/translated.py), from its pieces.

    `line`: the line's tiles and ends as `line_of` gives them, when the caller has them already.
    """
    unmarked, spots = line or line_of(context)
    pieces = Pieces(env, context).whole(unmarked, spots)
    return rendered(env, "_table.html", {**with_globals(env, context), "pieces": pieces}).strip()


def render_partials(table: Snapshot, state: TableState, seat: int | None, oob: bool = False,
                    message: str | None = None, holder: str | None = None) -> tuple[str, tuple]:
    """The swappable parts of a table page for one viewer (#table, #unseen, #me), and #me's key.

    In an HTTP answer they go out of band (`oob`), with `message` shown in #me's #flash; `holder`: the
    hash of the seat secret the viewer's browser holds (a spectator's request for a seat, `asked_as`).
    """
    html, context = whole_page(table, state, seat, oob, message, holder)
    return html, me_key(context)


def send_whole(connection, table: Snapshot, state: TableState, message: str | None = None,
               again: bool = False) -> None:
    """Send one page the whole table (it connected, or missed a push), with `message` in its #flash;
    later pushes follow this one.

    Once per push at most (asking again before the next push gets nothing more: a page cannot
    make the table render for it in a loop), and never a seat's hand to a page whose seat changed hands.
    `again`: the page switched language in place (web/ws/endpoint.py), and gets it all the same; each
    render of this push is kept for the next switch, so switching back and forth renders nothing twice.
    """
    pushed = state.pushed
    if connection.whole_at == pushed.seq and not again:
        return
    if not still_holds(table, connection):
        connection.close()
        return
    holder = getattr(connection, "holder", None)
    if again:
        kept_wholes = pushed.wholes = pushed.wholes or {}  # none until a page switches: no object a push
        viewer = (connection.seat, current_language(), holder)
        made = kept_wholes.get(viewer)
        if made is None:
            made = kept_wholes[viewer] = whole_made(table, state, connection.seat, None, holder)
    else:
        made = whole_made(table, state, connection.seat, message, holder)
    html, key, unseen = made
    if connection.send(html):
        connection.me_key, connection.unseen = key, unseen
        connection.waiting = None  # its next push works out its #me again
        connection.seq = connection.whole_at = pushed.seq


def whole_made(table: Snapshot, state: TableState, seat: int | None, message: str | None,
               holder: str | None) -> tuple[str, tuple, bytes | None]:
    """A page's whole table (whole_page), the key of its #me and its unseen counts."""
    html, context = whole_page(table, state, seat, message=message, holder=holder)
    return html, me_key(context), unseen_of(context["panel"])


def whole_page(table: Snapshot, state: TableState, seat: int | None, oob: bool = False,
               message: str | None = None, holder: str | None = None) -> tuple[str, dict]:
    """#table, #unseen and #me for one viewer in this request's language, and their context."""
    context = table_context(table, state, seat)
    context.update(oob=oob, message=message, asked=asked_as(table, seat, holder))
    lang = current_language()
    env = current_app.jinja_env.in_language(lang)
    unseen = unseen_part(current_app, seat, unseen_of(context["panel"]), lang)
    if oob and unseen:  # an HTTP answer's main part goes to #flash: #unseen goes to its place
        unseen = unseen.replace('<div id="unseen"', '<div id="unseen" hx-swap-oob="true"', 1)
    talk = talk_log(current_app, table.id, table.talk, seat is None, lang)
    if oob:
        talk = talk.replace('<div id="talk-log"', '<div id="talk-log" hx-swap-oob="true"', 1)
    return render_table(env, context) + unseen + talk + Mine(env, context).whole(), context


def publish(app: Flask, hub: Hub, states: dict[str, TableState], table: Snapshot) -> None:
    """Push every page what changed: #table (whole, or only its changed pieces), its #unseen and its #me.

    A page that got the push before gets only the pieces that changed (web/push/pieces.py), during a
    round's play; any other page gets the whole #table. Each is rendered once per language in use
    (each page reads its own, chosen at its handshake); #me, whole or its changed pieces
    (web/push/own_part.py), once per seat, language and what the page last showed, and only for pages whose
    #me changed (a seat that waits for its turn with the same hand, as two of four do at each move,
    needs no work for it: `waiting_key`); #unseen only when this viewer's counts changed.
    """
    connections = hub.connections(table.id)
    state = states[table.id]  # a defaultdict: a table first pushed gets an empty state
    before = state.pushed
    if not connections:
        state.pushed = Pushed(before.seq + 1)  # nobody saw it: whoever comes gets the whole table
        return
    with app.app_context():
        push = Push(app, table, state, before, any(connection.seat is None for connection in connections))
        state.pushed = push.now
        for connection in connections:
            if not connection.alive:  # cut off or closing: its handler is about to unregister it
                continue
            if not still_holds(table, connection):  # a seat changed hands: it reconnects as what it is now
                connection.close()
                continue
            message, key, unseen, waiting = push.message_for(connection)
            if connection.send(message):
                connection.me_key, connection.unseen, connection.seq = key, unseen, push.now.seq
                connection.waiting = waiting


class Push:
    """One push of a table to its pages: what they share rendered once per language, each #me once
    per seat, language and what the page last showed."""

    def __init__(self, app: Flask, table: Snapshot, state: TableState, before: Pushed,
                 spectators: bool = True):
        self.app, self.table, self.state = app, table, state
        self.after = before.seq  # the push the pages last got
        # Straight to Jinja: partials need none of render_template's per-call context processors.
        self.templates = app.jinja_env.in_language  # each language has its own compiled templates
        played = play_context(table, state, before, spectators)  # a move in a round's play: most pushes
        if played:
            context, counts, missing = played
            self.whole = None  # a page that needs the whole table gets table_context's (`whole_context`)
        else:
            context = self.whole = table_context(table, state, None, panel=False)
        self.context = context
        context["seq"] = before.seq + 1  # this push's number, in its stamp
        self.tiles, self.spots = line_of(context)  # unmarked: a delta marks its new tiles only
        if played:
            self.now = moved_on(before, context, counts, missing, self.tiles, self.spots)
        else:
            self.now = snapshot(before.seq + 1, context, self.tiles, self.spots)
        kept(before, self.now)
        same_shape = self.now.shape and self.now.shape == before.shape
        self.decision = decide(before, self.now, context["rnd"], self.tiles) if same_shape else None
        if played:  # the seats whose count or missing numbers are sent
            players = context["view"]["players"]
            for s in (*self.decision.counts, *self.decision.missing):
                players[s] = player_view(table.match, s)
        self.shared_in: dict[tuple[str, bool], str] = {}  # (language, whole) -> #table or its changed pieces
        self.mine: dict[tuple, list] = {}  # (seat, language) -> [key, panel, {#me shown: what to send}]
        self.counts: dict[int, tuple] = {}  # a waiting seat -> its unseen counts
        self.talk_in: dict[tuple[bool, str], str] = {}  # (spectator, language) -> the talk log

    def message_for(self, connection) -> tuple[str, tuple, bytes | None, str | None]:
        """What this page is sent, and what it then shows: its #me's key, its counts, its waiting key."""
        seat, lang = connection.seat, getattr(connection, "lang", LANGUAGES[0])
        asked = asked_as(self.table, seat, getattr(connection, "holder", None))
        whole = self.decision is None or connection.seq != self.after
        message = self.shared(lang, whole)
        waiting = waiting_key(self.table, self.context, seat)
        if waiting is not None and waiting == connection.waiting and connection.seq == self.after:
            # Still waiting for its turn, with the same hand: its #me is as it was (no piece of it is
            # sent below: its key is the one the page shows); only its counts move.
            if seat not in self.counts:
                self.counts[seat] = bytes(unseen_counts(self.table.match.round, seat))
            key, unseen, panel = connection.me_key, self.counts[seat], None
        else:
            if (seat, lang, asked) not in self.mine:
                self.context["seat"], self.context["asked"] = seat, asked
                self.context["panel"] = player_panel(self.table.match, seat) if self.table.match else None
                self.mine[seat, lang, asked] = [me_key(self.context), self.context["panel"], {}]
            key, panel, _ = self.mine[seat, lang, asked]
            unseen = unseen_of(panel)
        message += self.unseen(connection, whole, unseen, lang)
        if whole:  # a whole #table holds an empty #talk-log: this viewer's follows
            message += self.talk(seat is None, lang)
        # #me: its pieces that changed since the page's last #me, or the whole #me where the page
        # has none of this frame (or missed a push: it gets the whole #table and #me).
        shown = connection.me_key if connection.seq == self.after else None
        if key != shown:
            message += self.own(seat, lang, panel, shown, key, asked)
        return message, key, unseen, waiting

    def shared(self, lang: str, whole: bool) -> str:
        """#table, whole or its changed pieces, in `lang` (rendered once per push)."""
        shared = self.shared_in.get((lang, whole))
        if shared is None:
            context = self.whole_context() if whole else self.context
            context["seat"], context["panel"], context["asked"] = None, None, None
            env = self.templates(lang)
            with speaking(self.app, lang):
                if whole:
                    shared = render_table(env, context, (self.tiles, self.spots))
                else:
                    shared = Pieces(env, context).delta(self.decision, self.tiles, self.spots)
            self.shared_in[lang, whole] = shared
        return shared

    def talk(self, spectator: bool, lang: str) -> str:
        """The talk log a player (or a spectator) reads, in `lang` (rendered once per push)."""
        log = self.talk_in.get((spectator, lang))
        if log is None:
            log = talk_log(self.app, self.table.id, self.table.talk, spectator, lang)
            self.talk_in[spectator, lang] = log
        return log

    def unseen(self, connection, whole: bool, unseen: bytes | None, lang: str) -> str:
        """This page's #unseen, or its counts that changed (#table holds an empty #unseen: a whole
        #table is always followed by this viewer's counts)."""
        if whole or connection.unseen is None:
            return unseen_part(self.app, connection.seat, unseen, lang)
        if unseen is None:  # the round is over: nothing left unseen to count
            return NO_UNSEEN
        if unseen == connection.unseen:
            return ""
        return "".join(unseen_count(self.app, n, count) for n, (was, count)  # each swapped by its id
                       in enumerate(zip(connection.unseen, unseen, strict=True)) if was != count)

    def own(self, seat: int | None, lang: str, panel: dict | None, shown: tuple | None, key: tuple,
            asked: str | None = None) -> str:
        """#me from what the page shows (`shown`) to `key`: its changed pieces, or whole (once each)."""
        sent = self.mine[seat, lang, asked][2]
        html = sent.get(shown)
        if html is None:
            delta = shown is not None and shown[0] == key[0]
            context = self.context if delta else self.whole_context()
            context["seat"], context["panel"], context["asked"] = seat, panel, asked
            with speaking(self.app, lang):
                me = Mine(self.templates(lang), context)
                html = sent[shown] = me.delta(shown, key) if delta else me.whole()
        return html

    def whole_context(self) -> dict:
        """The context a whole #table or #me is rendered from: table_context's, made once when a push
        in a round's play (`play_context`) meets a page that needs one."""
        if self.whole is None:
            self.whole = table_context(self.table, self.state, None, panel=False)
            self.whole["seq"] = self.context["seq"]
        return self.whole


NO_UNSEEN = '<div id="unseen" class="unseen"></div>'  # as #table holds it, outside a round's play
UNSEEN_FRAMES = Cache(100)  # (spectator, language) -> #unseen but its counts
COUNTS_SLOT = "\x00counts\x00"  # where the counts go in a frame (no template writes it)


def waiting_key(table: Snapshot, context: dict, seat: int | None) -> str | None:
    """What a seat's #me hangs on while it waits for its turn in a round's play (see `me_key`); None for
    a spectator, and for the seat to play (its #me shows the ends its tiles fit, its clock, ...)."""
    rnd = table.match.round if seat is not None and table.match else None
    if rnd is None or rnd.over or rnd.turn == seat or context["phase"] != "playing":
        return None
    # No seats changing hands in it: they do so between rounds only (HANDOVER_PHASES), and a seat's
    # #me shows them only then (mine.handover_shown).
    hand = own_hand(rnd, seat)
    # One string, not a tuple: kept from push to push, a tuple would pass the collector's young pass.
    return f'{table.match_no}|{rnd.number}|{hand}|{len(context["players"])}'


def unseen_of(panel: dict | None) -> bytes | None:
    """The counts of tiles not yet seen that a viewer's #unseen shows (None outside play); bytes,
    which the garbage collector never looks at (a page keeps them from push to push)."""
    counts = panel.get("unseen") if panel else None
    return bytes(counts) if counts else None


def unseen_part(app: Flask, seat: int | None, unseen: bytes | None, lang: str) -> str:
    """This viewer's #unseen, swapped by id into #table's empty one: its frame and each number's count
    are kept (a deal's counts take too many values to keep each #unseen whole)."""
    if unseen is None:
        return ""
    frame = UNSEEN_FRAMES.get((seat is None, lang))
    if frame is None:
        frame = UNSEEN_FRAMES.keep((seat is None, lang), unseen_frame(app, seat is None, lang))
    return frame[0] + "".join(unseen_count(app, n, count) for n, count in enumerate(unseen)) + frame[1]


def unseen_frame(app: Flask, spectator: bool, lang: str) -> tuple[str, str]:
    """#unseen in `lang` as the markup before its counts and after them."""
    with speaking(app, lang):
        template = app.jinja_env.in_language(lang).get_template("_unseen.html")
        html = template.render(counts=Markup(COUNTS_SLOT), spectator=spectator).strip()
    before, _, after = html.partition(COUNTS_SLOT)
    return before, after


UNSEEN_COUNTS = Cache(1_000)  # (number, count) -> its part of #unseen


def unseen_count(app: Flask, number: int, count: int) -> str:
    """One number's count in #unseen (no words in it: the same in every language)."""
    html = UNSEEN_COUNTS.get((number, count))
    if html is None:
        template = app.jinja_env.in_language(LANGUAGES[0]).get_template("_unseen_count.html")
        html = UNSEEN_COUNTS.keep((number, count), template.render(number=number, count=count).strip())
    return html


def still_holds(table: Snapshot, connection) -> bool:
    """Whether a page's seat is still its own (and a spectator's page was not handed one)."""
    holder = getattr(connection, "holder", None)
    if connection.seat is not None:
        return table.holders[connection.seat] == holder
    return holder is None or holder not in table.holders


def asked_as(table: Snapshot, seat: int | None, holder: str | None) -> str | None:
    """The name a spectator asked for a seat under, from this browser (`holder`: the hash of the
    secret its cookie holds, which the seat will take); None for a seat or anyone who did not ask."""
    if seat is not None or holder is None or not table.asks:
        return None
    return next((shown_name(name) for _, name, secret_hash in table.asks if secret_hash == holder), None)


def handover_of(table: Snapshot) -> dict | None:
    """Seats that may change hands (disconnected ones, but the host's: the host hands seats over; a seat
    reloading its page is not one, S4; and none twice between two rounds) and the spectators asking for
    one, once play began."""
    if table.phase == "waiting":
        return None
    free = [{"seat": s, "name": shown_name(table.players[s])} for s in table.free]
    asks = [{"id": key, "name": shown_name(name)} for key, name, _ in table.asks]
    return {"free": free, "asks": asks, "open": table.handover_open}


def flash_alone(message: str) -> str:
    """A refusal pushed to one page: it replaces what that page's #flash shows."""
    return current_app.jinja_env.get_template("_flash_box.html").render(message=message, alone=True)


NAME_REFUSALS = frozenset({"no_name", "name_long", "name_control", "name_taken"})  # about the name typed


def name_field(error, field: str) -> str | None:
    """`field` (the id of a form's name field) if `error` refused the name typed in it; else None."""
    return field if error.why in NAME_REFUSALS else None


def flash_answer(message: str, status: int, field: str | None = None) -> Response:
    """A refusal for htmx to show in the #flash the page has when the answer comes: a push may have
    replaced the form's #me meanwhile (the race for the last seat), and its old #flash with it.
    htmx then tells the page's body, where static/a11y.js hears it (the form is gone), and which
    field (its id) was refused: it is marked invalid and focused, as the home page's form does."""
    told = json.dumps({"fichas:refused": {"field": field}}) if field else "fichas:refused"
    return Response(flash_alone(message), status, mimetype="text/html",
                    headers={"HX-Reswap": "none", "HX-Trigger-After-Swap": told})
