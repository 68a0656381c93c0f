"""Templates rendered by Jinja, and small ones rendered once per shape, then filled in.

Each move renders a few small pieces that differ from one table to the next only in the values they
show (names, tiles, numbers), not in their markup or words. Such a piece is rendered once per
language and shape (the facts its template decides on) with a marked slot for each value; later
renders join the frame's parts with each value escaped, as Jinja's autoescape would write it. The
caller says which facts the template decides on (the shape) and gives the slots' values; a template
rendered so must not decide on a slot's value, nor pass one through a filter other than gettext's own
formatting (tests/web/templating/test_frames.py renders every framed piece of whole matches, and of every
shape, both ways and compares).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from jinja2 import Environment
from jinja2.runtime import new_context
from markupsafe import escape

from web.templating.cache import Cache

SLOT = re.compile("\x00(\\w+)\x00")  # a slot in a frame as rendered (no value or template writes NUL)
FRAMES = Cache(10_000)  # (language, template, shape) -> literal, slot, literal, ...: a few hundred occur


def rendered(env: Environment, name: str, values: dict) -> str:
    """A template rendered on `values`, which already hold the environment's globals.

    Template.render, but without copying every global into a new dict at each call, which costs
    more than rendering a small piece: a push renders ten of them (BENCHMARKS.md, "Speed"). Errors
    name the template's line, as Template.render's do. (Templates rendered so import no macros
    "with context": none of ours does.)
    """
    template = env.template(name)
    # No globals for the context to list either: Template.new_context would make a set of the
    # template's globals (a ChainMap) at every render; `values` already hold them.
    context = new_context(env, template.name, template.blocks, values, shared=True, globals=None)
    try:
        return "".join(template.root_render_func(context))
    except Exception:
        return env.handle_exception()  # raises it again, its traceback through the template's lines


def with_globals(env: Environment, context: dict) -> dict:
    """The values `rendered` takes: the environment's globals, then the context."""
    return {**env.globals, **context}


def slot(name: str) -> str:
    """What a template is given in place of a value, to mark where the value goes."""
    return f"\x00{name}\x00"


def framed(env: Environment, name: str, shape: tuple, stand_ins: Callable[[], dict], values: dict) -> str:
    """Template `name` as `rendered` would give it (stripped), from its frame for `shape`: markup, as
    a str (a push joins it with others; one put in a template is wrapped in Markup first).

    `stand_ins()`: the values to render the frame with, each slot's value replaced by `slot(its name)`,
    every fact of `shape` as it is; `values`: each slot's value.
    """
    key = (env.language, name, shape)
    frame = FRAMES.get(key)
    if frame is None:
        frame = FRAMES.keep(key, tuple(SLOT.split(rendered(env, name, stand_ins()).strip())))
    parts = [frame[0]]
    for i in range(1, len(frame), 2):  # split() puts each slot's name between two literals
        value = values[frame[i]]
        parts += (str(value) if type(value) is int else escaped(value), frame[i + 1])  # most are numbers
    return "".join(parts)


def escaped(value) -> str:
    """`value` as Jinja's autoescape writes it."""
    return escape(value)
