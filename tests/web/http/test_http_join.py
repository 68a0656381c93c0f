"""GET /t/<id> and POST /t/<id>/join: seats by arrival (S1), spectators (S2), names, cookies."""

import random
from pathlib import Path

import pytest

from helpers import Browser, open_table, version_of
from helpers.pages import (
    db_rows,
    flash_text,
    hand_of,
    hand_texts,
    live_table,
    page,
    play_until,
    playing,
    seat_panels,
    seat_secret,
    section,
    tiles_in,
    turn_seat,
    you_of,
)
from web.guard.security import SEAT_COOKIE

NAMES = ("Ana", "Bea", "Carl", "Dan")


def seat_names(app, url):
    return db_rows(app, "SELECT seat, name FROM seats WHERE table_id=? ORDER BY seat", url.split("/")[-1])


def test_s1_seats_in_order_of_arrival(app):
    url, players = open_table(app, names=NAMES)
    assert seat_names(app, url) == list(enumerate(NAMES))
    rnd = live_table(app, url).match.round
    for seat, player in enumerate(players):
        html = page(player, url)
        assert you_of(html) == str(seat)
        panels = seat_panels(html)
        assert [NAMES[s] in panels[s][1] for s in range(4)] == [True] * 4
        assert "host" in panels[0][1] and all("host" not in panels[s][1] for s in (1, 2, 3))
        # S1: the round started as soon as the fourth seat was taken; everyone holds 7 tiles (P2).
        assert 'data-phase="playing"' in html
        assert hand_of(html) == hand_texts(rnd, seat) and len(hand_of(html)) == 7
        assert turn_seat(html) == rnd.turn


def test_s1_no_round_before_every_seat_is_taken(app, new_browser):
    host = new_browser()
    url = host.client.post("/tables", data={"name": "Ana", "variant": "block", "seats": 3, "target": 100,
                                            "csrf_token": host.csrf}).headers["Location"]
    guest = new_browser()
    assert guest.post(f"{url}/join", {"name": "Bea"}).status_code == 204
    html = page(guest, url)
    assert you_of(html) == "1"
    assert 'data-phase="waiting"' in html and "2 of 3 seated" in html
    assert hand_of(html) == [] and "1 more player join" in html
    assert 'class="join"' in page(new_browser(), url)  # a newcomer is offered the last seat
    assert live_table(app, url).match is None


def test_join_answers_htmx_with_a_redirect_header_and_a_form_with_303(app, new_browser):
    host = new_browser()
    url = host.client.post("/tables", data={"name": "Ana", "variant": "draw", "seats": 3, "target": 100,
                                            "csrf_token": host.csrf}).headers["Location"]
    bea = new_browser()
    response = bea.post(f"{url}/join", {"name": "Bea"})
    assert response.status_code == 204 and response.headers["HX-Redirect"] == url
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(f"{SEAT_COOKIE}=") and f"Path={url}" in cookie
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    carl = new_browser()
    response = carl.client.post(f"{url}/join", data={"name": "Carl", "csrf_token": carl.csrf})
    assert response.status_code == 303 and response.headers["Location"] == url
    assert you_of(page(carl, url)) == "2"


@pytest.mark.parametrize("name", ["ana", "ANA", "  Ana  ", "aNa"])
def test_join_refuses_a_name_taken_at_the_table(app, new_browser, name):
    host = new_browser()
    url = host.client.post("/tables", data={"name": "Ana", "variant": "block", "seats": 2, "target": 100,
                                            "csrf_token": host.csrf}).headers["Location"]
    visitor = new_browser()
    response = visitor.post(f"{url}/join", {"name": name})
    assert response.status_code == 409
    assert "already called" in flash_text(response.get_data(as_text=True))
    assert seat_secret(visitor, url) is None
    assert seat_names(app, url) == [(0, "Ana")]
    assert you_of(page(visitor, url)) == ""


@pytest.mark.parametrize(("name", "words"), [("", "name"), ("   ", "name"), ("z" * 25, "24"),
                                             ("Bo\tb", "control"), ("Bo\u2028b", "control")])
def test_join_refuses_a_bad_name(app, new_browser, name, words):
    host = new_browser()
    url = host.client.post("/tables", data={"name": "Ana", "variant": "block", "seats": 2, "target": 100,
                                            "csrf_token": host.csrf}).headers["Location"]
    visitor = new_browser()
    response = visitor.post(f"{url}/join", {"name": name})
    assert response.status_code == 400
    assert words in flash_text(response.get_data(as_text=True))
    assert seat_names(app, url) == [(0, "Ana")]
    assert live_table(app, url).version == 1


