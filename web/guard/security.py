"""Who may do what: hosts, CSRF for forms and the API, the websocket handshake and its Origin,
seat cookies, one seat per browser, and the headers every answer carries.

CSRF is a double submit of a token the server issued: the cookie holds `nonce.signature` (an
HMAC with the app's secret, FICHAS_SECRET_KEY or one stored in the database), and pages carry
it masked afresh for every answer (a random pad, then the pad XOR the token, base64), so a
compressed page never repeats the secret next to text players choose (BREACH).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import re
import secrets
from urllib.parse import urlsplit

from flask import Response, abort, current_app, g, make_response, render_template, request
from flask.globals import request_ctx
from wsproto.connection import ConnectionType
from wsproto.events import Request as WsRequest
from wsproto.handshake import H11Handshake
from wsproto.utilities import RemoteProtocolError

from live.table import Table, hash_secret
from web.templating.refusals import says

SEAT_COOKIE = "fichas_seat"
CSRF_COOKIE = "fichas_csrf"
SEAT_COOKIE_DAYS = 30
CSRF_COOKIE_DAYS = 365
SECRET_SETTING = "secret_key"
LOOPBACK = ("localhost", "127.0.0.1", "::1")
EVERY_INTERFACE = ("", "0.0.0.0", "::", "[::]")
TOKEN_MAX = 256  # a masked token is 204 characters; anything longer is not one of ours
NONCE = re.compile(r"[A-Za-z0-9_-]{32}")
MASKED = re.compile(r"(?:[A-Za-z0-9_-]{4})+(?:[A-Za-z0-9_-]{2}==|[A-Za-z0-9_-]{3}=)?")  # base64, nothing else
WS_KEY = re.compile(r"[A-Za-z0-9+/]{22}==")  # 16 bytes, base64 (RFC 6455 4.1)
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
       " connect-src 'self' ws: wss:; object-src 'none'; frame-ancestors 'none'; base-uri 'none';"
       " form-action 'self'")
# Pages that show nobody's hand and may be kept by caches; every other answer is `no-store`.
CACHEABLE = {"static", "favicon", "fichas.home", "fichas.rules", "qr.table_qr", "installable.manifest",
             "installable.touch_icon"}


# -- the app's secret --------------------------------------------------------------------

def secret_key() -> bytes:
    """FICHAS_SECRET_KEY, or else a random secret made once and kept in the database."""
    app = current_app
    key = app.extensions.get("fichas_secret")
    if key is None:
        configured = app.config.get("SECRET_KEY")
        if configured:
            key = configured.encode() if isinstance(configured, str) else bytes(configured)
        else:
            tables = app.extensions["fichas"].tables
            key = tables.setting(SECRET_SETTING, lambda: secrets.token_hex(32)).encode()
        app.extensions["fichas_secret"] = key
    return key


# -- CSRF tokens ---------------------------------------------------------------------------

def _signature(nonce: str) -> str:
    digest = hmac.new(secret_key(), b"fichas-csrf:" + nonce.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def new_token() -> str:
    """A fresh signed token (what the cookie holds)."""
    nonce = secrets.token_urlsafe(24)
    return f"{nonce}.{_signature(nonce)}"


def valid_token(token) -> bool:
    """Whether `token` is one this server issued (any text is safe to pass)."""
    if not isinstance(token, str) or len(token) > TOKEN_MAX or not token.isascii():
        return False
    nonce, dot, signature = token.partition(".")
    if not dot or not NONCE.fullmatch(nonce):
        return False
    return hmac.compare_digest(signature.encode(), _signature(nonce).encode())


def mask(token: str) -> str:
    """The token as a page carries it: a new random pad, then pad XOR token, in base64."""
    raw = token.encode()
    pad = secrets.token_bytes(len(raw))
    return base64.urlsafe_b64encode(pad + bytes(a ^ b for a, b in zip(pad, raw, strict=True))).decode()


def unmask(sent) -> bytes | None:
    """The token a masked value carries, or None if it is not a masked value at all."""
    if not isinstance(sent, str) or len(sent) > TOKEN_MAX or not MASKED.fullmatch(sent):
        return None
    try:
        data = base64.urlsafe_b64decode(sent.encode())
    except (binascii.Error, ValueError):
        return None
    if not data or len(data) % 2:
        return None
    half = len(data) // 2
    return bytes(a ^ b for a, b in zip(data[:half], data[half:], strict=True))


def _cookie_token() -> str | None:
    """This browser's token from its cookie, if the server issued it."""
    token = request.cookies.get(CSRF_COOKIE)
    return token if valid_token(token) else None


