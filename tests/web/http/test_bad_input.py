"""No input gets a 500: odd tokens, cookies, form values and websocket handshakes get a readable 4xx.

Each refusal changes nothing (the table's version and the database's rows stay as they were).
The Hypothesis version of these checks is test_fuzz_input.py.
"""

import logging

import pytest
import simple_websocket

from helpers import open_table
from helpers.pages import db_rows, flash_text, handshake, live_table, seat_up, table_count
from web.guard.security import CSRF_COOKIE, SEAT_COOKIE

GOOD_KEY = "dGhlIHNhbXBsZSBub25jZQ=="  # RFC 6455's example: 16 bytes


def rows(app) -> tuple:
    return tuple(db_rows(app, f"SELECT COUNT(*) FROM {name}")[0][0]
                 for name in ("tables", "seats", "actions", "rounds", "round_events"))


@pytest.mark.parametrize("token", ["é", "ñandú", "\x7f\x80\xff", "token with spaces", "a" * 5000, "=" * 8])
def test_a_non_ascii_or_odd_csrf_token_is_a_403_not_a_500(app, new_browser, token):
    url, players = open_table(app, "block", 2, names=("Ana", "Bea"))
    before, version = rows(app), live_table(app, url).version
    visitor = new_browser()
    for headers, data in (({"X-CSRF-Token": token}, {}), ({}, {"csrf_token": token})):
        response = visitor.client.post("/tables", data={"name": "Eve", "variant": "block", "seats": 2,
                                                        "target": 100, **data}, headers=headers)
        assert response.status_code == 403
        assert "open the page again" in flash_text(response.get_data(as_text=True))
        response = players[0].client.post(f"{url}/pass", data={"version": version, **data}, headers=headers)
        assert response.status_code == 403
    assert rows(app) == before and live_table(app, url).version == version


@pytest.mark.parametrize("value", ["é", "\xe9\xff", "a" * 4000, '"quoted"', "a;b=c", ""])
def test_odd_cookies_are_ignored_or_refused(app, new_browser, value):
    url, _ = open_table(app, "block", 2, names=("Ana", "Bea"))
    before, version = rows(app), live_table(app, url).version
    visitor = new_browser()
    visitor.client.set_cookie(CSRF_COOKIE, value)
    visitor.client.set_cookie(SEAT_COOKIE, value, path=url)
    response = visitor.post(f"{url}/join", {"name": "Eve"})
    assert response.status_code == 403
    assert "open the page again" in flash_text(response.get_data(as_text=True))
    assert visitor.get("/").status_code == 200 and visitor.get(url).status_code == 200
    assert visitor.client.get_cookie(CSRF_COOKIE).value != value  # a page gave it a token of ours
    assert rows(app) == before and live_table(app, url).version == version


@pytest.mark.parametrize("field", [{"tile": "é-ñ"}, {"end": "\u202eleft"}, {"version": "٣"},
                                   {"version": "9" * 5000}, {"version": "1e9"}, {"tile": "\x00"},
                                   {"tile": "6-6" * 1000}])
def test_odd_move_values_are_refused_readably(app, field):
    url, players = open_table(app, "block", 2, names=("Ana", "Bea"))
    table = live_table(app, url)
    before, version = rows(app), table.version
    for action in ("play", "pass", "draw", "next-round"):
        response = players[table.turn].post(f"{url}/{action}", {"version": version, **field})
        assert 400 <= response.status_code < 500, (action, field)
        assert flash_text(response.get_data(as_text=True)), (action, field)
    assert rows(app) == before and live_table(app, url).version == version


# -- websocket handshakes --------------------------------------------------------------------------

def test_a_handshake_without_a_key_is_a_400(live_server):
    url, _ = seat_up(live_server, "block", 2, names=("Ana", "Bea"))
    status, body = raw(live_server, f"{url}/ws", {"Sec-WebSocket-Key": None})
    assert status == 400 and b"Sec-WebSocket-Key" in body


def test_a_client_that_resets_during_the_handshake_is_no_server_error(live_server, monkeypatch, caplog):
    url, _ = seat_up(live_server, "block", 2, names=("Ana", "Bea"))

    def reset(*args, **kwargs):  # what the handshake's write raises when the client is gone
        raise ConnectionResetError(104, "Connection reset by peer")

    monkeypatch.setattr(simple_websocket.ws.Base, "__init__", reset)
    with caplog.at_level(logging.ERROR):
        assert raw(live_server, f"{url}/ws", {})[0] == 400
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize("key", ["", "short", "dGhlIHNhbXBsZSBub25jZQ", "dGhlIHNhbXBsZSBub25jZSEh",
                                 "é" * 24, "dGhlIHNhbXBsZSBub25jZQ==dGhl"])
