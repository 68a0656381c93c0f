"""Table talk on the pages: each message worded in each viewer's own language and pushed to the pages that
may read it (live/said.py says who), and a viewer's whole talk log after a whole #table.

A phrase or a reaction is an id: a Spanish player's "good move" reaches a Danish page in Danish. Free chat
is the players' own words, escaped by the template like every name. Never rendered from a hand.
"""

from __future__ import annotations

from flask import Flask

from game.views import shown_name
from live.snapshot import CHAT_RULES, PHRASES, REACTIONS, TEAM_PHRASES, TEXT_MAX, Said
from web.templating.cache import Cache
from web.templating.languages import LANGUAGES, speaking

SAID = Cache(2_000)  # (table id, seq, language) -> the message's markup: one render per language in use


def init_talk(app: Flask) -> None:
    """What the talk panel's template offers (templates/_talk.html): the ids, never words."""
    app.jinja_env.globals["talk"] = {"phrases": PHRASES, "team_phrases": TEAM_PHRASES, "reactions": REACTIONS,
                                     "rules": CHAT_RULES, "text_max": TEXT_MAX}


def reads(spectator: bool, said: Said) -> bool:
    """Whether a player (or a `spectator`) reads `said`: spectators' words during a round are for spectators
    only."""
    return spectator or not said.spectators_only


def said_html(app: Flask, table_id: str, said: Said, lang: str) -> str:
    """One message as the talk log shows it, in `lang`."""
    key = (table_id, said.seq, lang)
    html = SAID.get(key)
    if html is None:
        with speaking(app, lang):
            template = app.jinja_env.in_language(lang).get_template("_said.html")
            html = SAID.keep(key, template.render(said=said, name=shown_name(said.name), lang=lang).strip())
    return html


def talk_log(app: Flask, table_id: str, talk: tuple, spectator: bool, lang: str) -> str:
    """A player's (or a `spectator`'s) whole talk log (#talk-log, swapped by its id into the empty one a whole
    #table holds)."""
    said = "".join(said_html(app, table_id, s, lang) for s in talk if reads(spectator, s))
    return f'<div id="talk-log" class="talk-log">{said}</div>'


def talk_push(app: Flask, table_id: str, said: Said, lang: str) -> str:
    """What a page reading `said` is sent: the message at the end of its log, the bubble by the sender's
    seat (or the new rule over the chat form)."""
    html = said_html(app, table_id, said, lang)
    message = f'<div id="talk-log" hx-swap-oob="beforeend">{html}</div>'
    if said.kind == "rule":
        with speaking(app, lang):
            template = app.jinja_env.in_language(lang).get_template("_talk_rule.html")
            message += template.render(chat=said.body).strip()
    elif said.seat is not None:  # a seat's words show by it for a moment (templates/_seat.html)
        with speaking(app, lang):
            template = app.jinja_env.in_language(lang).get_template("_bubble.html")
            message += template.render(said=said, lang=lang).strip()
    return message


def heard(app: Flask, hub, table_id: str, said: Said) -> None:
    """Push a message to every page that may read it, rendered once per language (under the table's lock:
    in order with its pushes)."""
    with app.app_context():
        send_said(app, hub, table_id, said)


def send_said(app: Flask, hub, table_id: str, said: Said) -> None:
    """`heard`'s work, in the app's context."""
    made: dict[str, str] = {}
    for connection in hub.connections(table_id):
        if not connection.alive or not reads(connection.seat is None, said):
            continue
        lang = getattr(connection, "lang", LANGUAGES[0])
        if lang not in made:
            made[lang] = talk_push(app, table_id, said, lang)
        connection.send(made[lang])
