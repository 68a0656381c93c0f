"""#table in pieces, and a push that sends only the pieces that changed since the one before.

Every push of a table has a number (`seq`). A page that got push n-1 whole or in part can be sent
push n as a delta: the stamp (version, round, moves, whose turn, the latest tile, and seq),
what is announced, the seats whose lasting facts changed, the tile counts, hands shown and missing
numbers that changed, the facts over the felt, the new tiles of the line, the line's open ends when
they moved, and the new moves of the log (the oldest shown one deleted), each swapped by its id
(htmx out-of-band swaps). The turn's highlight, the latest tile's mark and the seats' clocks are not
re-sent: static/fichas.js moves them as each stamp says (a clock runs from the time left that the
stamp carries). Through a whole match pushes are sent so: a round's first tile, its end (the
scores, the sheet, the result, the hands shown) and the next deal (the line and the log whole)
included. A new match or seat, and a page that connects or missed a push get the whole #table.
The keys below are language-free, so one delta per language in use is rendered from the same decision.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from jinja2 import Environment
from markupsafe import Markup

from game.views import LOG_SHOWN
from web.templating.cache import Cache
from web.templating.dominoes import LaidLine, marked, tiles_of
from web.templating.frames import framed, rendered, slot, with_globals


@dataclass
class Pushed:
    """What the pages of one table were last sent, as keys: the next push compares against them."""

    seq: int = 0  # pushes so far
    shape: tuple | None = None  # pushes of the same shape may be deltas (see `shape_of`)
    round: int = 0  # the round's number (a new round re-sends the line and the log whole)
    seats: list = field(default_factory=list)  # each seat's lasting facts (see `seat_keys`)
    counts: list = field(default_factory=list)  # each seat's tile count (None: none shown)
    reveals: list = field(default_factory=list)  # each seat's hand shown at the round's end
    missing: list = field(default_factory=list)  # the numbers each seat lacks (passes), as shown
    ends: str | None = None  # the facts over the felt
    scores: tuple | None = None  # each side's score (see `scores_key`)
    sheet: tuple | None = None  # the score sheet's rows (see `sheet_key`)
    result: tuple | None = None  # the round's result box (see `result_key`)
    targets: tuple | None = None  # each open end's number and spot (None: no ends shown)
    line: tuple[int, int] = (0, 0)  # the line's tiles, and how many of them lie left of the opening one
    moves: int = 0  # moves of the round so far
    away: str = ""  # whether the host was away and who held its choices (`host_key`: #me shows them)
    wholes: dict | None = None  # whole tables rendered for pages that switched language (publish.send_whole)


@dataclass
class TableState:
    """What the web layer keeps of one live table, in its own map by table id (web/parts.py `state`),
    never on the Table: what its pages were last pushed, and its line as laid on the felt."""

    pushed: Pushed = field(default_factory=Pushed)
    laid: LaidLine = field(default_factory=LaidLine)


@dataclass
class Decision:
    """Which pieces this push sends to pages that got the push before (a delta), in any language."""

    seats: list[int]  # seats whose lasting facts changed (re-sent whole)
    counts: list[int]  # other seats whose tile count changed
    reveals: list[int]  # other seats whose hand is shown, or no longer (their tiles' backs with it)
    missing: list[int]  # other seats that passed on numbers not yet shown
    new_round: bool  # the line and the log are sent whole
    ends: bool
    targets: str | list[int]  # "new": the line's first tile, "gone": the round's end; or the ends that moved
    scores: bool
    sheet: bool
    result: bool
    new_left: list[str]  # new tiles left of the line (html, in line order)
    new_right: list[str]  # new tiles right of the line
    last: str  # the id of the latest tile placed ("" if none): the stamp marks it
    moves: range  # the numbers of the new moves of the log
    dropped: range  # the numbers of the moves no longer shown in the log


def shape_of(context: dict) -> tuple | None:
    """What must stay the same for a delta: the match and the seats."""
    rnd = context["rnd"]
    if context["phase"] == "waiting" or rnd is None:
        return None  # waiting for players: the whole table
    return (context["table"]["match_no"], tuple(context["players"]), context["table"]["seats"])


SEAT_KEYS = {True: (True, True), False: (True, False)}  # taken, and connected or not: no new tuple a push
EMPTY_SEAT = (False,)


def seat_keys(context: dict) -> tuple[list, list, list, list]:
    """Each seat's keys, in one pass: what it shows (templates/_seat.html) but its pieces, its tile
    count (templates/_count.html; its backs follow it, by CSS; None: none shown), its hand shown at the
    round's end with its points (templates/_reveal.html; None: not shown) and the numbers it has shown
    it lacks (templates/_missing.html)."""
    view, taken = context["view"], len(context["players"]) if context["view"] else 0
    shown = view["players"] if view else ()
    counts, reveals, missing = [], [], []
    for s in range(context["table"]["seats"]):
        if s < taken:
            player = shown[s]
            counts.append(player["tiles"])
            reveals.append((tuple(player["hand"]), player["points"]) if "hand" in player else None)
            missing.append(tuple(player["missing"]))
        else:
            counts.append(None)
            reveals.append(None)
            missing.append(())
    return seat_facts(context), counts, reveals, missing


def seat_facts(context: dict) -> list:
    """Each seat's lasting facts as `seat_keys` gives them: taken, and connected."""
    connected, taken = context["connected"], len(context["players"])
    return [SEAT_KEYS[connected[s]] if s < taken else EMPTY_SEAT for s in range(context["table"]["seats"])]


