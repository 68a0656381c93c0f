"""Every refusal in one place: its words in the viewer's language (templates/_refusals.html), its status."""

from __future__ import annotations

from flask import render_template

from game.errors import GameError
from game.views import shown_name

# A refused action's HTTP status: by its code (`why`), else by its kind (the class's `code`), else 409.
STATUS = {"bad_input": 400, "seat": 400, "link": 403, "not_host": 403, "removed": 410}


def says(code: str, **facts) -> str:
    """The sentence for a refusal's code, in the viewer's language (templates/_refusals.html words each)."""
    if "name" in facts:  # a player's name inside the sentence (game/views.py shown_name)
        facts["name"] = shown_name(facts["name"])
    return render_template("_refusals.html", code=code, facts=facts).strip()


def refusal(error: GameError) -> tuple[str, int]:
    """What a player reads for a refused action, and its HTTP status (the engine gives a code and facts)."""
    return says(error.why, **error.facts), STATUS.get(error.why) or STATUS.get(error.code, 409)
