"""The dominoes as HTML: each form rendered once, when first shown; the line's tiles placed on the felt."""

from __future__ import annotations

from flask import Flask
from jinja2 import Environment
from markupsafe import Markup, escape

from game.chain import Growing, Spot
from web.templating.cache import Cache
from web.templating.compact import Compact
from web.templating.languages import tile_name

DOMINOES = Cache(1_000)  # (a, b, in_line, cross) -> markup: 196 forms
FACES = Cache(100)  # (a, b) -> a domino with no name: inside a control that names it
# A domino in the line, in three pieces: its spot's classes and its id go between them.
IN_LINE = Cache(200)  # (a, b, cross) -> pieces
CLASSES, ID = "\x01", "\x02"  # where those go when the pieces are rendered
TEMPLATES: list[Environment] = []  # the templates the dominoes are rendered from (init_rendering)


def render_domino(**values) -> str:
    """templates/_domino.html rendered with `values`."""
    return TEMPLATES[-1].get_template("_domino.html").render(**values).strip()


def domino(a: int, b: int, in_line: bool = False, cross: bool = False) -> Markup:
    """A domino showing a then b (each form rendered once: a push shows up to 40 of them)."""
    key = (a, b, in_line, cross)
    found = DOMINOES.get(key)
    if found is None:
        found = DOMINOES.keep(key, Markup(render_domino(a=a, b=b, in_line=in_line, cross=cross)))
    return found


def face(a: int, b: int) -> str:
    """A domino with no name of its own, inside a control that names it (a tile of a hand)."""
    found = FACES.get((a, b))
    return found if found is not None else FACES.keep((a, b), render_domino(a=a, b=b, bare=True))


def in_line(a: int, b: int, cross: bool) -> tuple[str, str, str]:
    """A domino in the line in three pieces: its spot's classes, then its id, go between them."""
    found = IN_LINE.get((a, b, cross))
    if found is None:
        head, rest = render_domino(a=a, b=b, in_line=True, cross=cross, at=CLASSES, key=ID).split(CLASSES)
        found = IN_LINE.keep((a, b, cross), (head, *rest.split(ID)))
    return found


def spot_classes(spot: Spot) -> str:
    """A spot on the felt as classes (static/fichas.css places them): " at x12 y-1 vert flip"."""
    return f" at x{spot.x} y{spot.y}{' vert' if spot.vertical else ''}{' flip' if spot.flip else ''}"


def tiles_of(rnd: dict, unmarked: list[tuple[str, str, str]]) -> list[tuple[str, str]]:
    """The line's tiles as (id, html) in line order, the latest placed marked (see `marked`);
    `unmarked`: each tile's id and its html around its marks (`placed`)."""
    return [(tile[0], marked(rnd, i, tile)) for i, tile in enumerate(unmarked)]


def marked(rnd: dict, i: int, tile: tuple[str, str, str]) -> str:
    """Tile i of the line as html: the latest placed marked `last` (and `fresh` if it was the latest move).

    A push of changed pieces marks its new tiles only: marking the whole line grew with the round.
    """
    if i != rnd["last"]:
        return f"{tile[1]}{tile[2]}"
    return f"{tile[1]}{' last fresh' if rnd['fresh'] else ' last'}{tile[2]}"


def placed(a: int, b: int, spot: Spot) -> tuple[str, str, str]:
    """One tile of the line at its spot: its id, and its html before and after where its marks go.

    Strings only: a line is kept per table (web/push/publish.py), and tuples of strings cost the
    garbage collector nothing once seen (a Spot, a named tuple, stays tracked).
    """
    head, middle, tail = in_line(a, b, spot.cross)
    return f"t-{spot.key}", f"{head}{spot_classes(spot)}", f"{middle}t-{spot.key}{tail}"


