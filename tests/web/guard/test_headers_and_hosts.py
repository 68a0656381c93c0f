"""Headers every answer carries (a strict CSP, no-store, HSTS), the hosts the server answers to,
the share link, and the websocket's Origin with its scheme (behind a trusted proxy too)."""

import re
import socket
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from app import env_config
from helpers import Browser, open_table
from helpers.pages import flash_text, handshake, seat_up, table_count
from web.guard.security import CSRF_COOKIE

STRICT = {"default-src": "'self'", "script-src": "'self'", "style-src": "'self'", "img-src": "'self' data:",
          "connect-src": "'self' ws: wss:", "frame-ancestors": "'none'", "base-uri": "'none'",
          "form-action": "'self'", "object-src": "'none'"}


def policy(response) -> dict:
    header = response.headers["Content-Security-Policy"]
    return dict(part.strip().split(" ", 1) for part in header.split(";") if part.strip())


def pages(app):
    """Every kind of HTML page: home, rules, a table seen seated and as a spectator, an error, a refusal."""
    url, players = open_table(app, "block", 2, names=("Ana", "Bea"))
    spectator = Browser(app)
    return {"home": spectator.get("/"), "rules": spectator.get("/rules"), "seated": players[0].get(url),
            "spectator": spectator.get(url), "not found": spectator.get("/t/nope"),
            "refusal": players[0].post(f"{url}/play", {"version": "0", "tile": "6-6"}),
            "bad create": spectator.post("/tables", {"name": ""})}


# -- Content-Security-Policy -------------------------------------------------------------------------

def test_every_page_carries_the_strict_policy(app):
    for name, response in pages(app).items():
        assert policy(response) == STRICT, name
    assert policy(app.test_client().get("/static/fichas.css")) == STRICT


def test_no_page_needs_inline_script_style_or_eval(app):
    """What the strict policy would block: inline scripts, styles, handlers, javascript: values."""
    answers = pages(app)
    for name, response in answers.items():
        html = response.get_data(as_text=True)
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), name
        assert not re.search(r"<style\b|\sstyle=", html), name
        assert not re.search(r"\son[a-z]+=|hx-on|javascript:|\bjs:", html), name
    home = answers["home"].get_data(as_text=True)
    config = re.search(r'<meta name="htmx-config" content=\'([^\']+)\'>', home).group(1)
    for setting in ('"includeIndicatorStyles":false', '"allowEval":false', '"allowScriptTags":false'):
        assert setting in config


# -- Cache-Control -----------------------------------------------------------------------------------

def test_pages_and_answers_that_show_a_hand_are_never_stored(app):
    url, players = open_table(app, "block", 2, names=("Ana", "Bea"))
    table = app.extensions["fichas"].tables.get(url.rsplit("/", 1)[-1])
    answers = {"table page": players[0].get(url), "record": players[0].get(f"{url}/record.json"),
               "stale move": players[table.turn].post(f"{url}/pass", {"version": "0"}),
               "join": Browser(app).post(f"{url}/join", {"name": "Eve"}),
               "error": players[0].get("/t/nope")}
    version = table.version
    answers["move"] = players[table.turn].post(f"{url}/draw", {"version": version})  # 204 or a refusal
    for name, response in answers.items():
        assert response.headers["Cache-Control"] == "no-store", name
    visitor = Browser(app)
    for path in ("/", "/rules"):
        assert "no-store" not in visitor.get(path).headers.get("Cache-Control", ""), path
    static = visitor.get("/static/fichas.css?v=x")
    assert "no-store" not in static.headers.get("Cache-Control", "")


# -- HSTS --------------------------------------------------------------------------------------------

def test_hsts_only_over_https(app):
    assert "Strict-Transport-Security" not in app.test_client().get("/").headers
    secure = app.test_client().get("/", base_url="https://localhost")
    assert secure.headers["Strict-Transport-Security"] == "max-age=31536000"
    assert "Secure" in secure.headers["Set-Cookie"]


def test_x_forwarded_proto_counts_only_from_trusted_proxies(make_app):
    plain = make_app().test_client().get("/", headers={"X-Forwarded-Proto": "https"})
    assert "Strict-Transport-Security" not in plain.headers and "Secure" not in plain.headers["Set-Cookie"]
    proxied = make_app(TRUSTED_PROXIES=1).test_client().get("/", headers={"X-Forwarded-Proto": "https"})
    assert proxied.headers["Strict-Transport-Security"] == "max-age=31536000"
    assert "Secure" in proxied.headers["Set-Cookie"]