def csrf_token() -> str:
    """This browser's CSRF token as the page carries it (masked anew for each answer)."""
    if "csrf" not in g:
        g.csrf = _cookie_token() or new_token()
    if "csrf_masked" not in g:
        g.csrf_masked = mask(g.csrf)
    return g.csrf_masked


def check_csrf() -> None:
    """Refuse a POST whose cookie the server did not sign, or whose token is not that cookie's."""
    cookie = _cookie_token()
    if cookie is None:
        abort(403, says("forged"))
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token", "")
    token = unmask(sent)
    if token is None or not hmac.compare_digest(token, cookie.encode()):
        abort(403, says("forged"))


def browser_id() -> str | None:
    """This browser's identity for one-seat-per-table: a hash of its signed CSRF token."""
    token = _cookie_token()
    if token is None:
        return None
    return hashlib.sha256(b"fichas-browser:" + token.encode()).hexdigest()


# -- hosts and origins -----------------------------------------------------------------------

def _host_name(host: str) -> str:
    """The name part of a `host[:port]` (IPv6 without brackets), lower case."""
    host = host.lower()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    return host.rpartition(":")[0] if host.count(":") == 1 else host


def allowed_hosts() -> tuple[str, ...]:
    """The host names this server answers to (see the README's FICHAS_ALLOWED_HOSTS)."""
    config = current_app.config
    configured = config.get("ALLOWED_HOSTS")
    if configured:
        return tuple(_host_name(h.strip()) if not h.strip().startswith(".") else h.strip().lower()
                     for h in configured if h.strip())
    names = list(LOOPBACK)
    if config.get("PUBLIC_URL"):
        names.append(_host_name(urlsplit(config["PUBLIC_URL"]).netloc))
    if config.get("LISTEN_HOST", "") not in EVERY_INTERFACE:
        names.append(_host_name(config["LISTEN_HOST"]))
    return tuple(names)


def urls_available() -> bool:
    """Whether URLs can be built for this request (not when its Host could not be bound, e.g. a
    label longer than 63 characters)."""
    return request_ctx.url_adapter is not None


def host_allowed() -> bool:
    """Whether the request's Host names this server (werkzeug gives "" for an invalid Host)."""
    host = request.host
    if not host or not urls_available():
        return False
    name = _host_name(host)
    for entry in allowed_hosts():
        if entry == "*" or name == entry or (entry.startswith(".") and
                                              (name.endswith(entry) or name == entry[1:])):
            return True
    return False


def share_url(path: str) -> str:
    """The absolute link to `path` that players share: FICHAS_PUBLIC_URL's, else this (allowed) host's."""
    public = current_app.config.get("PUBLIC_URL")
    if public:
        return public.rstrip("/") + path
    return request.host_url.rstrip("/") + path


def _default_port(scheme: str) -> int:
    return 443 if scheme in ("https", "wss") else 80


def same_origin() -> bool:
    """Whether the websocket handshake comes from a page of this scheme and host.

    The scheme is the request's (https behind a TLS proxy only when FICHAS_TRUSTED_PROXIES lets
    the app believe X-Forwarded-Proto): an https page's Origin for a wss connection.
    """
    try:
        origin = urlsplit(request.headers.get("Origin", ""))
        origin_port = origin.port
        host = urlsplit("//" + request.host)
        host_port = host.port
    except ValueError:  # "http://[::1", a port that is not a number...
        return False
    scheme = "https" if request.is_secure else "http"
    if origin.scheme != scheme or not origin.hostname or origin.hostname != host.hostname:
        return False
    if host_port is None:  # browsers send the port in Host; some clients leave it out
        return True
    return (origin_port or _default_port(scheme)) == host_port


