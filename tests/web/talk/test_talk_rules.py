"""Who may say what at a table, and when (live/said.py), and the host's choice of the chat rule on the home
page's form."""

from __future__ import annotations

import random

import pytest

from game.errors import BadInput
from helpers import Browser, open_table
from helpers.pages import db_rows, live_table, play_until, round_over
from live.said import PHRASES, REACTIONS, TEXT_MAX, TalkRefused, check_said, clean_text


def refused(why: str, *args):
    with pytest.raises(TalkRefused) as caught:
        check_said(*args)
    assert caught.value.why == why


def test_phrases_and_reactions_are_ids_and_a_partners_phrase_needs_partners(app):
    url, _ = open_table(app, "block", 2, names=("Ana", "Bea"))
    block = live_table(app, url)
    assert check_said(block, 0, "phrase", "good_move") == ("good_move", False)
    assert check_said(block, 1, "reaction", "heart") == ("heart", False)
    refused("talk_unknown", block, 0, "phrase", "well_played_partner")
    refused("talk_unknown", block, 0, "phrase", "Good move!")  # words are not ids
    refused("talk_unknown", block, 0, "reaction", "👍")
    refused("talk_react", block, None, "reaction", "heart")
    refused("talk_unknown", block, 0, "shout", "hello")
    url, _ = open_table(app)
    assert check_said(live_table(app, url), 2, "phrase", "well_played_partner")[0] == "well_played_partner"
    assert len(PHRASES) == 12 and len(REACTIONS) == 6


def test_free_chat_is_one_clean_line_of_at_most_200_characters():
    assert clean_text("  Cafe\u0301 at eight  ") == "Café at eight"  # trimmed, one form of é
    scotland = "🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F"
    assert clean_text(f"{scotland} 👩‍💻") == f"{scotland} 👩‍💻"  # a flag's tags, a joiner
    assert len(clean_text("x" * TEXT_MAX)) == TEXT_MAX
    for text, why in (("", "talk_empty"), ("   ", "talk_empty"), (None, "talk_empty"),
                      ("x" * 201, "talk_long"), ("a\nb", "talk_control"), ("a\u202eb", "talk_control"),
                      ("a\x00b", "talk_control")):
        with pytest.raises(TalkRefused) as caught:
            clean_text(text)
        assert caught.value.why == why, text


def test_the_rule_decides_free_chat_and_a_spectator_speaks_to_spectators_during_a_round(app):
    url, players = open_table(app)  # Partnership: between rounds by default
    table = live_table(app, url)
    assert table.chat == "rounds" and table.phase == "playing"
    refused("chat_rounds", table, 1, "chat", "hi")
    assert check_said(table, None, "chat", "hi") == ("hi", True)  # spectators only
    assert check_said(table, 1, "phrase", "hello") == ("hello", False)
    table.chat = "always"
    assert check_said(table, 1, "chat", "hi") == ("hi", False)
    table.chat = "off"
    refused("chat_off", table, 1, "chat", "hi")
    refused("chat_off", table, None, "chat", "hi")
    play_until(app, url, players, random.Random(1), round_over)
    table.chat = "rounds"
    assert check_said(table, 1, "chat", "hi") == ("hi", False)
    assert check_said(table, None, "chat", "hi") == ("hi", False)  # between rounds: everyone reads it


@pytest.mark.parametrize(("variant", "seats", "rule"), [("partnership", 4, "rounds"), ("block", 2, "always"),
                                                         ("draw", 3, "always")])
def test_the_home_page_offers_the_games_rule_and_keeps_the_hosts_choice(app, variant, seats, rule):
    host = Browser(app)
    page = host.get("/").get_data(as_text=True)
    assert f'data-default-chat="{rule}" value="{variant}"' in page
    assert '<option value="rounds" selected>' in page  # Partnership's, the game chosen first
    for chosen in (None, "off"):
        data = {"name": "Ana", "variant": variant, "seats": seats, "target": 100, "csrf_token": host.csrf}
        if chosen:
            data["chat"] = chosen
        response = host.client.post("/tables", data=data)
        assert response.status_code == 303
        table = live_table(app, response.headers["Location"])
        assert table.chat == (chosen or rule)
        assert db_rows(app, "SELECT chat FROM tables WHERE id = ?", table.id)[0][0] == (chosen or rule)


def test_an_unknown_chat_rule_is_refused_and_creates_nothing(app):
    host = Browser(app)
    response = host.client.post("/tables", data={"name": "Ana", "variant": "block", "seats": 2, "target": 100,
                                                 "chat": "sometimes", "csrf_token": host.csrf})
    assert response.status_code == 400
    assert "Choose when the table may chat" in response.get_data(as_text=True)
    assert db_rows(app, "SELECT COUNT(*) FROM tables")[0][0] == 0
    with pytest.raises(BadInput):
        app.extensions["fichas"].tables.create("Ana", "block", 2, 100, chat="sometimes")