def test_s2_full_table_visitor_watches_and_sees_no_hand(app, new_browser):
    url, _ = open_table(app, names=NAMES)
    version = live_table(app, url).version
    visitor = new_browser()
    response = visitor.post(f"{url}/join", {"name": "Eve"})
    assert response.status_code == 409
    assert "watch" in flash_text(response.get_data(as_text=True))
    assert seat_secret(visitor, url) is None
    assert len(seat_names(app, url)) == 4 and live_table(app, url).version == version
    html = page(visitor, url)
    assert you_of(html) == "" and "You are watching" in html
    assert 'id="hand"' not in html and 'class="join"' not in html
    assert "reveal" not in section(html, "table")
    assert tiles_in(html) == set()  # nothing placed yet, and no hand: no tile at all


def test_s2_spectator_sees_no_hand(app, new_browser):
    url, players = open_table(app, "draw", 2, names=("Ana", "Bea"))
    table = play_until(app, url, players, random.Random(2), lambda t: len(t.match.round.line) >= 3)
    html = page(new_browser(), url)
    assert 'id="hand"' not in html
    rnd = table.match.round
    secret = {t.text for hand in rnd.hands for t in hand} | {t.text for t in rnd.boneyard}
    assert tiles_in(html) & secret == set()
    assert all(f"{len(rnd.hands[s])} tile" in seat_panels(html)[s][1] for s in (0, 1))


def test_join_when_already_seated_keeps_the_seat(app):
    url, players = open_table(app, "block", 3, names=("Ana", "Bea", "Carl"))
    secret = seat_secret(players[1], url)
    # A second tab still showing the join form: htmx is told to load the page (a 303 would be
    # followed by the browser and the whole page swapped into the message area).
    response = players[1].post(f"{url}/join", {"name": "Bob"})
    assert response.status_code == 204 and response.headers["HX-Redirect"] == url
    assert "Set-Cookie" not in response.headers
    plain = players[1].client.post(f"{url}/join", data={"name": "Bob", "csrf_token": players[1].csrf})
    assert plain.status_code == 303 and plain.headers["Location"] == url
    assert seat_secret(players[1], url) == secret
    assert [name for _, name in seat_names(app, url)] == ["Ana", "Bea", "Carl"]


def test_join_without_csrf_token_is_refused(app, new_browser):
    host = new_browser()
    url = host.client.post("/tables", data={"name": "Ana", "variant": "block", "seats": 2, "target": 100,
                                            "csrf_token": host.csrf}).headers["Location"]
    visitor = new_browser()
    assert visitor.post(f"{url}/join", {"name": "Bea"}, csrf=False).status_code == 403
    other = new_browser()  # another browser's token does not match this browser's cookie
    response = visitor.client.post(f"{url}/join", data={"name": "Bea"}, headers={"X-CSRF-Token": other.csrf})
    assert response.status_code == 403
    assert seat_names(app, url) == [(0, "Ana")] and seat_secret(visitor, url) is None


def test_names_are_shown_as_text_never_as_html(app, new_browser):
    evil = "<img src=x onerror=f()>"  # 23 characters: a valid name
    url, players = open_table(app, "block", 2, names=(evil, "<b>Bea</b>"))
    assert [name for _, name in seat_names(app, url)] == [evil, "<b>Bea</b>"]
    for viewer in (*players, new_browser()):
        html = page(viewer, url)
        assert "<img src=x" not in html and "<b>Bea" not in html  # (the page's own images: its QR codes)
        assert "&lt;img src=x onerror=f()&gt;" in html and "&lt;b&gt;Bea&lt;/b&gt;" in html
    taken = new_browser().post(f"{url}/join", {"name": "<B>bea</B>"})
    assert "<B>" not in taken.get_data(as_text=True)


def test_reloading_with_the_cookie_returns_the_same_seat(app):
    url, players = open_table(app, names=NAMES)
    rnd = live_table(app, url).match.round
    for seat, player in enumerate(players):
        for _ in range(2):
            html = page(player, url)
            assert you_of(html) == str(seat)
            assert hand_of(html) == hand_texts(rnd, seat)


