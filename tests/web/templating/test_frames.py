"""Pieces filled into a frame read exactly as their templates render them, at every step of whole matches."""

from __future__ import annotations

import copy
import itertools
import random

import pytest
from markupsafe import escape

from app import create_app
from helpers.pages import choose_move
from web.push.own_part import KEPT, PROMPT, Mine, me_key
from web.push.pieces import Pieces
from web.push.publish import table_context
from web.templating.frames import FRAMES, rendered
from web.templating.languages import LANGUAGES, speaking

# Names a template must escape, one with a slot's own marker-like text, and plain ones.
NAMES = ('Ana <b>& "Bo"</b>', "O'Neil", "Zoë %(name)s", "Dan")


class Clock:
    """Time that moves only when a test says: turns run out on demand."""

    def __init__(self):
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def move(tables, table, clock, rng) -> None:
    """A legal move by the seat to act; now and then the clock's (a move played by the table), and
    now and then the seat to act reloads first (its turn is cut short, S4)."""
    if table.phase == "playing" and rng.random() < 0.15:
        seat = table.match.round.turn
        tables.connect(table, seat)
        tables.disconnect(table, seat)  # its page goes: as before, no page open ...
        clock.now += tables.timing.settle
        tables.expire(table.id)  # ... and once the table has seen it gone, the turn is cut
    if table.phase != "playing" or rng.random() < 0.2:
        clock.now = table.ends_at(clock.now) + 0.1
        assert tables.expire(table.id)
        return
    seat, action, fields = choose_move(table, rng)
    tables.act(table, seat, action, fields["version"], tile=fields.get("tile"), end=fields.get("end") or None)


def compare(app, tables, table) -> int:
    """Every framed piece of this state, framed and rendered, in every language; how many compared."""
    compared = 0
    for lang in LANGUAGES:
        env = app.jinja_env.in_language(lang)
        with speaking(app, lang):
            context = table_context(*app.extensions["fichas"].shown(table), None)
            rnd = context["rnd"]
            pieces = Pieces(env, context)
            assert pieces.announce() == pieces.render("_announce.html")
            assert pieces.ends() == pieces.render("_ends.html")
            first = max(1, rnd["moves"] - len(rnd["log"]) + 1)
            for n in range(first, rnd["moves"] + 1):
                entry = rnd["log"][n - rnd["moves"] - 1]
                assert pieces.log_line(n) == pieces.render("_log_line.html", e=entry, n=n)
            compared += 2 + rnd["moves"] - first + 1
            for seat in range(len(context["players"])):
                context = table_context(*app.extensions["fichas"].shown(table), seat)
                mine = Mine(env, context)
                # The prompt, kept by its key from table to table (web/push/own_part.py KEPT): its key holds
                # every fact it shows (the tile just drawn, a turn cut short), or another's is shown.
                assert mine.piece(PROMPT, "_prompt.html", me_key(context)) == mine.render("_prompt.html")
                compared += 1
                if context["panel"]["can"]["act"] or context["panel"]["mine"]:  # one's turn, or own move
                    assert mine.announce() == rendered(env, "_announce_me.html", mine.values).strip()
                    compared += 1
    return compared


@pytest.mark.parametrize(("variant", "seats", "seed"), [("partnership", 4, 1), ("draw", 2, 2),
                                                        ("draw", 3, 3), ("block", 4, 4)])
def test_framed_pieces_read_as_their_templates_render_them(tmp_path, variant, seats, seed):
    clock, rng = Clock(), random.Random(seed)
    app = create_app({"DATABASE": str(tmp_path / "f.sqlite3"), "START_CLOCK": False, "LIMITS": False,
                      "TABLES_OPTIONS": {"rng": random.Random(seed), "now": clock}})
    tables = app.extensions["fichas"].tables
    table, _ = tables.create(NAMES[0], variant, seats, 100)
    for name in NAMES[1:seats]:
        tables.join(table, name)
    FRAMES.clear()  # every frame made in this match, none kept from another test's
    KEPT.clear()
    compared, rounds = 0, set()
    with app.app_context():
        for _ in range(400):
            if table.match.over:
                break
            move(tables, table, clock, rng)
            rounds.add(table.match.round.number)
            compared += compare(app, tables, table)
    assert table.match.over and len(rounds) >= 2
    assert compared > 500 and len(FRAMES) > 20  # the frames were made and used, in every language


MOVES = (None, {"seat": 1, "action": "pass", "ends": [3, 3], "auto": True},
         {"seat": 2, "action": "pass", "ends": [0, 5], "auto": False},
         {"seat": 0, "action": "play", "tile": "6-6", "end": None, "auto": True},
         {"seat": 0, "action": "play", "tile": "1-2", "end": "left", "auto": False},
         {"seat": 1, "action": "play", "tile": "1-2", "end": "right", "auto": True},
         {"seat": 2, "action": "draw", "auto": True},  # as others see a draw: no tile
         {"seat": 2, "action": "draw", "tile": "0-0", "auto": False})


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_shape_of_a_move_reads_as_its_template_renders_it(tmp_path, lang):
    """The shapes random play reaches rarely: a pass when both ends show one number, moves by the table,
    the opening tile waiting, a round over; with names a template must escape."""
    app = create_app({"DATABASE": str(tmp_path / "f.sqlite3"), "START_CLOCK": False, "LIMITS": False,
                      "TABLES_OPTIONS": {"rng": random.Random(1)}})
    tables = app.extensions["fichas"].tables
    table, _ = tables.create('A<&"\'>', "draw", 3, 100)
    for name in ("B %(name)s %% {{x}}", "C"):
        tables.join(table, name)
    env = app.jinja_env.in_language(lang)
    compared = 0
    with app.app_context(), speaking(app, lang):
        state = table_context(*app.extensions["fichas"].shown(table), None)
        shapes = itertools.product(MOVES, (None, [4, 4], [0, 6]), ((False, 0), (False, 2), (True, None)),
                                   (None, "5-5"), (True, False), (False, True))
        for last, ends, (over, turn), opening, draws, new_match in shapes:
            context = copy.deepcopy(state)
            context["new_match"] = new_match  # round 1 of a match after the first: said as a new match
            context["rnd"].update(log=[last] if last else [], moves=7 if last else 0, ends=ends, over=over,
                                  turn=turn, opening_tile=opening, draws=draws, result=None, boneyard=9)
            pieces = Pieces(env, context)
            assert pieces.announce() == pieces.render("_announce.html")
            assert pieces.ends() == pieces.render("_ends.html")
            if last:
                assert pieces.log_line(7) == pieces.render("_log_line.html", e=last, n=7)
            if last and last["auto"] and last["action"] != "draw":  # the table drew first: one tile, or two
                for drew in (1, 2):
                    context["rnd"]["table_drew"] = drew
                    pieces = Pieces(env, context)
                    assert pieces.announce() == pieces.render("_announce.html")
                    who = escape(context["rnd"]["players"][last["seat"]])
                    drawn = f'>{who} drew {drew} tile{"s" if drew > 1 else ""}. {who} '  # before the move
                    assert lang != "en" or drawn in pieces.announce()
            compared += 1
    assert compared == len(MOVES) * 3 * 3 * 2 * 2 * 2
