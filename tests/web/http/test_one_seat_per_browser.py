"""One seat per browser at a table: a browser is its signed CSRF token (hashed), checked under the
table's lock, and kept in the seats table (browser_hash), so it holds across restarts."""

import threading

from helpers import Browser, open_table
from helpers.pages import db_rows, flash_text, reopen, twin
from web.guard.security import CSRF_COOKIE, SEAT_COOKIE

ALREADY = "already has a seat"


def seats_of(app, url: str) -> list[tuple]:
    return db_rows(app, "SELECT seat, name FROM seats WHERE table_id=? ORDER BY seat", url.rsplit("/", 1)[-1])


def lose_seat_cookie(browser: Browser, url: str) -> None:
    """The browser keeps its CSRF cookie but not its seat cookie (another tab racing, a cleared path)."""
    browser.client.delete_cookie(SEAT_COOKIE, path=url)


def open_block(app, seats=3):
    host = Browser(app)
    url = host.client.post("/tables", data={"name": "Ana", "variant": "block", "seats": seats, "target": 100,
                                            "csrf_token": host.csrf}).headers["Location"]
    return host, url


def test_a_second_seat_for_the_same_browser_is_a_readable_409(app):
    _, url = open_block(app)
    guest = Browser(app)
    assert guest.post(f"{url}/join", {"name": "Bea"}).status_code == 204
    lose_seat_cookie(guest, url)
    response = guest.post(f"{url}/join", {"name": "Carl"})
    assert response.status_code == 409
    assert ALREADY in flash_text(response.get_data(as_text=True))
    assert seats_of(app, url) == [(0, "Ana"), (1, "Bea")]


def test_the_host_cannot_take_a_second_seat_at_its_own_table(app):
    host, url = open_block(app)
    lose_seat_cookie(host, url)
    assert host.post(f"{url}/join", {"name": "Other Ana"}).status_code == 409
    assert seats_of(app, url) == [(0, "Ana")]


def test_a_browser_with_its_seat_cookie_is_just_sent_to_its_seat(app):
    host, url = open_block(app)
    response = host.post(f"{url}/join", {"name": "Ana again"})
    assert response.status_code == 204 and response.headers["HX-Redirect"] == url
    assert seats_of(app, url) == [(0, "Ana")]


def test_the_same_browser_may_sit_at_other_tables_and_other_browsers_still_join(app):
    host, first = open_block(app)
    _, second = open_block(app)
    assert host.post(f"{second}/join", {"name": "Eve"}).status_code == 204  # another table: fine
    assert Browser(app).post(f"{first}/join", {"name": "Bea"}).status_code == 204
    assert seats_of(app, first) == [(0, "Ana"), (1, "Bea")]
    assert seats_of(app, second) == [(0, "Ana"), (1, "Eve")]


def test_a_new_csrf_cookie_is_a_new_browser(app):
    """The identity is the signed token: a browser that lost its cookies is a new one (and may sit)."""
    host, url = open_block(app)
    fresh = Browser(app)
    fresh.client.set_cookie(CSRF_COOKIE, host.client.get_cookie(CSRF_COOKIE).value)
    fresh.csrf = host.csrf
    assert fresh.post(f"{url}/join", {"name": "Bea"}).status_code == 409  # same cookie: same browser
    assert Browser(app).post(f"{url}/join", {"name": "Bea"}).status_code == 204


def test_the_browser_is_stored_hashed_and_survives_a_restart(make_app):
    app = make_app()
    host, url = open_block(app)
    (stored,) = db_rows(app, "SELECT browser_hash FROM seats WHERE seat=0")[0]
    cookie = host.client.get_cookie(CSRF_COOKIE).value
    assert len(stored) == 64 and cookie not in stored and stored != cookie
    app.extensions["fichas"].close()
    again = make_app()
    returning = reopen(host, again, url)
    lose_seat_cookie(returning, url)
    response = returning.post(f"{url}/join", {"name": "Other Ana"})
    assert response.status_code == 409 and ALREADY in flash_text(response.get_data(as_text=True))
    assert seats_of(again, url) == [(0, "Ana")]


def test_seats_taken_before_browsers_were_recorded_still_load(make_app):
    app = make_app()
    url, players = open_table(app, "block", 2, names=("Ana", "Bea"))
    app.extensions["fichas"].close()
    import sqlite3
    from contextlib import closing

    with closing(sqlite3.connect(app.config["DATABASE"])) as db, db:
        db.execute("UPDATE seats SET browser_hash=NULL")  # as schema 2 left them
    again = make_app()
    assert reopen(players[1], again, url).get(url).status_code == 200


def test_two_joins_at_once_from_one_browser_take_one_seat(make_server):
    """The race: the same cookies, two names, sent at the same moment; repeated over several tables."""
    server = make_server()
    for attempt in range(8):
        url = server.player().create("Ana", "block", 3)
        visitor = server.player()
        answers = at_once([visitor, twin(server, visitor)], url, ("Bea", "Carl"))
        assert sorted(answer.status_code for answer in answers) == [204, 409], attempt
        refused = next(answer for answer in answers if answer.status_code == 409)
        assert ALREADY in flash_text(refused.text)
        seated = seats_of(server.app, url)
        assert len(seated) == 2 and seated[1][1] in ("Bea", "Carl"), seated


def at_once(tabs, url: str, names) -> list:
    """Each tab posts its join at the same moment (a barrier); their answers."""
    start = threading.Barrier(len(tabs))
    answers = [None] * len(tabs)

    def join(index: int) -> None:
        start.wait()
        answers[index] = tabs[index].post(f"{url}/join", {"name": names[index]})

    threads = [threading.Thread(target=join, args=(index,)) for index in range(len(tabs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    return answers