# -- hosts and the share link ------------------------------------------------------------------------

def share_link(html: str) -> str:
    return re.search(r'id="share-link" readonly value="([^"]+)"', html).group(1)


@pytest.mark.parametrize("host", ["evil.example", "localhost.evil.example", "127.0.0.2", "[::2]", "é",
                                  "a" * 64 + ".localhost", "localhost:0"])
def test_a_host_the_server_does_not_answer_to_is_a_400_and_changes_nothing(app, host):
    visitor = Browser(app)
    response = visitor.client.get("/", headers={"Host": host})
    assert response.status_code == 400
    created = visitor.client.post("/tables", data={"name": "Eve", "variant": "block", "seats": 2,
                                                   "target": 100, "csrf_token": visitor.csrf},
                                  headers={"Host": host})
    assert created.status_code == 400
    assert "FICHAS_ALLOWED_HOSTS" in created.get_data(as_text=True)
    assert table_count(app) == 0


@pytest.mark.parametrize("host", ["localhost", "LOCALHOST:8000", "127.0.0.1", "127.0.0.1:5000", "[::1]:8000"])
def test_loopback_names_are_served_by_default_and_the_link_uses_them(app, host):
    url, players = open_table(app, "block", 2, names=("Ana", "Bea"))
    response = players[0].client.get(url, headers={"Host": host})
    assert response.status_code == 200
    assert share_link(response.get_data(as_text=True)).lower() == f"http://{host.lower()}{url.lower()}"


def test_the_share_link_never_reflects_a_forged_host(app):
    url, players = open_table(app, "block", 2, names=("Ana", "Bea"))
    response = players[0].client.get(url, headers={"Host": "evil.example"})
    assert response.status_code == 400 and "evil.example" not in response.get_data(as_text=True)


def test_the_share_link_comes_from_the_public_url(make_app):
    app = make_app(PUBLIC_URL="https://fichas.example.com")
    url, players = open_table(app, "block", 2, names=("Ana", "Bea"))
    for host in ("fichas.example.com", "localhost"):  # the public host and loopback are served
        html = players[0].client.get(url, headers={"Host": host}).get_data(as_text=True)
        assert share_link(html) == f"https://fichas.example.com{url}"
    assert players[0].client.get(url, headers={"Host": "evil.example"}).status_code == 400


def test_allowed_hosts_replace_the_default(make_app):
    app = make_app(ALLOWED_HOSTS=["fichas.example", ".games.example"])
    client = app.test_client()
    for host in ("fichas.example", "fichas.example:8443", "games.example", "a.games.example"):
        assert client.get("/", headers={"Host": host}).status_code == 200, host
    for host in ("localhost", "evil.example", "fichas.example.evil", "agames.example"):
        assert client.get("/", headers={"Host": host}).status_code == 400, host
    host = app.test_client()
    base = "http://fichas.example:8443"
    html = host.get("/", base_url=base).get_data(as_text=True)
    token = re.search(r'<meta name="csrf-token" content="([^"]+)"', html).group(1)
    created = host.post("/tables", data={"name": "Ana", "variant": "block", "seats": 2, "target": 100,
                                         "csrf_token": token}, base_url=base)
    url = created.headers["Location"]
    assert share_link(host.get(url, base_url=base).get_data(as_text=True)) == f"{base}{url}"


def test_a_star_allows_any_host(make_app):
    client = make_app(ALLOWED_HOSTS=["*"]).test_client()
    assert client.get("/", headers={"Host": "anything.example:81"}).status_code == 200
    assert client.get("/", headers={"Host": "bad host"}).status_code == 400  # still a host name


def test_every_security_setting_is_in_the_readme():
    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text()
    for name in ("FICHAS_PUBLIC_URL", "FICHAS_ALLOWED_HOSTS", "FICHAS_TRUSTED_PROXIES", "FICHAS_SECRET_KEY"):
        assert f"| `{name}` |" in readme, name
    assert "### Security" in readme


def test_the_address_the_server_was_started_for_is_served(make_app):
    client = make_app(LISTEN_HOST="192.168.1.5").test_client()
    assert client.get("/", headers={"Host": "192.168.1.5:8000"}).status_code == 200
    client = make_app(LISTEN_HOST="0.0.0.0").test_client()  # every interface names no host
    assert client.get("/", headers={"Host": "192.168.1.5:8000"}).status_code == 400
    assert client.get("/", headers={"Host": "0.0.0.0:8000"}).status_code == 400


