"""Table talk over real websockets (a real server): phrases in each reader's language, reactions by the
sender's seat, free chat under the host's rule, spectators' words during a round, the budget per seat,
forged seats, escaping; every refusal changes nothing."""

from __future__ import annotations

import html
import re
import time

import pytest

from helpers.pages import connect_all, db_rows, finish_round, seat_up, wait_until

SAID = re.compile(r'<p class="said[^"]*" data-talk-seat="([^"]+)" data-talk-kind="([^"]+)" data-seq="(\d+)" '
                  r'lang="([^"]+)">(.*?)</p>', re.S)


@pytest.fixture
def server(make_server):
    """A real server whose clock stays still: nothing moves but the players."""
    return make_server(START_CLOCK=False, PING_SECONDS=1)


def seated(server, variant="partnership", seats=4, chat=None):
    """A full table (its chat rule `chat`: None, the game's default) whose players all have their websocket
    open."""
    if chat is None:
        url, players = seat_up(server, variant, seats)
    else:
        host = server.player()
        response = host.post("/tables", {"name": "Ana", "variant": variant, "seats": seats, "target": 100,
                                         "chat": chat})
        assert response.status_code == 303, response.text
        url = host.url = response.headers["Location"]
        players = [host]
        for name in ("Bea", "Carl", "Dan")[:seats - 1]:
            guest = server.player()
            guest.join(url, name)
            players.append(guest)
    return players, connect_all(server, url, players)


def watcher(server, url: str, lang: str = "en"):
    """A spectator's page (in `lang`), its websocket open and its whole table in."""
    viewer = server.player()
    viewer.http.cookies.set("lang", lang)
    viewer.connect(url)
    viewer.wait_for(lambda m: 'id="talk-log"' in m)
    return viewer


def say(player, **values) -> None:
    """What a page's talk panel sends (htmx's ws-send JSON)."""
    player.send_move({"action": "talk", **values})


def said_in(message: str) -> list[tuple[str, str, str, str, str]]:
    """Each message of the talk log in a push: (seat, kind, seq, lang, its text)."""
    return [(seat, kind, seq, lang, re.sub(r"<[^>]+>", "", body)) for seat, kind, seq, lang, body
            in SAID.findall(message)]


def talk_flash(player, since: int, timeout: float = 5.0) -> str:
    """The first refusal in the talk panel after the page's first `since` messages (a message taken is
    answered with an empty one)."""
    def found():
        flashes = (m for m in player.messages[since:] if m.startswith('<div id="talk-flash"'))
        return next((text for text in (html.unescape(re.sub(r"<[^>]+>", "", m)).strip() for m in flashes)
                     if text), None)
    wait_until(found, timeout)
    return found()


def test_a_phrase_reaches_every_page_with_a_bubble_by_its_seat(server):
    players, table = seated(server)
    say(players[2], phrase="good_move")
    for player in players:
        pushed = player.wait_for(lambda m: 'data-talk-seat="2"' in m and "Good move!" in m)
        assert said_in(pushed) == [("2", "phrase", "1", "en", "Carl Good move!")]
        assert re.search(r'<p class="bubble bubble-phrase" id="bubble-2" data-talk-seat="2"[^>]*>'
                         r"Good move!</p>", pushed)
    assert table.version == 4  # no move, no new version: a message makes nobody's move stale


def test_a_phrase_reads_in_each_readers_language(server):
    players, _ = seated(server)
    spanish, danish = watcher(server, players[0].url, "es"), watcher(server, players[0].url, "da")
    say(players[1], phrase="well_played_partner")
    in_spanish = said_in(spanish.wait_for(lambda m: 'data-talk-seat="1"' in m))
    assert in_spanish[0][3:] == ("es", "Bea ¡Bien jugado, compañero!")
    in_danish = said_in(danish.wait_for(lambda m: 'data-talk-seat="1"' in m))
    assert in_danish[0][3:] == ("da", "Bea Godt spillet, makker!")
    english = said_in(players[0].wait_for(lambda m: 'data-talk-seat="1"' in m))
    assert english[0][3:] == ("en", "Bea Well played, partner!")


