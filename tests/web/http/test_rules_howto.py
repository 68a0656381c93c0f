"""GET /rules?game=...: how to play one game, in small pictures of the table's tiles, above the full rules.

The pictures are read as a player sees them: the tiles' pips (their halves' classes), the numbers shown
beside them and the captions' words; the counts are worked out here from those pips, by the rules.
"""

from __future__ import annotations

import itertools
import re
from html.parser import HTMLParser

import pytest
from i18n.test_catalogs import ENGLISH, OWN_NAMES

from helpers import Browser
from helpers.screens import leftover, texts

SECTION = re.compile(r'<section class="howto".*?</section>', re.S)
FIGURE = re.compile(r'<figure class="pic-(\w+)">(.*?)</figure>', re.S)
TAG = re.compile(r"<[^>]*>")
SPACES = re.compile(r"\s+")


def page(app, query: str = "", lang: str = "en") -> str:
    client = Browser(app)
    client.client.set_cookie("lang", lang)
    response = client.get("/rules" + query)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def howto(html: str) -> str:
    return SECTION.search(html).group(0)


def words(html: str) -> str:
    return SPACES.sub(" ", TAG.sub("", html)).strip()


class Rows(HTMLParser):
    """A picture's rows as a player reads them: each row's classes, label, tiles (pips, left half first),
    each tile's own classes (fit, dim, slot, last), and the points written in it."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows: list[dict] = []
        self.stack: list[str] = []  # the classes of the open elements
        self.tile_classes = ""

    def handle_starttag(self, tag, attrs):
        classes = dict(attrs).get("class") or ""
        self.stack.append(classes)
        names = classes.split()
        if {"felt-row", "hand-row"} & set(names):
            self.rows.append({"classes": names, "label": "", "tiles": [], "points": None})
        elif "tile" in names:
            self.tile_classes = classes
        elif "domino" in names:
            self.rows[-1]["tiles"].append({"pips": [], "classes": self.tile_classes.split()})
        elif tag == "i" and "h" in names:
            pip = next(n for n in names if re.fullmatch(r"p\d", n))
            self.rows[-1]["tiles"][-1]["pips"].append(int(pip[1:]))

    def handle_endtag(self, tag):
        self.stack.pop()

    def handle_data(self, data):
        inside = " ".join(self.stack).split()
        if "label" in inside:
            self.rows[-1]["label"] += data
        elif "pts" in inside:
            self.rows[-1]["points"] = int(re.search(r"\d+", data).group(0))


def figures(html: str) -> dict[str, dict]:
    """Each picture of the how-to by its kind: its rows, its visible words, its caption."""
    found = {}
    for kind, inner in FIGURE.findall(howto(html)):
        parser = Rows()
        parser.feed(inner)
        caption = words(re.search(r"<figcaption>(.*?)</figcaption>", inner, re.S).group(1))
        found[kind] = {"rows": parser.rows, "text": words(inner), "caption": caption,
                       "hidden": 'class="pic" aria-hidden="true"' in inner}
    return found


def pips(row: dict) -> list[tuple[int, int]]:
    return [tuple(t["pips"]) for t in row["tiles"]]


def points(tiles) -> int:
    return sum(a + b for a, b in tiles)


def test_no_game_or_an_unknown_one_shows_partnership_the_default_game(app):
    for query in ("", "?game=", "?game=chess", "?game=Block", "?game=%00", "?game=partnership&game=block"):
        html = howto(page(app, query))
        assert 'data-game="partnership"' in html, query
        assert "<h2 id=\"howto-title\">How to play Partnership</h2>" in html, query


def test_each_game_has_its_own_how_to_linking_the_full_rules_and_the_two_other_games(app):
    for game, title, others in (("partnership", "Partnership", ("block", "draw")),
                                ("block", "Block", ("partnership", "draw")),
                                ("draw", "Draw", ("partnership", "block"))):
        html = page(app, f"?game={game}")
        section = howto(html)
        assert f"How to play {title}</h2>" in section
        assert '<a href="#full">The full rules</a>' in section and '<p class="lead" id="full">' in html
        links = re.findall(r'<a href="/rules\?game=(\w+)"', section)
        assert links == list(others)
        # the how-to comes first, the full rules (every rule's paragraph) after it, unchanged
        assert html.index('<section class="howto"') < html.index('id="full"') < html.index('id="t1"')


def test_the_first_picture_shows_a_tile_from_the_hand_fitting_one_open_end_and_where_it_goes(app):
    for game in ("partnership", "block", "draw"):
        placing = figures(page(app, f"?game={game}"))["placing"]
        line, hand = placing["rows"]
        assert line["label"] == "The line" and hand["label"] == "Your hand"
        laid = [t for t in line["tiles"] if "slot" not in t["classes"]]
        slot = [t for t in line["tiles"] if "slot" in t["classes"]]
        ends = (laid[0]["pips"][0], laid[-1]["pips"][-1])
        for left, right in itertools.pairwise(laid):  # a line: the halves that touch match
            assert left["pips"][1] == right["pips"][0]
        fitting = [t for t in hand["tiles"] if "fit" in t["classes"]]
        assert len(fitting) == 1 and len(slot) == 1
        assert all(not set(t["pips"]) & set(ends) for t in hand["tiles"] if t not in fitting)
        # the slot is the fitting tile, its matching half against the line's right end
        assert sorted(slot[0]["pips"]) == sorted(fitting[0]["pips"]) and slot[0]["pips"][0] == ends[1]
        assert ends == (2, 6) and slot[0]["pips"] == [6, 1]
        assert placing["caption"] == ("The open ends are 2 and 6. Your 6-1 fits the 6, so it goes at that "
                                      "end, and its 1 becomes the new open end.")


def test_a_pass_shows_a_hand_with_nothing_for_either_end_and_what_everyone_learns(app):
    for game in ("partnership", "block", "draw"):
        passing = figures(page(app, f"?game={game}"))["passing"]
        line, hand = passing["rows"]
        ends = (line["tiles"][0]["pips"][0], line["tiles"][-1]["pips"][-1])
        assert not any(set(t) & set(ends) for t in pips(hand)), pips(hand)
        assert f"Has no {min(ends)}, {max(ends)}" in passing["text"]
        assert "Now everyone knows you hold neither number" in passing["caption"]


def test_block_passes_and_counts_a_blocked_round_lowest_hand_scores_the_others_minus_its_own(app):
    shown = figures(page(app, "?game=block"))
    assert list(shown) == ["placing", "passing", "domino", "blocked"]  # nobody draws in Block
    assert "draw from the boneyard" not in words(howto(page(app, "?game=block")))
    assert shown["passing"]["caption"].startswith(
        "Nothing in your hand has a 3 or a 5, the two open ends, so you pass.")
    blocked = shown["blocked"]
    hands = {row["label"]: row for row in blocked["rows"]}
    you = hands.pop("You")
    others = [row for row in blocked["rows"] if row is not you]
    assert all(row["label"] == "An opponent" for row in others) and "won" in you["classes"]
    for row in blocked["rows"]:  # each hand's points are its pips
        assert row["points"] == points(pips(row))
    own, theirs = you["points"], [row["points"] for row in others]
    assert own < min(theirs)
    scored = sum(theirs) - own
    assert scored == 17
    said = f"{' + '.join(map(str, theirs))} − {own} = {scored}"
    assert blocked["caption"] == ("Nobody can place, even with tiles left in the boneyard. The lowest hand "
                                  f"wins and scores the others' points minus its own: {said}.")
    assert f"You score {said}" in blocked["text"]


def test_draw_shows_drawing_from_the_boneyard_before_passing(app):
    shown = figures(page(app, "?game=draw"))
    assert list(shown) == ["placing", "drawing", "passing", "domino", "blocked"]
    drawing = shown["drawing"]
    line, hand, drawn = drawing["rows"]
    laid = [t for t in line["tiles"] if "slot" not in t["classes"]]
    ends = (laid[0]["pips"][0], laid[-1]["pips"][-1])
    assert drawn["label"] == "Drawn"
    assert not any(set(t) & set(ends) for t in pips(hand))
    *missed, hit = drawn["tiles"]  # drawn one at a time until one fits: only the last one does
    assert missed and not any(set(t["pips"]) & set(ends) for t in missed)
    assert "fit" in hit["classes"] and set(hit["pips"]) & set(ends)
    assert drawing["caption"] == ("Nothing in your hand has a 3 or a 5, so you draw from the boneyard, one "
                                  "tile at a time: 0-4 does not fit, 2-5 does, and you place it.")
    assert shown["passing"]["caption"].startswith("Once the boneyard is empty, if nothing in your hand")
    assert shown["blocked"]["caption"].startswith("Nobody can place and the boneyard is empty.")
    assert "9 + 12 − 4 = 17" in shown["blocked"]["caption"]


def test_partnership_counts_a_domino_without_the_partner_and_a_blocked_round_by_teams(app):
    shown = figures(page(app, "?game=partnership"))
    assert list(shown) == ["placing", "passing", "domino", "blocked"]
    assert "boneyard" not in words(howto(page(app)))  # all 28 tiles are dealt
    domino = shown["domino"]
    line, *hands = domino["rows"]
    assert "last" in line["tiles"][-1]["classes"]
    opponents = [row["points"] for row in hands if row["label"] == "An opponent"]
    partner = [row for row in hands if row["label"] == "Your partner"]
    assert len(opponents) == 2 and len(partner) == 1 and "uncounted" in partner[0]["classes"]
    for row in hands:
        assert row["points"] == points(pips(row))
    said = f"{opponents[0]} + {opponents[1]} = {sum(opponents)}"
    assert domino["caption"] == ("You place your last tile, and your team wins the round. It scores what "
                                 f"both opponents still hold, {said}; your partner's tiles do not count.")
    blocked = {row["label"]: row for row in shown["blocked"]["rows"]}
    ours, theirs = blocked["Your team"], blocked["The other team"]
    assert len(ours["tiles"]) == len(theirs["tiles"]) == 2  # two hands a team
    assert ours["points"] == points(pips(ours)) < theirs["points"] == points(pips(theirs))
    assert shown["blocked"]["caption"] == (
        "Nobody can place: all four players passed in a row. Each team adds up its two hands; yours has the "
        f"smaller total, {ours['points']}, so your team scores the other team's {theirs['points']}.")


def test_in_block_and_draw_a_domino_scores_every_opponent_s_hand(app):
    for game in ("block", "draw"):
        domino = figures(page(app, f"?game={game}"))["domino"]
        _line, *hands = domino["rows"]
        assert hands and all(row["label"] == "An opponent" for row in hands)
        assert not any("uncounted" in row["classes"] for row in hands)
        total = sum(points(pips(row)) for row in hands)
        assert domino["caption"].endswith(f"You score what every opponent still holds: "
                                          f"{' + '.join(str(points(pips(r))) for r in hands)} = {total}.")


def test_every_picture_is_a_figure_whose_caption_says_what_its_hidden_tiles_show(app):
    for game in ("partnership", "block", "draw"):
        for kind, figure in figures(page(app, f"?game={game}")).items():
            assert figure["hidden"] and figure["caption"], (game, kind)
            sentences = re.findall(r"[.!?](?:\s|$)", figure["caption"])
            assert 1 <= len(sentences) <= 2, (game, kind, figure["caption"])
            assert 2 <= sum(len(row["tiles"]) for row in figure["rows"]) <= 7, (game, kind)  # a few tiles


@pytest.mark.parametrize(("lang", "said"), [
    ("es", ("Cómo se juega a Bloqueo", "Las reglas completas", "La fila", "Colocar una ficha",
            "Nadie puede colocar, aunque queden fichas en el pozo", "9 + 12 − 4 = 17", "No tiene 3, 5")),
    ("da", ("Sådan spiller man Block Domino", "Alle reglerne", "Kæden", "At lægge en brik",
            "Ingen kan lægge, selv om der er brikker tilbage i reserven", "9 + 12 − 4 = 17",
            "Har ingen 3, 5")),
])
def test_the_how_to_is_in_the_reader_s_language_with_no_english_left(app, lang, said):
    english = re.compile(r"\b(?:" + "|".join(ENGLISH) + r")\b", re.IGNORECASE)
    for game in ("partnership", "block", "draw"):
        section = howto(page(app, f"?game={game}", lang))
        for text in texts(section):
            assert not english.findall(OWN_NAMES.sub("", leftover(text))), (lang, game, text)
        assert "How to play" not in section and "The full rules" not in section
    text = words(howto(page(app, "?game=block", lang)))
    for words_said in said:
        assert words_said in text, (lang, words_said)


def test_switching_language_on_a_game_s_how_to_comes_back_to_the_same_game(app):
    html = page(app, "?game=draw")
    back = re.search(r'href="/lang/da\?next=([^"]+)"', html).group(1)
    client = Browser(app)
    switched = client.client.get(f"/lang/da?next={back}")
    assert switched.status_code == 303 and switched.headers["Location"].endswith("/rules?game=draw")
    assert "Sådan spiller man Draw Domino" in client.get("/rules?game=draw").get_data(as_text=True)


def test_the_home_page_links_to_how_to_play_and_to_the_full_rules(app):
    html = Browser(app).get("/").get_data(as_text=True)
    assert '<a href="/rules">How to play, in pictures</a>' in html
    assert '<a href="/rules#full">The complete rules</a>' in html


def test_the_how_to_s_stylesheet_is_the_rules_page_s_only(app):
    assert re.search(r'<link rel="stylesheet" href="/static/rules.css\?v=\w+">', page(app))
    assert "rules.css" not in Browser(app).get("/").get_data(as_text=True)