@pytest.mark.parametrize("host", [b"xn--zz", b"a" * 64 + b".localhost", b"\xc3\xa9", b"local host", b""])
def test_odd_hosts_sent_byte_for_byte_are_400s(live_server, host):
    """Hosts Werkzeug cannot build URLs for (a label over 63 characters, bad punycode) too."""
    port = urlsplit(live_server.url).port
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: " + host + b"\r\nConnection: close\r\n\r\n")
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    assert data.startswith(b"HTTP/1.1 400"), data[:200]
    assert b"does not answer to that address" in data


def test_the_refusal_of_a_host_is_readable(app):
    response = app.test_client().get("/", headers={"Host": "evil.example"})
    assert "does not answer to that address" in flash_text(response.get_data(as_text=True))


def test_settings_are_read_from_the_environment(monkeypatch):
    monkeypatch.setenv("FICHAS_PUBLIC_URL", "https://fichas.example.com/")
    monkeypatch.setenv("FICHAS_ALLOWED_HOSTS", " fichas.example.com, .fichas.example ,")
    monkeypatch.setenv("FICHAS_TRUSTED_PROXIES", "2")
    monkeypatch.setenv("FICHAS_SECRET_KEY", "s3cret")
    monkeypatch.setenv("FICHAS_HOST", "0.0.0.0")
    config = env_config()
    assert config["PUBLIC_URL"] == "https://fichas.example.com"
    assert config["ALLOWED_HOSTS"] == ["fichas.example.com", ".fichas.example"]
    assert config["TRUSTED_PROXIES"] == 2 and config["SECRET_KEY"] == "s3cret"
    assert config["LISTEN_HOST"] == "0.0.0.0"
    for env in ("FICHAS_PUBLIC_URL", "FICHAS_ALLOWED_HOSTS", "FICHAS_TRUSTED_PROXIES", "FICHAS_SECRET_KEY"):
        monkeypatch.delenv(env)
    config = env_config()
    assert config["PUBLIC_URL"] is None and config["ALLOWED_HOSTS"] == [] and config["TRUSTED_PROXIES"] == 0
    assert "SECRET_KEY" not in config


@pytest.mark.parametrize("value", ["fichas.example.com", "ftp://fichas.example.com", "https://", "https://x/t"])
def test_a_public_url_that_is_not_an_address_is_refused_at_start(monkeypatch, value):
    monkeypatch.setenv("FICHAS_PUBLIC_URL", value)
    with pytest.raises(ValueError, match="FICHAS_PUBLIC_URL"):
        env_config()


# -- the websocket's Origin, scheme included -----------------------------------------------------------

def test_the_origin_must_have_the_pages_scheme(live_server):
    url, _ = seat_up(live_server, "block", 2, names=("Ana", "Bea"))
    https_origin = live_server.url.replace("http://", "https://")
    assert handshake(live_server.url, f"{url}/ws", {"Origin": live_server.url})[0] == 101
    assert handshake(live_server.url, f"{url}/ws", {"Origin": https_origin})[0] == 403
    # X-Forwarded-Proto is nobody's word here: no proxy is trusted.
    assert handshake(live_server.url, f"{url}/ws", {"Origin": https_origin,
                                                    "X-Forwarded-Proto": "https"})[0] == 403


def test_behind_a_trusted_tls_proxy_an_https_page_opens_a_wss_socket(make_server):
    server = make_server(TRUSTED_PROXIES=1)
    url, _ = seat_up(server, "block", 2, names=("Ana", "Bea"))
    https_origin = server.url.replace("http://", "https://")
    tls = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"}
    assert handshake(server.url, f"{url}/ws", {"Origin": https_origin, **tls})[0] == 101
    assert handshake(server.url, f"{url}/ws", {"Origin": server.url, **tls})[0] == 403
    assert handshake(server.url, f"{url}/ws", {"Origin": "https://evil.example", **tls})[0] == 403


def test_an_origin_on_another_port_or_host_is_refused(live_server):
    url, _ = seat_up(live_server, "block", 2, names=("Ana", "Bea"))
    for origin in ("http://127.0.0.1:1", "http://localhost", "http://evil.example", "null", "http://[::1",
                   "http://127.0.0.1:notaport"):
        assert handshake(live_server.url, f"{url}/ws", {"Origin": origin})[0] == 403, origin


def test_the_csrf_cookie_is_marked_secure_behind_a_trusted_proxy(make_app):
    response = make_app(TRUSTED_PROXIES=1).test_client().get("/", headers={"X-Forwarded-Proto": "https"})
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(f"{CSRF_COOKIE}=") and "Secure" in cookie and "HttpOnly" in cookie
