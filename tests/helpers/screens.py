"""Every screen of Fichas rendered for one language: the pages a player or a spectator can meet."""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser

from helpers import Browser, open_table
from helpers.pages import live_table, play_until, round_over

NAMES = ("Ana", "Bea", "Carl", "Dan")
ATTRIBUTES = ("aria-label", "title", "data-on", "data-off", "data-done", "data-one", "data-many",
              "data-round", "data-closed", "data-turn-title", "placeholder",
              *(f"data-late-{n}" for n in range(1, 11)))  # what is said as one's clock runs out


def browser(app, lang: str) -> Browser:
    """A browser that chose `lang` with the switch (the `lang` cookie)."""
    b = Browser(app)
    b.client.set_cookie("lang", lang)
    return b


def speak(players: list[Browser], lang: str) -> None:
    for player in players:
        player.client.set_cookie("lang", lang)


def screens(app, lang: str) -> dict[str, str]:
    """Each screen's HTML, read in `lang`: home (also with errors), tables in every phase, rules, errors."""
    shown = {}
    guest = browser(app, lang)
    shown["home"] = guest.get("/").get_data(as_text=True)
    bad = {"name": "", "variant": "block", "seats": "5", "target": "75", "csrf_token": guest.csrf}
    shown["home with errors"] = guest.client.post("/tables", data=bad).get_data(as_text=True)
    shown["rules"] = guest.get("/rules").get_data(as_text=True)  # with how to play the default game
    shown["rules, Block"] = guest.get("/rules?game=block").get_data(as_text=True)
    shown["rules, Draw"] = guest.get("/rules?game=draw").get_data(as_text=True)
    shown["not found"] = guest.get("/t/nowhere").get_data(as_text=True)

    host = browser(app, lang)
    response = host.client.post("/tables", data={"name": "Ana", "variant": "draw", "seats": 2, "target": 50,
                                                 "csrf_token": host.csrf})
    waiting = response.headers["Location"]
    shown["waiting table"] = host.get(waiting).get_data(as_text=True)
    shown["waiting, as a visitor"] = guest.get(waiting).get_data(as_text=True)
    shown["home, your table waiting"] = host.get("/").get_data(as_text=True)

    url, players = open_table(app)  # Partnership: teams
    speak(players, lang)
    table = live_table(app, url)
    turn = table.match.round.turn
    shown["your turn"] = players[turn].get(url).get_data(as_text=True)
    shown["not your turn"] = players[(turn + 1) % 4].get(url).get_data(as_text=True)
    shown["home, your turn at your table"] = players[turn].get("/").get_data(as_text=True)
    refused = players[(turn + 1) % 4].post(f"{url}/pass", {"version": table.version})
    shown["refusal"] = refused.get_data(as_text=True)
    shown["spectator"] = guest.get(url).get_data(as_text=True)
    shown["seat link"] = players[0].post(f"{url}/seat-link").get_data(as_text=True)
    shown["seat link page"] = guest.get(f"{url}/seat").get_data(as_text=True)
    shown["the table's live connection, opened as a page"] = guest.get(f"{url}/ws").get_data(as_text=True)
    rng = random.Random(7)
    play_until(app, url, players, rng, round_over)
    shown["round end"] = players[0].get(url).get_data(as_text=True)
    shown["round end, a guest"] = players[1].get(url).get_data(as_text=True)
    shown.update(replays(app, url, players[1], guest))
    play_until(app, url, players, rng, lambda t: t.phase == "over")
    shown["match end"] = players[1].get(url).get_data(as_text=True)
    shown["home, your table's match over"] = players[1].get("/").get_data(as_text=True)

    url, players = open_table(app, "draw", 2)  # Draw: the boneyard, drawing
    speak(players, lang)
    play_until(app, url, players, rng, lambda t: t.match.round.must_draw(t.match.round.turn))
    shown["draw"] = players[live_table(app, url).match.round.turn].get(url).get_data(as_text=True)
    shown["table talk"] = talk(app, lang)
    return shown