def scores_key(context: dict) -> tuple | None:
    """Each side's name and score, and the match's winner (templates/_scores.html)."""
    view = context["view"]
    return (tuple((side["name"], side["score"]) for side in view["sides"]), view["winner"]) if view else None


def sheet_key(context: dict) -> tuple | None:
    """The score sheet's rows and the match it is of (templates/_sheet.html)."""
    view = context["view"]
    if not view:
        return None
    return (context["table"]["match_no"], len(view["sheet"]["rows"]), tuple(view["sheet"]["totals"]))


def host_key(context: dict) -> str:
    """Whether the host is away, and who holds the host's choices (T13): what pages show of the host."""
    return f'{context["host_away"]}|{context["acting_host"]}'


def result_key(context: dict) -> tuple | None:
    """The round's result, the match's end and the next round's countdown (templates/_result_box.html);
    once the match is over, whether the host is away (then any player may start the next)."""
    rnd, view = context["rnd"], context["view"]
    if not rnd or not rnd["result"]:
        return None
    away = view["match_over"] and host_key(context)
    return (repr(rnd["result"]), view["match_over"], view["winner_name"], context["due"], away)


def ends_key(context: dict) -> str:
    """Everything the facts over the felt show (templates/_ends.html)."""
    rnd = context["rnd"]  # one string: a tuple kept from push to push would pass the collector's young pass
    return (f'{rnd["number"]}|{rnd["ends"]}|{rnd["over"]}|{rnd["opening_tile"]}|{rnd["opener"]}'
            f'|{rnd["draws"] and rnd["boneyard"]}|{rnd["turn"]}')


def targets_key(context: dict, spots: tuple[str, str]) -> tuple | None:
    """Each open end of the line as it shows (templates/_target.html): its number and spot."""
    rnd = context["rnd"]
    if not rnd or not rnd["ends"] or rnd["over"]:
        return None
    return tuple(f"{end}{spot}" for end, spot in zip(rnd["ends"], spots, strict=True))


def snapshot(seq: int, context: dict, tiles: list[tuple[str, str, str]], spots: tuple[str, str]) -> Pushed:
    """Push `seq` as keys: what the next push is compared against."""
    rnd = context["rnd"]
    return Pushed(seq, shape_of(context), rnd["number"] if rnd else 0, *seat_keys(context),
                  ends_key(context) if rnd else None, scores_key(context),
                  sheet_key(context), result_key(context), targets_key(context, spots),
                  (len(tiles), rnd["left"] if rnd else 0), rnd["moves"] if rnd else 0, host_key(context))