def test_a_reaction_shows_by_the_senders_seat_on_every_page(server):
    players, _ = seated(server, "block", 3, chat="always")
    spectator = watcher(server, players[0].url)
    say(players[1], reaction="clap")
    for page in (*players, spectator):
        pushed = page.wait_for(lambda m: 'data-talk-kind="reaction"' in m)
        assert re.search(r'id="bubble-1" data-talk-seat="1" data-talk-kind="reaction"[^>]*>👏</p>', pushed)
        assert said_in(pushed)[0][:2] == ("1", "reaction")
        assert "applause" in pushed  # its name, for screen readers
    since = len(spectator.messages)
    say(spectator, reaction="clap")  # reactions are the players'
    assert "Reactions are the players'" in talk_flash(spectator, since)


def test_chat_always_reaches_everyone_during_a_round(server):
    players, table = seated(server, chat="always")
    assert table.phase == "playing"
    say(players[0], talk="  One more round after this?  ")
    for player in players:
        pushed = player.wait_for(lambda m: 'data-talk-kind="chat"' in m)
        assert said_in(pushed) == [("0", "chat", "1", "en", "Ana One more round after this?")]


def test_partnership_chats_between_rounds_only_by_default_and_the_host_may_change_it(server):
    players, table = seated(server)
    assert table.chat == "rounds"
    since = len(players[1].messages)
    say(players[1], talk="I have the double six")
    assert "between rounds only" in talk_flash(players[1], since)
    assert table.talk == () and db_rows(server.app, "SELECT COUNT(*) FROM talk")[0][0] == 0
    since = len(players[0].messages)
    players[0].send_move({"action": "chat_rule", "chat": "always"})  # not during a round
    assert "changes between rounds only" in talk_flash(players[0], since)
    assert table.chat == "rounds"

    finish_round(server.app, table)  # between rounds: everyone chats
    assert table.phase in ("pause", "over")
    say(players[1], talk="Well, that went fast")
    for player in players:
        player.wait_for(lambda m: "Well, that went fast" in m)
    since = len(players[2].messages)
    players[2].send_move({"action": "chat_rule", "chat": "always"})  # only the host
    assert "Only the host" in talk_flash(players[2], since)
    players[0].send_move({"action": "chat_rule", "chat": "off"})
    for player in players:
        pushed = player.wait_for(lambda m: 'id="talk-rule"' in m and 'data-chat="off"' in m)
        assert said_in(pushed)[0][:2] == ("0", "rule")
    assert table.chat == "off"
    assert db_rows(server.app, "SELECT chat FROM tables WHERE id = ?", table.id)[0][0] == "off"
    since = len(players[3].messages)
    say(players[3], talk="anyone?")
    assert "turned chat off" in talk_flash(players[3], since)
    say(players[3], phrase="one_more")  # phrases stay
    players[0].wait_for(lambda m: 'data-talk-seat="3" data-talk-kind="phrase"' in m)


def test_no_chat_refuses_free_text_at_every_moment_and_keeps_phrases(server):
    players, table = seated(server, "block", 2, chat="off")
    for moment in ("round", "between rounds"):
        since = len(players[0].messages)
        say(players[0], talk=f"hello during the {moment}")
        assert "turned chat off" in talk_flash(players[0], since)
        if moment == "round":
            finish_round(server.app, table)
    say(players[1], phrase="good_game")
    players[0].wait_for(lambda m: 'data-talk-seat="1" data-talk-kind="phrase"' in m)
    assert [said.kind for said in table.talk] == ["phrase"]


def test_a_spectators_chat_during_a_round_reaches_spectators_only(server):
    players, table = seated(server, chat="always")
    first, second = watcher(server, players[0].url), watcher(server, players[0].url)
    say(first, talk="Ana should play the five")
    pushed = second.wait_for(lambda m: "Ana should play the five" in m)
    assert said_in(pushed)[0][:2] == ("s", "chat") and "(to spectators)" in pushed
    first.wait_for(lambda m: "Ana should play the five" in m)
    time.sleep(0.3)
    for player in players:
        assert not any("play the five" in m for m in player.messages)
    # A player's page opened afresh does not get it in its log either; a spectator's does.
    late = server.player()
    late.http.cookies.update(players[1].http.cookies)
    late.connect(players[1].url)
    whole = late.wait_for(lambda m: 'id="talk-log"' in m)
    assert "play the five" not in whole
    assert "play the five" in watcher(server, players[0].url).wait_for(lambda m: 'id="talk-log"' in m)

    finish_round(server.app, table)  # between rounds a spectator's words reach everyone
    say(second, talk="Well played, all")
    for player in players:
        player.wait_for(lambda m: "Well played, all" in m)


