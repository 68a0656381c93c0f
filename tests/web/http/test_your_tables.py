"""Issue 47: your tables on the home page: the tables this browser holds a seat at, newest first, each a
link back with its game, players, whose turn and the score; a seat that changed hands, a purged table
and a table only watched are not listed."""

import random
import re
from contextlib import contextmanager

from helpers import Browser, open_table
from helpers.pages import live_table, page, play_until, round_over, seat_secret
from live.store import TableGone

LISTED = re.compile(r'<li data-table="([^"]+)" data-turn="(yours|other)">')


def listed(browser) -> list[tuple[str, str]]:
    """(table id, "yours" or "other") of each table the home page lists for this browser, in order."""
    return LISTED.findall(browser.get("/").get_data(as_text=True))


def section(browser) -> str:
    html = browser.get("/").get_data(as_text=True)
    start = html.find('id="my-tables"')
    return html[start:html.find("</section>", start)] if start >= 0 else ""


def join(app, url, browser, name):
    assert browser.post(f"{url}/join", {"name": name}).status_code == 204


def test_a_player_sees_each_table_they_sit_at_newest_first_with_its_turn_and_score(make_app):
    app = make_app(TABLES_OPTIONS={"rng": random.Random(5)})
    first, (ana, bea) = open_table(app, "block", 2, names=("Ana", "Bea"))
    second, (cleo,) = open_table(app, "partnership", 4, names=("Cleo",))
    join(app, second, ana, "Ana")  # Ana sits at a second table, which waits for two more players
    ids = [first.rsplit("/", 1)[1], second.rsplit("/", 1)[1]]
    table = live_table(app, first)
    whose = "yours" if table.turn == 0 else "other"
    assert listed(ana) == [(ids[1], "other"), (ids[0], whose)]  # newest first
    assert listed(bea) == [(ids[0], "other" if whose == "yours" else "yours")]
    assert listed(cleo) == [(ids[1], "other")]
    shown = section(ana)
    assert f'href="{second}"' in shown and f'href="{first}"' in shown  # one tap back
    assert "Partnership" in shown and "Block" in shown and "Cleo, Ana" in shown and "Ana, Bea" in shown
    assert "Waiting for players" in shown and "Ana: 0 points" in shown
    assert ("Your turn" in shown) == (whose == "yours")
    assert ana.get("/").headers["Cache-Control"] == "no-store"  # this browser's own, as it is now
    play_until(app, first, [ana, bea], random.Random(5), round_over)  # the score moves on
    scores = dict(zip(("Ana", "Bea"), table.match.scores, strict=True))
    assert f"Ana: {scores['Ana']} points" in section(ana) and f"Bea: {scores['Bea']} points" in section(ana)
    assert listed(ana)[1] == (ids[0], "other")  # between rounds: nobody's turn


def test_the_browsers_token_outlives_its_closing_and_every_seat_cookie(app):
    """The list is found by the browser's signed token (its hash): a session cookie would lose it when the
    browser closes, while the seat's own cookie lasts 30 days."""
    set_cookie = app.test_client().get("/").headers["Set-Cookie"]
    assert set_cookie.startswith("fichas_csrf=") and "Max-Age=31536000" in set_cookie


def test_a_spectator_and_a_new_visitor_list_nothing(app):
    url, _players = open_table(app, "block", 2, names=("Ana", "Bea"))
    spectator = Browser(app)
    assert "Watching" in page(spectator, url)
    for browser in (spectator, Browser(app)):
        assert listed(browser) == [] and 'id="my-tables"' not in browser.get("/").get_data(as_text=True)
        assert "no-store" not in browser.get("/").headers.get("Cache-Control", "")


def test_a_seat_taken_to_another_browser_leaves_the_old_ones_list(app):
    url, players = open_table(app, "block", 2, names=("Ana", "Bea"))
    phone = Browser(app)
    assert phone.post(f"{url}/seat", {"secret": seat_secret(players[1], url)}).status_code == 303
    table_id = url.rsplit("/", 1)[1]
    assert listed(players[1]) == [] and [t for t, _ in listed(phone)] == [table_id]


def test_a_seat_handed_over_leaves_its_old_holders_list(make_app):
    app = make_app(TABLES_OPTIONS={"rng": random.Random(3)})
    url, players = open_table(app, "block", 2, target=500, names=("Ana", "Bea"))
    table, table_id = live_table(app, url), url.rsplit("/", 1)[1]
    zoe = Browser(app)
    assert zoe.post(f"{url}/ask", {"name": "Zoe"}).status_code == 204
    assert listed(zoe) == []  # asking is no seat
    play_until(app, url, players, random.Random(3), round_over)
    fields = {"seat": 1, "ask": next(iter(table.asks)), "version": table.version}
    assert players[0].post(f"{url}/hand-over", fields).status_code == 204
    assert listed(players[1]) == []
    assert [t for t, _ in listed(zoe)] == [table_id] and "Ana, Zoe" in section(zoe)


def test_a_purged_table_leaves_the_list(app):
    _url, players = open_table(app, "block", 3, names=("Ana", "Bea"))  # never started: a seat free
    store = app.extensions["fichas"].tables.store
    assert len(listed(players[0])) == 1
    far = 4_000_000_000.0  # the purge run long after: the table idle and unseen for days
    assert store.purge(finished_before=far, unstarted_before=far, now=far)["never_started"] == 1
    assert listed(players[0]) == [] and players[0].get("/").status_code == 200


def test_a_table_purged_as_the_home_page_reads_it_is_left_out(app, monkeypatch):
    """The purge took it between the home page's query and its lock: the page lists the others."""
    _url, players = open_table(app, "block", 2, names=("Ana", "Bea"))

    @contextmanager
    def purged_meanwhile(table):
        raise TableGone("The table has been removed.")
        yield table

    monkeypatch.setattr(app.extensions["fichas"].tables, "locked", purged_meanwhile)
    response = players[0].get("/")
    assert response.status_code == 200 and listed(players[0]) == []
