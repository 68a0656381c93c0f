"""How a round ended, in each language, agrees with its number of points ("1 punto", "2 puntos")."""

from __future__ import annotations

import pytest

from web.templating.frames import rendered, with_globals

TEAMS, ALONE = {"variant": {"teams": True}}, {"variant": {"teams": False}}


def said(app, lang: str, table: dict, **result) -> str:
    """templates/_result.html for a round won with `result`'s facts, in `lang`."""
    res = {"winner_name": "Ana", "winner": 0, "placer": 0, "tie_break": None, "side_totals": [3, 9],
           "side_names": ["Ana & Carl", "Bea & Dan"], "hand_totals": [3, 9], **result}
    env = app.jinja_env.in_language(lang)
    with app.app_context():
        return rendered(env, "_result.html", with_globals(env, {"res": res, "table": table,
                                                                 "rnd": {"players": ["Ana", "Bea"]}}))


WORDS = [("es", "1 punto.", "12 puntos."), ("da", "1 point.", "12 point."), ("en", "1.", "12.")]
# How a round ends: placed the last tile, or blocked (with a tie broken how: teams by the last tile, P8)
ENDS = [(TEAMS, "domino", None), (ALONE, "domino", None), (TEAMS, "blocked", None), (ALONE, "blocked", None),
        (TEAMS, "blocked", "last_placer"), (ALONE, "blocked", "last_placer"),
        (ALONE, "blocked", "turn_order")]


@pytest.mark.parametrize(("lang", "one", "more"), WORDS)
@pytest.mark.parametrize(("table", "reason", "tie_break"), ENDS)
def test_a_rounds_points_are_said_in_the_singular_for_one(app, lang, one, more, table, reason, tie_break):
    assert one in said(app, lang, table, reason=reason, tie_break=tie_break, points=1)
    assert more in said(app, lang, table, reason=reason, tie_break=tie_break, points=12)