def replays(app, url: str, player: Browser, guest: Browser) -> dict[str, str]:
    """Issue 45's pages: a finished round replayed (its deal, a move, its end; a step's swap; its text), the
    record form, a record refused and one replayed, and the round in play's 404."""
    shown = {}
    base = f"{url}/matches/1/rounds/1"
    for move in ("0", "3", "999"):
        shown[f"replay at move {move}"] = player.get(f"{base}?move={move}").get_data(as_text=True)
    step = {"HX-Request": "true", "HX-Target": "replay"}
    shown["replay, a step"] = player.get(f"{base}?move=2", headers=step).get_data(as_text=True)
    shown["replay as text"] = player.get(f"{base}.txt").get_data(as_text=True)
    shown["replay a record"] = guest.get("/replay").get_data(as_text=True)
    record = player.get(f"{url}/record.json").get_data(as_text=True)
    sent = {"csrf_token": guest.csrf, "record": record, "at": "1-4"}
    shown["a record replayed"] = guest.client.post("/replay", data=sent).get_data(as_text=True)
    shown["a record refused"] = guest.client.post("/replay", data={"csrf_token": guest.csrf, "record": "{}"}
                                                  ).get_data(as_text=True)
    shown["a record not json"] = guest.client.post("/replay", data={"csrf_token": guest.csrf, "record": "x"}
                                                   ).get_data(as_text=True)
    return shown


TALK_REFUSALS = ("talk_seat", "talk_fast", "talk_empty", "talk_long", "talk_control", "talk_unknown",
                 "talk_react", "chat_off", "chat_rounds", "rule_in_round", "host_chat", "chat_rule")


def talk(app, lang: str) -> str:
    """What table talk pushes (web/push/talk.py): every phrase, reaction and chat rule as a log and as each
    message's push, a spectator's words during a round, and every refusal of the talk panel."""
    from live.said import PHRASES, REACTIONS, Said
    from live.table import CHAT_RULES
    from web.push.talk import talk_log, talk_push
    from web.templating.refusals import says

    spoken = [*(("phrase", p) for p in PHRASES), *(("reaction", r) for r in REACTIONS),
              *(("rule", r) for r in CHAT_RULES)]
    said = [Said(n, 0.0, n % 4, NAMES[n % 4], kind, body, "en") for n, (kind, body) in enumerate(spoken, 1)]
    said.append(Said(len(said) + 1, 0.0, None, "", "phrase", "hello", "en", spectators_only=True))
    with app.test_request_context("/", headers={"Cookie": f"lang={lang}"}):
        app.preprocess_request()  # the language hook: refusals are worded in `lang`
        pushed = "".join(talk_push(app, "screens", s, lang) for s in said)
        refused = "".join(f"<p>{says(code, max=200)}</p>" for code in TALK_REFUSALS)
        return talk_log(app, "screens", tuple(said), True, lang) + pushed + refused


class Texts(HTMLParser):
    """The text a person can read on a page: text nodes, and the words in labels and titles.

    Key caps (<kbd>: "L", "P") are the keys' own letters, the same in every language (static/a11y.js).
    """

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "kbd"):
            self.skip += 1
        for name, value in attrs:
            if name in ATTRIBUTES and value:
                self.texts.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style", "kbd"):
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip and data.strip():
            self.texts.append(data.strip())


def texts(html: str) -> list[str]:
    parser = Texts()
    parser.feed(html)
    return parser.texts


# What is not words of the catalogs: the players' names, the brand, the languages' own names, tiles,
# numbers, and a team's letter at the end of its badge ("Team A").
NOT_WORDS = re.compile(r"\b(?:" + "|".join(NAMES) + r"|Fichas|English|Español|Dansk|EN|ES|DA)\b"
                       r"|domino-match/1|\d+-\d+|\d+| [AB]$")  # and a record format's name


def leftover(text: str) -> str:
    """What remains of a text once names, the brand, tiles and numbers are taken out."""
    return NOT_WORDS.sub("", text)