class LaidLine:
    """A table's line on the felt as HTML, kept as it grows: a move places only its new tiles.

    Laying the whole line out again at every push grew with the round (BENCHMARKS.md, "Speed").
    Any other line (a new round, a state replayed) is laid out afresh.
    """

    def __init__(self):
        self.growing: Growing | None = None
        self.round: tuple | None = None  # the round it lays out: (match, number)
        self.tiles: list[tuple[str, str, str]] = []  # each tile's id and html around its marks (`placed`)
        self.ends = ("", "")  # the classes of the spots of its two open ends
        self.box: tuple[int, int, int, int] | None = None  # tiles' and ends' box: left, top, right, bottom
        self.fit = ""  # that box as the stamp's classes (static/fichas.css scales the line to fit the felt)

    def laid(self, pairs: list, left: int, cross: bool,
             round_key: tuple) -> tuple[list[tuple[str, str, str]], tuple[str, str]]:
        """The line's tiles placed at their spots, unmarked, and its open ends' classes.

        `pairs`: the line's tiles as [a, b] in line order, `left` of them left of the opening one;
        `round_key`: the round's (match, number). In one round a line only grows at its ends: only
        its new tiles are written out as strings ("ab"; Growing checks the rest as it is). The list
        returned is the one kept, which grows in place at the next call: read it before.
        """
        growing = self.growing
        if growing and self.round == round_key and growing.across == cross:
            known, added = len(growing.line), left - growing.left
            if added == 0 and len(pairs) == known:
                return self.tiles, self.ends
            if added >= 0 and len(pairs) >= known + added:
                line = (*texts(pairs[:added]), *growing.line, *texts(pairs[added + known:]))
            else:
                line = texts(pairs)
        else:
            line = texts(pairs)
        self.round = round_key
        grown = growing.grow(line, left) if growing and growing.across == cross else None
        laid_out = grown is not None and bool(self.tiles)  # the ends shown before are this line's
        if grown is None:
            growing = self.growing = Growing(cross)
            self.tiles = []
            grown = growing.grow(line, left)
            self.box, self.fit = None, ""
        before, after = grown
        first, last = line[:len(before)], line[len(line) - len(after):]
        # In place: the list lives on from push to push (a new one would pass the collector's young pass).
        self.tiles[:0] = [placed(int(a), int(b), spot) for (a, b), spot in zip(first, before, strict=True)]
        self.tiles += [placed(int(a), int(b), spot) for (a, b), spot in zip(last, after, strict=True)]
        if not growing.line:
            self.ends = ("", "")
        elif not laid_out or before or after:  # only an end whose arm grew moves: a move grows one
            left_end = growing.left_end() if before or not laid_out else None
            right_end = growing.right_end() if after or not laid_out else None
            self.ends = (spot_classes(left_end) if left_end else self.ends[0],
                         spot_classes(right_end) if right_end else self.ends[1])
            self.widen([*before, *after, *(end for end in (left_end, right_end) if end)])
        return self.tiles, self.ends

    def widen(self, spots: list[Spot]) -> None:
        """Grow the line's box to hold `spots`, and say it as the stamp's classes (fx, fy, fw, fh).

        Placed tiles never move (game/chain.py): the box only grows, so the line zooms out as it grows.
        """
        left, top, right, bottom = self.box or (spots[0].x, spots[0].y, spots[0].x, spots[0].y)
        for spot in spots:
            left, top = min(left, spot.x), min(top, spot.y)
            right, bottom = max(right, spot.x + spot.width), max(bottom, spot.y + spot.height)
        self.box = left, top, right, bottom
        self.fit = f"fx{left} fy{top} fw{right - left} fh{bottom - top}"


def texts(pairs) -> tuple[str, ...]:
    """Tiles as strings, "ab" (kept from one push to the next: a tuple each would pass through the
    garbage collector's young passes)."""
    return tuple(f"{a}{b}" for a, b in pairs)


HAND_TILES = Cache(10_000)  # (language, what the tile shows: hand_tile_key) -> its html


def hand_tile_html(tile: dict, ends: list[int] | None, lang: str, drawn: bool) -> str:
    """One tile of a hand as #hand shows it in `lang` (its name is words), by its id `h-a-b`.

    A tile that fits both (different) open ends is a radio to choose before an end is tapped;
    one that fits one end is a button that plays it there; others are shown only. Each kept:
    a hand's tiles are shown at every push of its #me, in few ways.
    """
    two_ends = bool(ends) and ends[0] != ends[1]
    key = (lang, hand_tile_key(tile, two_ends, drawn))
    html = HAND_TILES.get(key)
    return html if html is not None else HAND_TILES.keep(key, hand_tile(tile, two_ends, drawn))


def hand_tile_key(tile: dict, two_ends: bool, drawn: bool) -> str:
    """What a tile of a hand shows (`hand_tile`'s form): the tile, the ends it fits, whether it offers
    a choice of two, whether it was just drawn ("3-5 left right both", "2-4 drawn"). One string:
    #me's keys keep it from push to push."""
    ends = tile["ends"]
    mark = " drawn" if drawn else ""
    if not ends:
        return tile["tile"] + mark
    both = " both" if two_ends and len(ends) == 2 else ""
    return f"{tile['tile']} {' '.join(map(str, ends))}{both}{mark}"


def hand_tile(tile: dict, two_ends: bool, drawn: bool) -> str:
    """One tile of a hand (see hand_tile_html); the tile just drawn is marked (class `drawn`) until
    the turn ends, as the prompt names it."""
    text, face_html = escape(tile["tile"]), face(tile["low"], tile["high"])
    drawn_class = " drawn" if drawn else ""
    if len(tile["ends"]) == 2 and two_ends:
        return (f'<label class="tile-btn fits{drawn_class}" data-tile="{text}" id="h-{text}">'
                f'<input type="radio" name="tile" value="{text}">'
                f'<span class="visually-hidden">{escape(tile_name(tile))}</span>{face_html}</label>')
    if tile["ends"]:
        end = escape(tile["ends"][0] or "")
        return (f'<button type="button" class="tile-btn fits{drawn_class}" data-tile="{text}" ws-send'
                f' hx-vals=\'{{"tile": "{text}", "end": "{end}"}}\''
                f' aria-label="{escape(tile_name(tile))}" id="h-{text}">{face_html}</button>')
    return (f'<span class="tile-btn{drawn_class}" data-tile="{text}" id="h-{text}" role="img"'
            f' aria-label="{text}">{face_html}</span>')


def domino_of(text: str) -> Markup:
    """The domino for a tile written "a-b"."""
    a, b = text.split("-")
    return domino(int(a), int(b))


def tile_in_words(text: str) -> Markup:
    """A tile's name ("6-4") as a sentence shows it: kept on one line (a phone broke "6-" from "4").

    Wraps what it is given without reading it, so a framed template may call it on a slot."""
    return Markup('<b class="tn">') + escape(text) + Markup("</b>")


def init_rendering(app: Flask) -> None:
    """Templates get the domino helpers and lose their indentation; the dominoes come from this app's."""
    app.jinja_env.add_extension(Compact)  # before any template is compiled
    app.jinja_env.globals.update(domino_of=domino_of, tile_in_words=tile_in_words)
    TEMPLATES[:] = [app.jinja_env]