def test_the_sixth_message_of_a_burst_is_refused_and_nothing_else_changes(server):
    players, table = seated(server, chat="always")
    since = len(players[0].messages)
    for n in range(6):
        say(players[0], phrase="hello" if n % 2 else "wow")
    assert "one message a second" in talk_flash(players[0], since)
    wait_until(lambda: len(table.talk) == 5)
    time.sleep(0.3)
    assert len(table.talk) == 5 and db_rows(server.app, "SELECT COUNT(*) FROM talk")[0][0] == 5
    assert table.version == 4
    time.sleep(1.1)  # a second later the seat may speak again
    say(players[0], phrase="thanks")
    wait_until(lambda: len(table.talk) == 6)


def test_a_message_of_201_characters_is_refused_and_200_are_taken(server):
    players, table = seated(server, chat="always")
    since = len(players[1].messages)
    say(players[1], talk="x" * 201)
    assert "at most 200 characters" in talk_flash(players[1], since)
    assert table.talk == ()
    say(players[1], talk="é" * 200)
    players[0].wait_for(lambda m: "é" * 200 in m)


@pytest.mark.parametrize(("values", "words"), [
    ({"talk": ""}, "Write something first"),
    ({"talk": "two\nlines"}, "one line of text"),
    ({"talk": 42}, "Write something first"),
    ({"phrase": "you_have_6_6"}, "not one of the table's phrases"),
    ({"reaction": "<b>"}, "not one of the table's phrases"),
    ({}, "not one of the table's phrases"),
])
def test_bad_messages_get_a_clear_word_and_change_nothing(server, values, words):
    players, table = seated(server, "draw", 2, chat="always")
    since = len(players[0].messages)
    say(players[0], **values)
    assert words in talk_flash(players[0], since)
    time.sleep(0.2)
    assert table.talk == () and not any('data-talk-seat' in m for m in players[1].messages)


def test_html_in_a_message_is_shown_as_text(server):
    players, _ = seated(server, "block", 2, chat="always")
    say(players[0], talk='<img src=x onerror=alert(1)> <a href="https://evil.example">win</a>')
    pushed = players[1].wait_for(lambda m: 'data-talk-kind="chat"' in m)
    assert "<img" not in pushed and "<a href" not in pushed
    shown = "&lt;img src=x onerror=alert(1)&gt; &lt;a href=&#34;https://evil.example&#34;&gt;win&lt;/a&gt;"
    assert shown in pushed


def test_a_message_naming_another_seat_is_refused(server):
    players, table = seated(server, chat="always")
    since = len(players[0].messages)
    say(players[0], phrase="hello", seat="2")
    assert "another seat than yours" in talk_flash(players[0], since)
    say(players[0], phrase="hello", seat="0")  # its own: taken
    players[2].wait_for(lambda m: 'data-talk-seat="0"' in m)
    assert [said.seat for said in table.talk] == [0]


def test_the_log_keeps_the_last_fifty_and_a_new_page_gets_them_in_its_language(server):
    players, table = seated(server, chat="always")
    budgets = server.app.extensions["fichas"].talk_budgets
    for n in range(55):
        budgets.clear()  # the test speaks faster than a seat may
        say(players[n % 4], talk=f"message {n}")
        wait_until(lambda n=n: table.talk and table.talk[-1].body == f"message {n}")
    assert [said.body for said in table.talk] == [f"message {n}" for n in range(5, 55)]
    assert db_rows(server.app, "SELECT MIN(seq), COUNT(*) FROM talk")[0] == (6, 50)
    whole = watcher(server, players[0].url, "da").wait_for(lambda m: 'id="talk-log"' in m)
    shown = said_in(whole)
    assert [text.split(" ", 1)[1] for *_, text in shown] == [f"message {n}" for n in range(5, 55)]
    assert {lang for _, _, _, lang, _ in shown} == {"en"}  # chat keeps the language it was written in
