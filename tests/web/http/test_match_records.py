"""Earlier matches stay reachable (issue 10, item 7): /t/<id>/record.json?match=N, kept in the store."""

import json
import random
import re
import sqlite3
from contextlib import closing

import pytest

from game.record import load_match
from helpers import Browser, open_table
from helpers.pages import db_rows, live_table, page, play_until, reopen
from live.store import SCHEMA

NAMES = ("Ana", "Bea")


def record(browser, url, query="") -> dict:
    response = browser.get(f"{url}/record.json{query}")
    assert response.status_code == 200 and response.mimetype == "application/json"
    return response.get_json()


def over(table) -> bool:
    return table.phase == "over"


def finish_and_renew(app, url, players, rng) -> dict:
    """Play the current match to its end, note its record, and start a new one; returns the record."""
    table = play_until(app, url, players, rng, over)
    finished = record(players[1], url)
    assert finished["winner"] is not None and finished["rounds"]
    assert players[0].post(f"{url}/next-round", {"version": table.version}).status_code == 204
    return finished


ANNOUNCED = re.compile(r'<p id="announce-src"[^>]*>([^<]*)')  # what screen readers hear of the last change


def test_after_a_new_match_the_earlier_one_is_still_served_and_linked(app):
    url, players = open_table(app, "block", 2, target=50, names=NAMES)
    assert "record.json?match" not in page(players[0], url)  # nothing earlier yet
    assert ANNOUNCED.search(page(players[0], url)).group(1).startswith("Round 1 begins")
    rng = random.Random(4)
    first = finish_and_renew(app, url, players, rng)
    visitor = Browser(app)
    # Said as a new match (the scores start again), not only as "Round 1 begins".
    assert ANNOUNCED.search(page(visitor, url)).group(1).startswith("A new match begins. Round 1 begins")
    assert record(visitor, url, "?match=1") == first
    current = record(visitor, url)
    assert current["rounds"] == [] and current["scores"] == [0, 0]  # the default is unchanged: this match
    assert record(visitor, url, "?match=2") == current
    assert load_match(record(visitor, url, "?match=1")).winner == first["winner"]  # it replays
    second = finish_and_renew(app, url, players, rng)
    assert record(visitor, url, "?match=1") == first and record(visitor, url, "?match=2") == second
    html = page(visitor, url)  # the score sheet links every earlier match, and this one
    assert f'href="{url}/record.json?match=1"' in html and f'href="{url}/record.json?match=2"' in html
    assert f'href="{url}/record.json"' in html
    assert db_rows(app, "SELECT match_no FROM matches ORDER BY match_no") == [(1,), (2,)]


def test_a_match_number_that_does_not_exist_is_a_404_and_nonsense_a_400(app):
    url, _ = open_table(app, "block", 2, target=50, names=NAMES)
    visitor = Browser(app)
    for number in ("0", "2", "99", "000000002"):
        assert visitor.get(f"{url}/record.json?match={number}").status_code == 404, number
    for nonsense in ("x", "-1", "1.0", "", "١", "9" * 20):
        assert visitor.get(f"{url}/record.json?match={nonsense}").status_code == 400, nonsense
    assert record(visitor, url, "?match=1") == record(visitor, url)


def test_earlier_records_survive_a_restart_and_keep_the_names_they_had(make_app):
    app = make_app(TABLES_OPTIONS={"rng": random.Random(8)})
    url, players = open_table(app, "block", 2, target=50, names=NAMES)
    first = finish_and_renew(app, url, players, random.Random(8))
    app.extensions["fichas"].close()
    again = make_app()
    players = [reopen(p, again, url) for p in players]
    assert record(players[0], url, "?match=1") == first
    # The record kept is the one of then, whatever the seats are called later.
    with closing(sqlite3.connect(again.config["DATABASE"])) as db, db:
        db.execute("UPDATE seats SET name='Zoe' WHERE seat=1")
    assert record(players[0], url, "?match=1")["players"] == list(NAMES)