def test_another_browser_cannot_act_for_a_seat(app, new_browser):
    url, players = open_table(app, names=NAMES)
    table = live_table(app, url)
    rnd = table.match.round
    seat = rnd.turn
    tile, end = rnd.playable(seat)[0]
    move = {"tile": tile.text, "end": end or "", "version": table.version}
    stranger = new_browser()
    assert you_of(page(stranger, url)) == "" and hand_of(page(stranger, url)) is None
    response = stranger.post(f"{url}/play", move)
    assert response.status_code == 403
    assert "seat" in flash_text(response.get_data(as_text=True))
    partner = players[(seat + 2) % 4]  # seated at the table, but not the seat to play
    assert partner.post(f"{url}/play", move).status_code == 409
    forged = Browser(app)
    forged.client.set_cookie(SEAT_COOKIE, "not-a-secret", path=url)
    assert forged.post(f"{url}/play", move).status_code == 403
    assert table.version == move["version"] and tile in rnd.hands[seat]
    assert players[seat].post(f"{url}/play", move).status_code == 204


def test_another_tables_cookie_gives_no_seat(app):
    url_a, players_a = open_table(app, "block", 2, names=("Ana", "Bea"))
    url_b, players_b = open_table(app, "block", 2, names=("Cid", "Dot"))
    table_b = live_table(app, url_b)
    rnd = table_b.match.round
    tile, end = rnd.playable(rnd.turn)[0]
    intruder = players_a[0]
    intruder.client.set_cookie(SEAT_COOKIE, seat_secret(players_b[rnd.turn], url_b) + "x", path=url_b)
    move = {"tile": tile.text, "end": end or "", "version": table_b.version}
    assert intruder.post(f"{url_b}/play", move).status_code == 403
    intruder.client.set_cookie(SEAT_COOKIE, seat_secret(players_a[rnd.turn], url_a), path=url_b)
    assert intruder.post(f"{url_b}/play", move).status_code == 403
    assert you_of(page(intruder, url_b)) == ""
    assert version_of(page(players_b[0], url_b)) == move["version"]


def test_seat_secret_is_stored_hashed(app):
    url, players = open_table(app, "block", 2, names=("Ana", "Bea"))
    secrets_ = [seat_secret(p, url) for p in players]
    assert all(s and len(s) >= 22 for s in secrets_)
    database = Path(app.config["DATABASE"])
    data = b"".join(path.read_bytes() for path in database.parent.glob(database.name + "*"))
    for secret in secrets_:
        assert secret.encode() not in data
    stored = [row[0] for row in db_rows(app, "SELECT secret_hash FROM seats ORDER BY seat")]
    assert len(set(stored)) == 2 and not set(stored) & set(secrets_)


def test_unknown_table_is_404_everywhere(app, new_browser):
    visitor = new_browser()
    for path in ("/t/nope", "/t/nope/record.json", "/t/" + "a" * 65):
        response = visitor.get(path)
        assert response.status_code == 404, path
    assert "no table" in flash_text(visitor.get("/t/nope").get_data(as_text=True))
    for action in ("join", "play", "pass", "draw", "next-round"):
        response = visitor.post(f"/t/nope/{action}", {"name": "Ana", "tile": "3-5", "version": "1"})
        assert response.status_code == 404, action


def test_p2_d1_every_variant_deals_each_seat_its_hand(app):
    for variant, seats in (("partnership", 4), ("block", 2), ("block", 3), ("block", 4), ("draw", 2),
                           ("draw", 3), ("draw", 4)):
        url, players = open_table(app, variant, seats, names=NAMES[:seats])
        table = live_table(app, url)
        assert playing(table)
        rnd = table.match.round
        size = 7 if variant == "partnership" or seats == 2 else 5  # P2, D1
        for seat, player in enumerate(players):
            html = page(player, url)
            assert len(hand_of(html)) == size == len(rnd.hands[seat])


@pytest.mark.parametrize("tail", [".", ")", ",", "%20", "!", ".%22", ").", "%E2%80%A6"])
def test_a_link_pasted_with_a_sentence_s_end_still_opens_the_table(app, tail):
    url, _ = open_table(app, names=("Ana",), seats=2, variant="block")
    friend = Browser(app)
    response = friend.client.get(url + tail)
    assert response.status_code == 302 and response.headers["Location"].endswith(url.rsplit("/t/", 1)[1])
    assert "Take seat 2" in friend.client.get(response.headers["Location"]).get_data(as_text=True)
    assert friend.client.get("/t/nosuchtable.").status_code == 404  # an unknown id stays unknown


def test_a_friend_opening_the_link_finds_how_to_play_beside_the_seat(app):
    url, _ = open_table(app, names=("Ana",), seats=2, variant="block")
    friend = Browser(app)
    html = friend.client.get(url).get_data(as_text=True)
    assert '<a class="rules-link" href="/rules">How to play</a>' in section(html, "me")
    assert friend.client.get("/rules").status_code == 200
