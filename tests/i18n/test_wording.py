"""Templates compiled per language say exactly what gettext called at render time would have said."""

from __future__ import annotations

import pytest
from jinja2 import Environment

from web.templating.compact import Compact
from web.templating.languages import catalog_of

SOURCE = """\
<p>{{ _("Pass") }}|{{ _("%(name)s to play", name=who) }}|{{ pgettext("seconds, short", "s") }}
|{{ _("open ends <b>%(left)s</b> and <b>%(right)s</b>", left=3, right=who) }}
|{% for n in counts %}{{ ngettext("%(num)s tile", "%(num)s tiles", n) }};{% endfor %}
|{{ _("A message no catalog holds, %(name)s", name=who) }}
|{% trans trimmed %}The line{% endtrans %}|{{ _(who) }}</p>"""
VALUES = {"who": "<Bea & Dan>", "counts": [0, 1, 2, 5, 21]}


def said_at_render_time(app, lang: str) -> str:
    """SOURCE rendered the usual way: Jinja's i18n extension asking the catalog at every call."""
    env = Environment(autoescape=True, extensions=["jinja2.ext.i18n", Compact])  # as the app's, but for words
    env.install_gettext_translations(catalog_of(app, lang), newstyle=True)
    return env.from_string(SOURCE).render(VALUES)


@pytest.mark.parametrize("lang", ["en", "es", "da"])
def test_translated_at_compile_time_reads_as_translated_at_render_time(app, lang):
    with app.app_context():
        folded = app.jinja_env.in_language(lang).from_string(SOURCE).render(VALUES)
        assert folded == said_at_render_time(app, lang)
    # The values escaped, the catalog's own markup kept.
    assert "&lt;Bea &amp; Dan&gt;" in folded and "<b>3</b>" in folded


def test_each_language_compiles_its_own_templates(app):
    with app.app_context():
        spanish = app.jinja_env.in_language("es").get_template("_table.html")
        danish = app.jinja_env.in_language("da").get_template("_table.html")
        assert spanish is not danish
        assert app.jinja_env.in_language("es").get_template("_table.html") is spanish  # compiled once


def test_words_are_constants_in_the_compiled_templates(app):
    """A push renders #table per language in use: its words must not cost a catalog call each."""
    env = app.jinja_env.in_language("es")
    with app.app_context():
        source = env.loader.get_source(env, "_table.html")[0]
        spanish = catalog_of(app, "es").ugettext("Players and the line")
    code = env.compile(source, "_table.html", raw=True)
    assert spanish != "Players and the line" and spanish in code  # the Spanish words, as a constant
    assert "_gettext_alias" not in code and "l_0__ " not in code
    assert "context.call((undefined(name='_')" not in code