def check_handshake() -> None:
    """A websocket handshake as RFC 6455 4.1 asks, or a readable 400 (426 for another version)."""
    headers = request.headers
    connection = {word.strip().lower() for word in headers.get("Connection", "").split(",")}
    if (request.method != "GET" or headers.get("Upgrade", "").strip().lower() != "websocket"
            or "upgrade" not in connection):
        abort(400, says("ws_address"))
    if not WS_KEY.fullmatch(headers.get("Sec-WebSocket-Key", "").strip()):
        abort(400, says("ws_key"))
    if headers.get("Sec-WebSocket-Version", "").strip() != "13":
        response = make_response(render_template("error.html", code=426, message=says("ws_version")), 426)
        response.headers["Sec-WebSocket-Version"] = "13"
        response.headers["Cache-Control"] = "no-store"
        abort(response)
    if not handshake_parses(request.environ):
        abort(400, says("ws_malformed"))


def handshake_parses(environ: dict) -> bool:
    """Whether the websocket library will accept this handshake rather than fail with a 500.

    simple-websocket rebuilds the request from the environ's HTTP_* entries and hands it to
    wsproto (h11), which refuses what no browser sends: control characters, a missing Host,
    non-ASCII in Connection or Sec-WebSocket-Protocol, a Transfer-Encoding. The same bytes go
    through the same parser here, first.
    """
    data = b"GET / HTTP/1.1\r\n"
    try:
        for key, value in environ.items():
            if key.startswith("HTTP_"):
                name = "-".join(part.capitalize() for part in key[5:].split("_"))
                data += f"{name}: {value}\r\n".encode()
    except (UnicodeError, TypeError):
        return False
    handshake = H11Handshake(ConnectionType.SERVER)
    try:
        handshake.receive_data(data + b"\r\n")
        events = list(handshake.events())
    except (RemoteProtocolError, UnicodeError, ValueError):
        return False
    return len(events) == 1 and isinstance(events[0], WsRequest)


# -- seats -----------------------------------------------------------------------------------

def my_seat(table: Table) -> int | None:
    """The seat this browser holds at `table`, from its cookie."""
    return table.seat_of(request.cookies.get(SEAT_COOKIE))


def seat_holder() -> str | None:
    """The stored form of the seat secret this browser holds, whether or not it opens a seat now."""
    secret = request.cookies.get(SEAT_COOKIE)
    return hash_secret(secret) if secret else None


def seat_cookie(response: Response, table: Table, secret: str) -> Response:
    """Give this browser its seat, for this table's URLs only."""
    response.set_cookie(SEAT_COOKIE, secret, max_age=60 * 60 * 24 * SEAT_COOKIE_DAYS,
                        path=f"/t/{table.id}", httponly=True, samesite="Lax", secure=request.is_secure)
    return response


# -- every answer ----------------------------------------------------------------------------

def protect(response: Response) -> Response:
    """Every answer: the CSRF cookie where it is new, and headers that keep pages to themselves."""
    if "csrf" in g and request.cookies.get(CSRF_COOKIE) != g.csrf:
        # Kept past the browser's closing, longer than any seat's cookie: the home page finds this browser's
        # seats by it (web/http/yours.py), and one browser holds one seat per table by it.
        response.set_cookie(CSRF_COOKIE, g.csrf, max_age=60 * 60 * 24 * CSRF_COOKIE_DAYS, httponly=True,
                            samesite="Lax", secure=request.is_secure)
    headers = response.headers
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Content-Security-Policy", CSP)
    headers.setdefault("Referrer-Policy", "same-origin")
    if request.endpoint not in CACHEABLE:  # a hand, a seat's own answer, a token: never stored
        headers["Cache-Control"] = "no-store"
    if request.is_secure:
        headers.setdefault("Strict-Transport-Security", "max-age=31536000")
    return response
