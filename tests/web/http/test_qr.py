"""Issue 47: a QR code of the table's link (the waiting room, the menu) and of a seat's private link
(its own page only), drawn on the server as SVG; each decodes to exactly its link."""

import re

from helpers import Browser, open_table
from helpers.pages import page, seat_secret
from helpers.qr import decoded

TABLE_QR = re.compile(r'<img class="qr[^"]*" src="(/t/[^"]+/qr\.svg)"')
SEAT_QR = re.compile(r'src="(/t/[^"]+/seat-qr\.svg)"')


def test_the_tables_qr_code_reads_as_its_link_on_the_page(app):
    url, players = open_table(app, "block", 3, names=("Ana", "Bea"))  # a seat free: the waiting room
    html = page(players[0], url)
    shown = TABLE_QR.findall(html)
    assert shown == [f"{url}/qr.svg"] * 2  # the waiting room's felt, large, and the menu
    assert f'value="http://localhost{url}"' in html  # the link's text beside it
    response = Browser(app).get(shown[0])  # anyone who has the link: a spectator too
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert decoded(response.data) == [f"http://localhost{url}"]
    assert "max-age" in response.headers["Cache-Control"]  # a table's link never changes
    assert "script" not in response.get_data(as_text=True)
    join = Browser(app).post(f"{url}/join", {"name": "Carl"})  # the last seat: the first round is dealt
    assert join.status_code == 204
    assert TABLE_QR.findall(page(players[0], url)) == [f"{url}/qr.svg"]  # in the menu only, from now on


def test_the_tables_qr_code_follows_fichas_public_url(make_app):
    app = make_app(PUBLIC_URL="https://fichas.example.com/")
    url, players = open_table(app, "block", 2, names=("Ana", "Bea"))
    svg = players[1].get(f"{url}/qr.svg").data
    assert decoded(svg) == [f"https://fichas.example.com{url}"]
    assert 'value="https://fichas.example.com' in page(players[1], url)


def test_no_qr_code_for_a_table_that_is_not(app):
    assert Browser(app).get("/t/nope/qr.svg").status_code == 404
    assert Browser(app).get("/t/nope/seat-qr.svg").status_code == 404


def test_the_private_links_qr_code_is_on_its_owners_page_only(app):
    url, players = open_table(app, "block", 2, names=("Ana", "Bea"))
    spectator = Browser(app)
    secrets = [seat_secret(p, url) for p in players]
    for seat, player in enumerate(players):
        answer = player.post(f"{url}/seat-link").get_data(as_text=True)  # "Show my link", in the menu
        assert SEAT_QR.findall(answer) == [f"{url}/seat-qr.svg"]
        response = player.get(f"{url}/seat-qr.svg")
        assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store"
        assert decoded(response.data) == [f"http://localhost{url}/seat#{secrets[seat]}"]
    # Whoever holds no seat gets no code: its answer is a refusal, whatever it asks.
    assert spectator.get(f"{url}/seat-qr.svg").status_code == 403
    stranger = Browser(app)
    assert stranger.post(f"{url}/seat-link").status_code == 403
    # Payload scan: no page carries a private link's code (it is fetched after "Show my link" only), and
    # no page, nor the table's own code, holds a seat's secret.
    for browser in (*players, spectator):
        html = page(browser, url)
        assert "seat-qr" not in html
        assert not any(secret in html for secret in secrets)
    table_code = decoded(spectator.get(f"{url}/qr.svg").data)[0]
    assert not any(secret in table_code for secret in secrets)
    # The offer made right after sitting down stays one line: the code is in the menu's panel.
    offer = players[1].post(f"{url}/seat-link", {"box": "offer"}).get_data(as_text=True)
    assert "seat-qr" not in offer


def test_the_private_links_qr_code_is_refused_once_the_seat_moved_on(app):
    url, players = open_table(app, "block", 2, names=("Ana", "Bea"))
    secret = seat_secret(players[1], url)
    phone = Browser(app)
    assert phone.post(f"{url}/seat", {"secret": secret}).status_code == 303  # scanned, and taken there
    assert players[1].get(f"{url}/seat-qr.svg").status_code == 403  # the old browser holds no seat
    moved = phone.get(f"{url}/seat-qr.svg")
    assert decoded(moved.data) == [f"http://localhost{url}/seat#{seat_secret(phone, url)}"]