def moved_on(before: Pushed, context: dict, counts: list, missing: list, tiles: list[tuple[str, str, str]],
             spots: tuple[str, str]) -> Pushed:
    """The push after `before` as keys, when only the round's play moved on since (web/push/publish.py
    `play_context`: the same round, seats, holders and host): each seat's facts, the hands shown,
    the scores, the sheet and the result are those of `before` (none can change in a round's play);
    `counts` and `missing`: each seat's, as `seat_keys` gives them."""
    rnd = context["rnd"]
    return Pushed(before.seq + 1, before.shape, before.round, before.seats, counts, before.reveals, missing,
                  ends_key(context), before.scores, before.sheet, before.result, targets_key(context, spots),
                  (len(tiles), rnd["left"]), rnd["moves"], before.away)


def kept(before: Pushed, now: Pushed) -> None:
    """Keep in `now` the keys of `before` that are equal: the new ones die at once.

    Keys live from one push to the next; each new one would be seen by the garbage collector's
    young pass, which thousands of tables keep busy.
    """
    for name in KEYS:
        was = getattr(before, name)
        if was == getattr(now, name):
            setattr(now, name, was)


KEYS = ("shape", "seats", "counts", "reveals", "missing", "ends", "scores", "sheet", "result", "targets",
        "line")


def decide(before: Pushed, now: Pushed, rnd: dict, tiles: list[tuple[str, str, str]]) -> Decision:
    """What changed from the push `before` to the push `now` (of the same shape, and after `kept`);
    `tiles`: the line's, unmarked (web/templating/dominoes.py `placed`), in line order."""
    seats = changed(before.seats, now.seats)
    counts = changed(before.counts, now.counts, seats)
    reveals = changed(before.reveals, now.reveals, seats)
    missing = changed(before.missing, now.missing, seats)
    new_round = now.round != before.round
    new_left = new_right = []
    added = dropped = range(0)
    if not new_round:
        # A placed tile never moves: the new ones are the first (left of the line) and the last ones.
        count, added_left = before.line[0], now.line[1] - before.line[1]
        new_left = [marked(rnd, i, tiles[i]) for i in range(added_left if count else len(tiles))]
        new_right = [marked(rnd, i, tiles[i]) for i in range(added_left + count, len(tiles))] if count else []
        # The log shows the latest LOG_SHOWN moves: one push may add more (a timed-out turn in Draw is
        # every tile drawn, then the play), so only those still shown are sent, and the shown ones
        # that fell out of it deleted.
        shown_before = max(1, before.moves - LOG_SHOWN + 1)
        shown_now = max(1, now.moves - LOG_SHOWN + 1)
        added = range(max(before.moves + 1, shown_now), now.moves + 1)
        dropped = range(shown_before, min(before.moves + 1, shown_now))
    if new_round:  # its line comes whole, with its ends
        targets = []
    elif before.targets is None or now.targets is None:
        targets = "new" if now.targets else "gone" if before.targets else []
    else:
        targets = [i for i in (0, 1) if before.targets[i] != now.targets[i]]
    # `kept` made each key equal to the one before that very object: `is not` says it changed.
    return Decision(seats, counts, reveals, missing, new_round, now.ends is not before.ends, targets,
                    now.scores is not before.scores, now.sheet is not before.sheet,
                    now.result is not before.result, new_left, new_right, last_tile(rnd, tiles),
                    added, dropped)


def changed(before: list, now: list, skip: list[int] | tuple = ()) -> list[int]:
    """The seats (but those in `skip`) whose key differs from `before` to `now` (lists `kept` has seen)."""
    if before is now:  # equal: `kept` kept the list before
        return []
    return [s for s, (was, key) in enumerate(zip(before, now, strict=True)) if was != key and s not in skip]


def last_tile(rnd: dict | None, tiles: list[tuple[str, str, str]]) -> str:
    """The id of the latest tile placed on the line, "" if none."""
    return tiles[rnd["last"]][0] if rnd and rnd["last"] is not None else ""