def test_a_handshake_with_a_key_that_is_not_16_bytes_is_a_400(live_server, key):
    url, _ = seat_up(live_server, "block", 2, names=("Ana", "Bea"))
    assert raw(live_server, f"{url}/ws", {"Sec-WebSocket-Key": key})[0] == 400


@pytest.mark.parametrize("version", ["99", "8", "", "13, 8", "é"])
def test_another_websocket_version_is_a_426_naming_13(live_server, version):
    url, _ = seat_up(live_server, "block", 2, names=("Ana", "Bea"))
    status, head, body = raw_head(live_server, f"{url}/ws", {"Sec-WebSocket-Version": version})
    assert status == 426, version
    assert b"\r\nsec-websocket-version: 13\r\n" in head.lower() + b"\r\n"
    assert b"version 13" in body


@pytest.mark.parametrize("headers", [{"Upgrade": None}, {"Upgrade": "h2c"}, {"Connection": "close"}])
def test_a_plain_request_to_the_websocket_is_a_400(live_server, headers):
    url, _ = seat_up(live_server, "block", 2, names=("Ana", "Bea"))
    status, body = raw(live_server, f"{url}/ws", headers)
    assert status == 400 and b"open the table" in body


def test_a_websocket_for_a_long_table_id_is_a_404_before_any_lookup(live_server, monkeypatch):
    tables = live_server.app.extensions["fichas"].tables
    asked = []
    monkeypatch.setattr(tables.store, "load_table", lambda table_id: asked.append(table_id))
    assert raw(live_server, "/t/" + "a" * 65 + "/ws", {})[0] == 404
    assert asked == []
    assert raw(live_server, "/t/" + "a" * 64 + "/ws", {})[0] == 404
    assert asked == ["a" * 64]


def test_a_good_handshake_still_opens_the_socket(live_server):
    url, _ = seat_up(live_server, "block", 2, names=("Ana", "Bea"))
    assert raw(live_server, f"{url}/ws", {})[0] == 101


def test_a_test_client_handshake_is_checked_the_same_way(app):
    url, _ = open_table(app, "block", 2, names=("Ana", "Bea"))
    client = app.test_client()
    base = {"Upgrade": "websocket", "Connection": "Upgrade", "Origin": "http://localhost",
            "Sec-WebSocket-Version": "13"}
    assert client.get(f"{url}/ws", headers=base).status_code == 400
    response = client.get(f"{url}/ws", headers={**base, "Sec-WebSocket-Key": GOOD_KEY,
                                                "Sec-WebSocket-Version": "99"})
    assert response.status_code == 426 and response.headers["Sec-WebSocket-Version"] == "13"
    assert table_count(app) == 1


def raw_head(server, path: str, changes: dict) -> tuple[int, bytes, bytes]:
    """A handshake with the page's headers, `changes` applied (None removes one): status, head, body."""
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(server.url)
    headers = {"Host": parts.netloc, "Upgrade": "websocket", "Connection": "Upgrade",
               "Sec-WebSocket-Key": GOOD_KEY, "Sec-WebSocket-Version": "13", "Origin": server.url}
    headers.update(changes)
    lines = [f"GET {path} HTTP/1.1", *(f"{k}: {v}" for k, v in headers.items() if v is not None)]
    data = b""
    with socket.create_connection((parts.hostname, parts.port), timeout=5) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("utf-8"))
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        status = int(head.split(b"\r\n", 1)[0].split()[1])
        if status != 101:
            length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                           if line.lower().startswith(b"content-length:")), None)
            while length is not None and len(body) < length:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                body += chunk
    return status, head, body


def raw(server, path: str, changes: dict) -> tuple[int, bytes]:
    status, _, body = raw_head(server, path, changes)
    return status, body


def test_the_helpers_handshake_matches(live_server):
    """helpers.pages.handshake (the other websocket tests') still gets through the new checks."""
    url, _ = seat_up(live_server, "block", 2, names=("Ana", "Bea"))
    assert handshake(live_server.url, f"{url}/ws", {"Origin": live_server.url})[0] == 101


@pytest.mark.parametrize(("path", "title", "lang"), [
    ("/t/nowhere", "Not found — Fichas", "en"), ("/tables", "Something is not right — Fichas", "en"),
    ("/t/nowhere", "No encontrado — Fichas", "es")])
def test_an_error_page_is_named_by_what_went_wrong_and_has_a_way_on(app, path, title, lang):
    """A tab, a history entry or a screen reader's first words named the code alone ("Fichas — 404")."""
    html = app.test_client().get(path, headers={"Accept-Language": lang}).get_data(as_text=True)
    assert f"<title>{title}</title>" in html
    assert '<a class="way-out" href="/">' in html
