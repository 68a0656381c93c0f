"""No page shows an empty value by accident: every template, rendered with the routes' and the pushes' own
contexts, under a Jinja `Undefined` that fails on any use of a missing value (issue 43 item 7).

The seat-link page read `table.variant.name`, which its view did not pass: it said "una mesa de ." in
Spanish, "a  table" in English, "et -bord" in Danish, and no test noticed.
"""

from __future__ import annotations

import random

import pytest
from jinja2 import StrictUndefined, Undefined

from helpers import Browser, open_table
from helpers.pages import live_table, play_until, round_over, step
from helpers.screens import screens
from web.push import publish as pushing
from web.templating.languages import LANGUAGES
from web.ws.hub import Connection


class Missing(StrictUndefined):
    """Fails on any use of a missing value (printed, passed on, compared, iterated, looked into) but a
    truth test: `{% if errors.name %}`, `form.name or ''` are how templates ask whether it is there."""

    __bool__ = Undefined.__bool__


class Inbox:
    """A page's socket that keeps nothing: what matters is that its pushes render."""

    def send(self, data):
        pass


def strict(make_app, **config):
    """An app whose templates fail on any undefined value, in each language's environment."""
    app = make_app(**config)
    for env in (app.jinja_env, *app.jinja_env.__dict__.get("languages", {}).values()):
        env.undefined = Missing
    return app


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_renders_with_nothing_undefined(make_app, lang):
    """Every screen a player or a visitor meets (tests/helpers/screens.py), in each language."""
    shown = screens(strict(make_app), lang)
    assert len(shown) > 15


def test_the_pages_of_a_seat_changing_hands_render_with_nothing_undefined(make_app):
    """Between rounds, with seats away (no page open here): a visitor asks for one, the host is offered it."""
    app = strict(make_app, TABLES_OPTIONS={"rng": random.Random(5)})
    url, players = open_table(app, "block", 2, names=("Ana", "Bea"))
    play_until(app, url, players, random.Random(5), round_over)
    visitor = Browser(app)
    assert 'id="handover-ask"' in visitor.get(url).get_data(as_text=True)
    assert visitor.post(f"{url}/ask", {"name": "Zoe"}).status_code == 204
    assert "Zoe" in visitor.get(url).get_data(as_text=True)  # "You asked for a seat as Zoe"
    shown = players[0].get(url).get_data(as_text=True)
    assert 'id="handover-host"' in shown and "Give Bea's seat to Zoe" in shown


def test_the_seat_link_page_names_the_game(make_app):
    app = strict(make_app)
    url, _ = open_table(app, "block", 2, names=("Ana", "Bea"))
    said = {"en": "a Block table", "es": "una mesa de Bloqueo", "da": "et Block Domino-bord"}
    for lang, words in said.items():
        visitor = Browser(app)
        visitor.client.set_cookie("lang", lang)
        page = visitor.get(f"{url}/seat").get_data(as_text=True)
        assert words in page, (lang, page)


@pytest.mark.parametrize(("variant", "seats"), [("partnership", 4), ("draw", 3), ("block", 2)])
def test_every_push_of_whole_matches_renders_with_nothing_undefined(make_app, variant, seats):
    """Each push of two matches, for every seat's page and a spectator's, in each language."""
    app = strict(make_app, TABLES_OPTIONS={"rng": random.Random(seats)})
    names = ("Ana", "Bea", "Carl", "Dan")[:seats]
    url, players = open_table(app, variant, seats, target=50, names=names)
    table = live_table(app, url)
    live = app.extensions["fichas"]
    tables, hub = live.tables, live.hub
    for seat in [*range(seats), None]:
        for lang in LANGUAGES:
            connection = Connection(Inbox(), seat)
            connection.holder = table.secret_hashes[seat] if seat is not None else None
            connection.lang = lang
            hub.add(table.id, connection)
            tables.connect(table, seat)
    publish, pushes, failures = tables.publish, [], []

    def rendered_first(table) -> None:
        """Render this push for every page, keeping the failure (the tables log one and go on)."""
        try:
            with app.app_context():
                shown, state = app.extensions["fichas"].shown(table)
                push = pushing.Push(app, shown, state, state.pushed, spectators=True)
                for connection in hub.connections(table.id):
                    push.message_for(connection)
            pushes.append(table.version)
        except Exception as error:
            failures.append(f"version {table.version}: {error!r}")
        publish(table)

    tables.publish = rendered_first
    rng = random.Random(seats)
    play_until(app, url, players, rng, lambda t: t.phase == "over")
    step(app, url, players, rng)  # a new match
    play_until(app, url, players, rng, round_over)
    assert not failures, failures[:3]
    assert len(pushes) > 20