def stamp(context: dict, last: str) -> str:
    """The table's version (every move posts it) and this push's numbers, in #version.

    `seq` numbers the push. A push of changed pieces starts with its stamp and follows push seq - 1:
    a page that did not get that one asks for the whole table (static/fichas.js, which also copies
    these numbers onto #table, marks whose turn it is and the latest tile, and runs the clock of
    the seat to play from `data-clock-ms`, the time it has left). Its classes are the line's box on
    the felt (LaidLine.fit), from which static/fichas.css draws the line as large as the felt allows.
    Numbers only, no words: written here, not by a template, as every push sends one (markup, as a
    str: see rendering.framed).
    """
    rnd, left = context["rnd"], context["remaining_ms"]
    if rnd is None:
        number = moves = 0
        turn = optional = fit = ""
    else:
        fit = f' class="{context["laid"].fit}"' if context["laid"].fit else ""  # the line's box
        number, moves, turn = rnd["number"], rnd["moves"], rnd["turn"]
        turn = "" if turn is None else turn
        # The clock of the seat to play, the latest tile placed, and whether it was the latest move.
        optional = "" if turn == "" or left is None else f' data-clock-ms="{left}"'
        if last:
            optional += f' data-last="{last}"'
        if rnd["fresh"]:
            optional += ' data-fresh="1"'
    # Its first attributes in this order: outside tools read `id="version" name="version" value="N"`.
    return (f'<input type="hidden" id="version" name="version" value="{context["table"]["version"]}"'
            f' data-round="{number}" data-moves="{moves}" data-phase="{context["phase"]}" data-turn="{turn}"'
            f'{optional} data-seq="{context["seq"]}"{fit}>')


TARGETS_GONE = ('<button id="end-left" hx-swap-oob="delete"></button>'
                '<button id="end-right" hx-swap-oob="delete"></button>')
COUNTS = Cache(1_000)  # (language, seat, tiles, hand shown) -> a seat's count and backs
MISSING = Cache(10_000)  # (language, seat, the numbers it lacks) -> how its seat shows them
TARGETS = Cache(10_000)  # (language, end, its number, its spot) -> an open end of the line: about 7 x 2 x 150


def stand_in_move(e: dict, same_ends: bool = False) -> dict:
    """A logged move as its frame is rendered with (web/templating/frames.py): made by seat 0 (the frame's
    players are slots), its tile and its ends slots (one slot for both when they are one number)."""
    return {**e, "seat": 0, "tile": slot("tile"),
            "ends": [slot("left"), slot("left" if same_ends else "right")]}


