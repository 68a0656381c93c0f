"""Hypothesis: whatever headers, cookies, form fields or websocket handshakes arrive, no 5xx, and a
refused request changes nothing (the tables' versions and the database's row counts).

Header and cookie values are Latin-1 text (what a WSGI server hands over: each byte one
character, non-ASCII bytes included); form values are any Unicode text (browsers send UTF-8).
The handshakes go over a raw socket to a real server, byte for byte.
"""

from __future__ import annotations

import socket
from urllib.parse import quote, urlsplit

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from helpers import Browser, open_table
from helpers.pages import db_rows, seat_up
from helpers.profiles import examples
from web.guard.security import CSRF_COOKIE, SEAT_COOKIE

# The fixtures are built once per test and shared by its examples (each example measures its own
# before and after): hence function_scoped_fixture.
FUZZ = settings(max_examples=examples(120), deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
TABLES = ("tables", "seats", "actions", "rounds", "round_events", "settings")
GOOD_KEY = "dGhlIHNhbXBsZSBub25jZQ=="

# -- values -----------------------------------------------------------------------------------------

LATIN1 = st.characters(min_codepoint=0, max_codepoint=0xFF, exclude_characters="\r\n")
HUGE = st.builds(lambda char, n: char * n, st.sampled_from(["a", "é", "=", ";", "\x00", "%", "\xff"]),
                 st.integers(1_000, 8_000))
SPECIAL = st.sampled_from(["", " ", "é", "ñandú", "\xe9\xff", "null", "*", "%00", "\x00", "\\", '"', "'",
                           "a" * 64 + ".localhost", "xn--zz", "localhost:0", "LOCALHOST", "[::1]:8000",
                           "http://evil.example", "https://localhost", "http://localhost",
                           "http://[::1", "http://localhost:99999", "http://localhost:port", "//localhost",
                           "localhost", "evil.example", "localhost:80", "[::1]", "127.0.0.1:8000", "0",
                           "-1", "99999999999999999999", "websocket", "Upgrade", GOOD_KEY, "13", "99",
                           "a=b; c=d", "fichas_csrf=x", "../../etc/passwd", "<script>", "{{7*7}}"])
HEADER_VALUE = st.one_of(SPECIAL, st.text(LATIN1, max_size=60), HUGE)
FORM_VALUE = st.one_of(SPECIAL, st.text(max_size=40), st.integers(-10**20, 10**20).map(str), HUGE)
HEADER_NAMES = ["Host", "Origin", "Cookie", "X-CSRF-Token", "HX-Request", "Accept-Encoding", "Content-Type",
                "Referer", "X-Forwarded-Proto", "X-Forwarded-For", "X-Forwarded-Host", "Accept",
                "If-None-Match", "Range", "Authorization", "Accept-Language"]


def cookie_header() -> st.SearchStrategy[str]:
    """A Cookie header: our two cookies and others, with odd values, or plain odd text."""
    pair = st.tuples(st.sampled_from([CSRF_COOKIE, SEAT_COOKIE, "session", "é", ""]), HEADER_VALUE)
    joined = st.lists(pair, max_size=4).map(lambda pairs: "; ".join(f"{k}={v}" for k, v in pairs))
    return st.one_of(joined, HEADER_VALUE)


# Hosts with "xn--" labels are left to the raw handshakes below: Werkzeug's test client itself fails
# on them (it decodes the request's URL as IDNA), whereas the app answers 400.
CLIENT_VALUE = HEADER_VALUE.filter(lambda value: "xn--" not in value.lower())
HEADERS = st.dictionaries(st.sampled_from(HEADER_NAMES), CLIENT_VALUE, max_size=6).flatmap(
    lambda headers: st.one_of(st.just(headers),
                              cookie_header().map(lambda cookie: {**headers, "Cookie": cookie})))

# -- state ------------------------------------------------------------------------------------------


def state(app) -> tuple:
    """What a refused request must not change: row counts, and every loaded table's version."""
    counts = tuple(db_rows(app, f"SELECT COUNT(*) FROM {name}")[0][0] for name in TABLES)
    loaded = app.extensions["fichas"].tables._tables
    versions = tuple(sorted((table_id, table.version) for table_id, table in loaded.items()))
    stored = tuple(db_rows(app, "SELECT id, version FROM tables ORDER BY id"))
    return counts, versions, stored


def body(response) -> str:
    return response.get_data(as_text=True)[:300]


@pytest.fixture
def fuzz_app(make_app):
    """An app (limits raised: many tables are opened) with a two-player table in play."""
    app = make_app(TABLES_PER_MINUTE=100_000, JOINS_PER_MINUTE=100_000)
    url, players = open_table(app, "block", 2, names=("Ana", "Bea"))
    return app, url, players


@pytest.fixture
def fuzz_server(make_server):
    """A real server with a two-player table in play."""
    server = make_server(TABLES_PER_MINUTE=100_000, JOINS_PER_MINUTE=100_000, CONNECTS_PER_SECOND=0)
    url, _ = seat_up(server, "block", 2, names=("Ana", "Bea"))
    return server, url


# -- headers and cookies, every page ----------------------------------------------------------------

@FUZZ
@given(data=st.data(), method=st.sampled_from(["GET", "POST", "HEAD", "PUT"]),
       where=st.sampled_from(["/", "/rules", "{url}", "{url}/record.json", "{url}/join", "{url}/play",
                              "{url}/pass", "{url}/draw", "{url}/next-round", "/tables", "/t/{odd}",
                              "/static/fichas.css", "/favicon.ico", "/t/{odd}/join"]),
       headers=HEADERS, real_cookie=st.booleans())
def test_any_headers_and_cookies_get_no_5xx_and_change_nothing(fuzz_app, data, method, where, headers,
                                                               real_cookie):
    app, url, players = fuzz_app
    odd = quote(data.draw(st.text(LATIN1, min_size=1, max_size=80), label="odd id"), safe="")
    path = where.format(url=url, odd=odd)
    if real_cookie and "Cookie" not in headers:  # a cookie the server signed, beside odd tokens
        headers = {**headers, "Cookie": f"{CSRF_COOKIE}={players[0].client.get_cookie(CSRF_COOKIE).value}"}
    before = state(app)
    form = data.draw(st.dictionaries(st.sampled_from(["csrf_token", "name", "version", "tile", "end"]),
                                     FORM_VALUE, max_size=3), label="form") if method == "POST" else None
    client = app.test_client(use_cookies=False)
    response = client.open(path, method=method, headers=headers, data=form)
    event(f"status {response.status_code}")
    assert response.status_code < 500, (path, headers, body(response))
    # No request here carries a token the server issued: nothing may change, whatever the answer.
    assert state(app) == before, (path, headers, response.status_code)


# -- form fields, with a valid token --------------------------------------------------------------

@FUZZ
@given(fields=st.fixed_dictionaries({}, optional={"name": FORM_VALUE, "variant": st.one_of(
    st.sampled_from(["partnership", "block", "draw"]), FORM_VALUE), "seats": st.one_of(
    st.sampled_from(["2", "3", "4"]), FORM_VALUE), "target": st.one_of(st.sampled_from(["100", "50"]),
                                                                         FORM_VALUE)}),
       htmx=st.booleans())
def test_any_create_form_gets_a_303_or_a_readable_4xx(fuzz_app, fields, htmx):
    app = fuzz_app[0]
    visitor = Browser(app)
    before = state(app)
    headers = {"X-CSRF-Token": visitor.csrf, **({"HX-Request": "true"} if htmx else {})}
    response = visitor.client.post("/tables", data=fields, headers=headers)
    event(f"status {response.status_code}")
    assert response.status_code == 303 or 400 <= response.status_code < 500, (fields, body(response))
    if response.status_code != 303:
        assert state(app) == before, fields
        assert "field-error" in response.get_data(as_text=True) or "flash-error" in body(response)


@FUZZ
@given(name=FORM_VALUE, extra=st.dictionaries(st.sampled_from(["seat", "csrf_token", "tile"]), FORM_VALUE,
                                              max_size=2), seats=st.sampled_from([2, 3, 4]))
def test_any_join_gets_a_204_or_a_readable_4xx(fuzz_app, name, extra, seats):
    app = fuzz_app[0]
    host = Browser(app)
    url = host.client.post("/tables", data={"name": "Ana", "variant": "block", "seats": seats, "target": 100,
                                            "csrf_token": host.csrf}).headers["Location"]
    for guest in (Browser(app), host):  # the host's browser has its seat: it is sent to the page
        before = state(app)
        response = guest.post(f"{url}/join", {"name": name, **extra})
        event(f"status {response.status_code}")
        assert response.status_code == 204 or 400 <= response.status_code < 500, (name, body(response))
        if response.status_code >= 400:
            assert state(app) == before, name
            assert "flash-error" in body(response)


@FUZZ
@given(action=st.sampled_from(["play", "pass", "draw", "next-round"]),
       tile=st.one_of(st.none(), st.sampled_from(["0-0", "6-6", "3-5", "5-3", "7-1", "", "6-", "-"]),
                      FORM_VALUE),
       end=st.one_of(st.none(), st.sampled_from(["left", "right", "", "any", "LEFT"]), FORM_VALUE),
       version=st.one_of(st.none(), st.just("current"), st.integers(-3, 50).map(str), FORM_VALUE),
       seat=st.sampled_from([0, 1, None]))
def test_any_move_gets_a_204_or_a_readable_4xx_and_a_refusal_changes_nothing(fuzz_app, action, tile, end,
                                                                          version, seat):
    app, url, players = fuzz_app
    table = app.extensions["fichas"].tables.get(url.rsplit("/", 1)[-1])
    player = Browser(app) if seat is None else players[seat]
    form = {key: value for key, value in (("tile", tile), ("end", end), ("version", version))
            if value is not None}
    if version == "current":
        form["version"] = str(table.version)
    before = state(app)
    response = player.post(f"{url}/{action}", form)
    event(f"status {response.status_code}")
    assert response.status_code == 204 or 400 <= response.status_code < 500, (form, body(response))
    if response.status_code != 204:
        assert state(app) == before, (action, form)
        assert "flash-error" in body(response)


# -- websocket handshakes, byte for byte ------------------------------------------------------------

ODD_KEYS = st.one_of(st.sampled_from(["", "short", GOOD_KEY[:-2], GOOD_KEY + "x", "é" * 24,
                                      "dGhlIHNhbXBsZSBub25jZSEh", "AAAAAAAAAAAAAAAAAAAAA?=="]),
                     st.text(LATIN1, max_size=40))
OTHER_VERSIONS = ["8", "99", "13, 8", "", "é", "0"]
# What a handshake may differ in from a browser's (None: the header is left out).
CHANGES = {
    "path": st.sampled_from(["long", "unknown", "odd", "slash", "no-ws"]),
    "Host": st.one_of(st.none(), HEADER_VALUE, st.sampled_from(["a" * 64 + ".localhost", "xn--zz", "[::1"])),
    "Upgrade": st.one_of(st.none(), st.sampled_from(["WebSocket", "h2c", "websocket, x"]), HEADER_VALUE),
    "Connection": st.one_of(st.none(), st.sampled_from(["keep-alive, Upgrade", "close", "Upgrade\x0b"]),
                            HEADER_VALUE),
    "Sec-WebSocket-Key": st.one_of(st.none(), ODD_KEYS),
    "Sec-WebSocket-Version": st.one_of(st.none(), st.sampled_from(OTHER_VERSIONS), HEADER_VALUE),
    "Origin": st.one_of(st.none(), SPECIAL, HEADER_VALUE),
}
EXTRAS = {
    "Cookie": cookie_header(),
    "Sec-WebSocket-Extensions": st.one_of(st.just("permessage-deflate"), HEADER_VALUE),
    "Sec-WebSocket-Protocol": st.one_of(st.just("chat"), HEADER_VALUE),
    "Transfer-Encoding": st.sampled_from(["chunked", "gzip", "é"]),
    "X-Forwarded-Proto": st.sampled_from(["https", "http", "é"]),
}


def some_of(strategies: dict) -> st.SearchStrategy[dict]:
    """A few of the named values (often none)."""
    return st.sets(st.sampled_from(sorted(strategies)), max_size=3).flatmap(
        lambda names: st.fixed_dictionaries({name: strategies[name] for name in names}))


@settings(FUZZ, max_examples=examples(300))
@given(changes=some_of(CHANGES), extras=some_of(EXTRAS))
def test_any_websocket_handshake_gets_a_101_or_a_4xx_and_changes_nothing(fuzz_server, changes, extras):
    server, url = fuzz_server
    app = server.app
    paths = {"long": "/t/" + "a" * 65 + "/ws", "unknown": "/t/nosuchtable/ws", "odd": "/t/%C3%A9%00%FF/ws",
             "slash": f"{url}//ws", "no-ws": f"{url}/wss"}
    headers = {"Host": urlsplit(server.url).netloc, "Upgrade": "websocket", "Connection": "Upgrade",
               "Sec-WebSocket-Key": GOOD_KEY, "Sec-WebSocket-Version": "13", "Origin": server.url}
    headers.update({name: value for name, value in changes.items() if name != "path"})
    headers.update(extras)
    before = state(app)
    status, head = raw_handshake(server, paths.get(changes.get("path"), f"{url}/ws"), headers)
    event(f"status {status}")
    assert status == 101 or 400 <= status < 500, (changes, extras, head)
    if not changes and not extras:
        assert status == 101, head  # a browser's handshake
    refused = ("path" in changes or "Sec-WebSocket-Key" in changes
               or ("Origin" in changes and changes["Origin"] != server.url)
               or ("Upgrade" in changes and str(changes["Upgrade"]).strip().lower() != "websocket"))
    if refused:
        assert status != 101, (changes, extras)
    if not extras and list(changes) == ["Sec-WebSocket-Version"] and changes[
            "Sec-WebSocket-Version"] in OTHER_VERSIONS:
        assert status == 426 and b"\r\nsec-websocket-version: 13" in head.lower(), (changes, head)
    assert state(app) == before, (changes, extras)


def raw_handshake(server, path: str, headers: dict) -> tuple[int, bytes]:
    """Send the request line and headers as Latin-1 bytes; the status and the head of the answer."""
    parts = urlsplit(server.url)
    lines = [f"GET {path} HTTP/1.1", *(f"{name}: {value}" for name, value in headers.items()
                                       if value is not None)]
    request = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
    data = b""
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as sock:
        sock.sendall(request)
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    head = data.partition(b"\r\n\r\n")[0]
    assert head.startswith(b"HTTP/1."), (path, headers, data[:200])
    return int(head.split(b"\r\n", 1)[0].split()[1]), head