def test_a_database_of_schema_3_is_upgraded_and_its_earlier_matches_are_replayed(make_app):
    """Before schema 4 a finished match was not kept whole: its rounds are replayed instead."""
    app = make_app(TABLES_OPTIONS={"rng": random.Random(9)}, SECRET_KEY="kept")
    url, players = open_table(app, "draw", 2, target=50, names=NAMES)
    rng = random.Random(9)
    first = finish_and_renew(app, url, players, rng)
    start = live_table(app, url).version
    play_until(app, url, players, rng, lambda t: t.version >= start + 3)  # match 2 under way
    app.extensions["fichas"].close()
    with closing(sqlite3.connect(app.config["DATABASE"])) as db, db:  # as schema 3 left it
        db.execute("DROP TABLE matches")
        db.execute("ALTER TABLE round_events DROP COLUMN at")
        db.execute("ALTER TABLE tables DROP COLUMN changed_at")
        db.execute("ALTER TABLE tables DROP COLUMN seen_at")
        db.execute("DROP TABLE purged")
        db.execute("ALTER TABLE tables DROP COLUMN chat")
        db.execute("DROP TABLE talk")
        db.execute("DROP INDEX seats_of_browser")
        db.execute("PRAGMA user_version = 3")

    again = make_app(SECRET_KEY="kept")
    assert db_rows(again, "PRAGMA user_version")[0][0] == len(SCHEMA) == 8
    players = [reopen(p, again, url) for p in players]
    assert record(Browser(again), url, "?match=1") == first  # replayed from the rounds kept
    assert json.dumps(record(Browser(again), url, "?match=1")) == json.dumps(first)
    second = finish_and_renew(again, url, players, rng)  # and from now on matches are kept whole
    assert db_rows(again, "SELECT match_no FROM matches") == [(2,)]
    assert record(Browser(again), url, "?match=2") == second


def earlier_results(html: str) -> list[str]:
    """The earlier matches' results as the score sheet lists them, as text."""
    found = re.search(r'<div class="earlier">(.*?)</div>', html, re.S)
    if found is None:
        return []
    items = re.findall(r"<li>(.*?)</li>", found.group(1), re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", item).split()) for item in items]


def test_each_earlier_matchs_result_stays_on_the_score_sheet_through_new_matches_and_a_restart(make_app):
    """A new match clears the result box: who won the last one, and by how much, stays on the sheet."""
    app = make_app(TABLES_OPTIONS={"rng": random.Random(5)})
    url, players = open_table(app, "block", 2, target=50, names=NAMES)
    assert earlier_results(page(players[0], url)) == []
    rng = random.Random(5)
    expected = []
    for number in (1, 2):
        finished = finish_and_renew(app, url, players, rng)
        scores = finished["scores"]
        assert max(scores) >= 50 and scores[finished["winner"]] == max(scores)
        expected.append(f"Match {number}, won by {NAMES[finished['winner']]}: "
                        f"{NAMES[0]} {scores[0]} · {NAMES[1]} {scores[1]}")
        for viewer in (players[0], players[1], Browser(app)):  # seats and a spectator alike
            assert earlier_results(page(viewer, url)) == expected
    app.extensions["fichas"].close()
    again = make_app()
    players = [reopen(p, again, url) for p in players]
    assert earlier_results(page(players[1], url)) == expected  # read back from the store


BROKEN = {  # a match kept before schema 4 (replayed from its rounds), broken since in one of three ways
    "an event missing": "DELETE FROM round_events WHERE match_no=1 AND number=1 AND seq=0",
    "its last move missing": "DELETE FROM round_events WHERE match_no=1 AND number=(SELECT max(number) FROM"
                             " rounds WHERE match_no=1) AND seq=(SELECT max(seq) FROM round_events WHERE"
                             " match_no=1 AND number=(SELECT max(number) FROM rounds WHERE match_no=1))",
    "a round missing": "DELETE FROM rounds WHERE match_no=1 AND number=1",
}


@pytest.mark.parametrize("broken", list(BROKEN))
def test_an_earlier_match_that_cannot_be_read_is_left_off_the_sheet_and_the_table_loads(make_app, broken):
    """Matches ended before schema 4 are replayed from their rounds: one that breaks the rules now, or
    replays unfinished (no winner), must not keep the table from loading nor its pages from showing."""
    app = make_app(TABLES_OPTIONS={"rng": random.Random(5)})
    url, players = open_table(app, "block", 2, target=50, names=NAMES)
    rng = random.Random(5)
    finish_and_renew(app, url, players, rng)
    second = finish_and_renew(app, url, players, rng)
    app.extensions["fichas"].close()
    with closing(sqlite3.connect(app.config["DATABASE"])) as db, db:
        db.execute("DELETE FROM matches WHERE match_no=1")  # as if it ended before schema 4 ...
        db.execute(BROKEN[broken])  # ... and broke since
    again = make_app()
    players = [reopen(p, again, url) for p in players]
    shown = earlier_results(page(players[0], url))
    assert len(shown) == 1 and shown[0].startswith(f"Match 2, won by {NAMES[second['winner']]}:"), shown
    assert record(players[0], url, "?match=2") == second