class Pieces:
    """Renders #table's pieces in one language (its own compiled templates) for one state."""

    def __init__(self, env: Environment, context: dict):
        self.env, self.context = env, context

    @cached_property
    def values(self) -> dict:
        """What its templates are rendered with, made when first needed (a push's pieces are mostly
        framed or kept, and need none). The context must not change meanwhile: Pieces are used at once."""
        return with_globals(self.env, self.context)

    def render(self, name: str, **values) -> Markup:
        """One piece: its template rendered with the table's context (and a seat or move)."""
        return Markup(rendered(self.env, name, {**self.values, **values} if values else self.values).strip())

    def seat(self, s: int) -> Markup:
        """A seat, with its pieces rendered apart (an include would cost more than they do)."""
        view = self.context["view"]
        if not view or s >= len(self.context["players"]):  # no round dealt yet, or an empty chair: no pieces
            return self.render("_seat.html", s=s, count="", backs="", missing="", reveal="")
        player = view["players"][s]
        count, backs = self.count(s)
        return self.render("_seat.html", s=s, p=player, count=count, backs=backs, missing=self.missing(s),
                           reveal=self.reveal(s))

    def log_line(self, n: int) -> str:
        """Move n of the round (the log holds the latest LOG_SHOWN), from its frame (templating/frames.py)."""
        rnd = self.context["rnd"]
        e = rnd["log"][n - rnd["moves"] - 1]
        left, right = e.get("ends") or (None, None)
        shape = (e["action"], e.get("end"), left != right, bool(e.get("auto")))  # a pass on one number or two
        return framed(self.env, "_log_line.html", shape,
                      lambda: {**self.values, "n": slot("n"), "rnd": {"players": [slot("name")]},
                               "e": stand_in_move(e, left == right)},
                      {"n": n, "name": rnd["players"][e["seat"]], "tile": e.get("tile"),
                       "left": left, "right": right})

    def announce(self) -> str:
        """What a screen reader is told of the latest change; during play, from its frame."""
        rnd = self.context["rnd"]
        players = rnd["players"]  # who played the round
        if rnd["result"]:  # the round's end, with its result and the scores: rare, rendered whole
            return self.render("_announce.html")
        last = rnd["log"][-1] if rnd["log"] else None
        left, right = (last.get("ends") if last else None) or (None, None)
        shape = (last and (last["action"], last.get("end"), left != right, bool(last.get("auto"))),
                 bool(rnd["opening_tile"]), rnd["turn"] is None, not last and self.context["new_match"],
                 rnd["table_drew"])
        return framed(self.env, "_announce.html", shape, lambda: {
            **self.values, "phase": slot("phase"), "table": {"match_no": slot("match")},
            "rnd": {"number": slot("number"), "moves": slot("moves"),
                    "players": [slot("who"), slot("opener"), slot("next")],
                    "log": [stand_in_move(last, left == right)] if last else [],
                    "opening_tile": rnd["opening_tile"] and slot("opening"), "opener": 1, "result": None,
                    "table_drew": rnd["table_drew"],
                    "turn": None if rnd["turn"] is None else 2}},
            {"phase": self.context["phase"], "match": self.context["table"]["match_no"],
             "who": last and players[last["seat"]], "opener": players[rnd["opener"]],
             "next": None if rnd["turn"] is None else players[rnd["turn"]], "number": rnd["number"],
             "moves": rnd["moves"], "tile": last and last.get("tile"), "left": left, "right": right,
             "opening": rnd["opening_tile"]})

    def ends(self) -> str:
        """The facts over the felt: the round, the open ends, the boneyard, whose turn; from its frame."""
        rnd = self.context["rnd"]
        players = rnd["players"]
        shape = (bool(rnd["ends"]), rnd["over"], bool(rnd["opening_tile"]), bool(rnd["draws"]),
                 rnd["turn"] is None)
        ends = rnd["ends"] or (None, None)
        return framed(self.env, "_ends.html", shape, lambda: {
            **self.values,
            "rnd": {"number": slot("number"), "players": [slot("opener"), slot("next")],
                    "ends": rnd["ends"] and [slot("left"), slot("right")],
                    "over": rnd["over"], "opening_tile": rnd["opening_tile"] and slot("opening"), "opener": 0,
                    "draws": rnd["draws"], "boneyard": slot("boneyard"),
                    "turn": None if rnd["turn"] is None else 1}},
            {"number": rnd["number"], "left": ends[0], "right": ends[1], "opening": rnd["opening_tile"],
             "opener": players[rnd["opener"]], "next": None if rnd["turn"] is None else players[rnd["turn"]],
             "boneyard": rnd["boneyard"]})

    def count(self, s: int) -> tuple[Markup, Markup]:
        """A seat's tile count and the backs of its tiles, hidden while its hand is shown (the same
        at every table: kept). The backs' width follows the count (static/fichas.css)."""
        player = self.context["view"]["players"][s]
        key = (self.env.language, s, player["tiles"], "hand" in player)
        found = COUNTS.get(key)
        if found is None:
            found = COUNTS.keep(key, (self.render("_count.html", s=s, p=player),
                                      self.render("_backs.html", s=s, p=player)))
        return found

    def reveal(self, s: int) -> Markup:
        return self.render("_reveal.html", s=s, p=self.context["view"]["players"][s])

    def missing(self, s: int) -> Markup:
        """The numbers a seat has shown it lacks (the same at every table: kept)."""
        player = self.context["view"]["players"][s]
        key = (self.env.language, s, tuple(player["missing"]))
        found = MISSING.get(key)
        return found if found is not None else MISSING.keep(key, self.render("_missing.html", s=s, p=player))

    def targets(self, spots) -> Markup:
        """The line's two open ends, or nothing once the round is over (or before its first tile)."""
        rnd = self.context["rnd"]
        if not rnd["ends"] or rnd["over"]:
            return Markup()
        return self.target(0, spots) + self.target(1, spots)

    def target(self, i: int, spots) -> Markup:
        """Open end i of the line (0: left), kept: the same end at the same spot reads the same everywhere."""
        key = (self.env.language, i, self.context["rnd"]["ends"][i], spots[i])
        html = TARGETS.get(key)
        return html if html is not None else TARGETS.keep(key, self.render("_target.html", i=i, spots=spots))

    def whole(self, tiles: list[tuple[str, str, str]], spots) -> dict:
        """Every piece, for the whole #table (`tiles`: the line's, unmarked)."""
        rnd = self.context["rnd"]
        seats = [self.seat(s) for s in range(self.context["table"]["seats"])]
        pieces = {"stamp": Markup(stamp(self.context, last_tile(rnd, tiles))), "seats": seats,
                  "scores": self.render("_scores.html"), "sheet": self.render("_sheet.html"),
                  "result": self.render("_result_box.html")}
        if rnd:
            pieces.update(announce=Markup(self.announce()), ends=Markup(self.ends()),
                          line=self.line(tiles, spots), log=self.log())
        else:  # waiting for players: who took the latest seat
            pieces["announce"] = self.render("_announce.html")
        return pieces

    def line(self, tiles: list[tuple[str, str, str]], spots) -> Markup:
        """#line: its tiles (unmarked: marked here) and its open ends."""
        html = "".join(html for _, html in tiles_of(self.context["rnd"], tiles))
        return self.render("_line.html", tiles=Markup(html), targets=self.targets(spots))

    def log(self) -> Markup:
        """#log: the latest moves of the round, newest first."""
        rnd = self.context["rnd"]
        first = max(1, rnd["moves"] - len(rnd["log"]) + 1)
        lines = "".join(self.log_line(n) for n in range(rnd["moves"], first - 1, -1))
        return self.render("_log.html", lines=Markup(lines))

    def delta(self, decision: Decision, tiles: list[tuple[str, str, str]], spots) -> str:
        """The pieces a page that got the previous push needs, each an out-of-band swap."""
        parts = [stamp(self.context, decision.last), self.announce()]
        parts += [self.seat(s) for s in decision.seats]
        parts += [self.count(s)[0] for s in decision.counts]
        parts += [self.reveal(s) + self.count(s)[1] for s in decision.reveals]  # backs hidden, or shown again
        parts += [self.missing(s) for s in decision.missing]
        for changed, name in ((decision.scores, "_scores.html"), (decision.sheet, "_sheet.html"),
                              (decision.result, "_result_box.html")):
            if changed:
                parts.append(self.render(name))
        if decision.ends:
            parts.append(self.ends())
        if decision.new_round:  # a new deal: the line and the log start again
            parts += [self.line(tiles, spots), self.log()]
        if decision.new_left:
            parts.append(f'<div hx-swap-oob="afterbegin:#line">{"".join(decision.new_left)}</div>')
        if decision.new_right:  # the open ends' buttons come last in #line
            parts.append(f'<div hx-swap-oob="beforebegin:#end-left">{"".join(decision.new_right)}</div>')
        if decision.targets == "new":  # the line's first tile: the ends come last in #line, "empty" goes
            parts.append(f'<div hx-swap-oob="beforeend:#line">{self.targets(spots)}</div>'
                         '<span id="line-empty" hx-swap-oob="delete"></span>')
        elif decision.targets == "gone":  # the round is over: its ends are no longer targets
            parts.append(TARGETS_GONE)
        else:
            parts += [self.target(i, spots) for i in decision.targets]
        if decision.moves:
            lines = "".join(self.log_line(n) for n in reversed(decision.moves))
            parts.append(f'<ol hx-swap-oob="afterbegin:#log">{lines}</ol>')
        parts += [f'<li id="log-{n}" hx-swap-oob="delete"></li>' for n in decision.dropped]
        return "".join(parts)
