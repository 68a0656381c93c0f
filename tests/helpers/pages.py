"""Helpers for the web tests: reading the pages' stable hooks, and driving games over HTTP.

The engine state in memory (`live_table`) is used only to choose moves and to know what each
viewer may see; the tests assert on what the HTTP answers and the pushed messages show.
"""

from __future__ import annotations

import html as html_lib
import random
import re
import socket
import sqlite3
import time
from contextlib import closing
from urllib.parse import urlsplit

from helpers import VERSION, Browser, swaps, version_of
from web.guard.security import CSRF_COOKIE, SEAT_COOKIE

# Any "a-b" that reads as a tile: not inside a word or a token (ids and CSRF tokens use - too).
TILE_TEXT = re.compile(r"(?<![\w-])([0-6])-([0-6])(?![\w-])")
DATA_TILE = re.compile(r'data-tile="([^"]*)"')
SEAT_PANEL = re.compile(r'<article class="([^"]*)" data-seat="(\d+)"[^>]*>(.*?)</article>', re.S)
CLOCK = re.compile(r'data-remaining-ms="\d+">\d+<')
TIME_LEFT = re.compile(r' data-clock-ms="\d+"')  # the turn's time left, in each push's stamp
WHITE_SPACE = re.compile(r"\s+")
PUSH_NUMBER = re.compile(r' data-seq="\d+"')  # counts this process's pushes (web/push/pieces.py)
# A tile named in words for screen readers ("six–four"; "seis–cuatro"; "seks–fire"), in either order.
NUMBER_WORDS = {"en": ("blank", "one", "two", "three", "four", "five", "six"),
                "es": ("blanco", "uno", "dos", "tres", "cuatro", "cinco", "seis"),
                "da": ("blank", "en", "to", "tre", "fire", "fem", "seks")}
PIPS_OF_WORD = {word: n for words in NUMBER_WORDS.values() for n, word in enumerate(words)}
_WORD = "|".join(sorted(PIPS_OF_WORD, key=len, reverse=True))
TILE_WORDS = re.compile(rf"\b({_WORD})\s*[–-]\s*({_WORD})\b")
# A domino drawn with pips, whatever its labels say.
PIPS = re.compile(r'<span class="domino[^"]*"[^>]*>\s*<i class="h p(\d)"></i>\s*<i class="h p(\d)"></i>')


# -- reading pages and messages ---------------------------------------------------

def tile_key(a, b) -> str:
    """The normal text of a tile given its halves in any order ("5-3" -> "3-5")."""
    a, b = int(a), int(b)
    return f"{min(a, b)}-{max(a, b)}"


def tiles_in(text: str) -> set[str]:
    """Every tile named or drawn anywhere in a page or message, in any orientation or markup."""
    words = [(PIPS_OF_WORD[a], PIPS_OF_WORD[b]) for a, b in TILE_WORDS.findall(text)]
    return {tile_key(a, b) for a, b in TILE_TEXT.findall(text) + PIPS.findall(text) + words}


def element(text: str, element_id: str, tag: str) -> str | None:
    """The inner HTML of the first <tag id=element_id> (no nested <tag> inside it), or None."""
    found = re.search(rf'<{tag} id="{element_id}"[^>]*>(.*?)</{tag}>', text, re.S)
    return found.group(1) if found else None


def section(text: str, element_id: str) -> str | None:
    """The whole <section id=...> element (the partials #table and #me are sections)."""
    found = re.search(rf'<section id="{element_id}".*?</section>', text, re.S)
    return found.group(0) if found else None


def hand_of(text: str) -> list[str] | None:
    """The tiles of #hand in displayed order; None where the page has no hand."""
    inner = element(text, "hand", "div")
    return None if inner is None else DATA_TILE.findall(inner)


def line_of(text: str) -> list[str]:
    """The tiles of #line, left to right."""
    inner = element(text, "line", "div")
    return [] if inner is None else DATA_TILE.findall(inner)


def seat_panels(text: str) -> dict[int, tuple[set[str], str]]:
    """Each seat's panel: its classes and its inner HTML."""
    return {int(seat): (set(classes.split()), inner) for classes, seat, inner in SEAT_PANEL.findall(text)}


def turn_seat(text: str) -> int | None:
    """The seat whose panel is marked as the one to play (static/fichas.css, from the stamp's data-turn)."""
    turn = re.search(r'<input type="hidden" id="version"[^>]*? data-turn="(\d*)"', text)
    return int(turn.group(1)) if turn and turn.group(1) else None


def reveal_of(text: str, seat: int) -> set[str] | None:
    """The tiles a seat's panel shows face up (T9), or None if it shows none."""
    inner = seat_panels(text)[seat][1]
    found = re.search(r'<div class="reveal"[^>]*>(.*?)</div>', inner, re.S)
    return None if found is None else tiles_in(found.group(1))


def flash_text(text: str) -> str:
    """The readable message of a refusal."""
    found = re.search(r'class="(?:flash-error|field-error)"[^>]*>(.*?)</p>', text, re.S)
    assert found, text[:500]
    return html_lib.unescape(found.group(1)).strip()


def you_of(text: str) -> str:
    """The seat this page is rendered for ("" for a spectator)."""
    return re.search(r'<main class="play" data-you="([^"]*)"', text).group(1)


def stable(text: str) -> str:
    """A partial without its countdowns (the time left differs between two renders) and push numbers.

    Runs of white space are one space, as a browser shows them: a piece pushed alone and the same
    piece inside the whole table differ only in the blanks around it.
    """
    text = TIME_LEFT.sub(' data-clock-ms="…"', CLOCK.sub("data-remaining-ms>…<", text))
    return WHITE_SPACE.sub(" ", PUSH_NUMBER.sub("", text))


def page(browser: Browser, url: str) -> str:
    response = browser.get(url)
    assert response.status_code == 200, response.status_code
    return response.get_data(as_text=True)


# -- the engine's state, to choose moves and to know what is secret -------------------

def table_id(url: str) -> str:
    return url.rstrip("/").split("/")[-1]


def live_table(app, url: str):
    """The live Table behind a table URL (engine state in memory)."""
    return app.extensions["fichas"].tables.get(table_id(url))


def hand_texts(rnd, seat: int) -> list[str]:
    return [t.text for t in rnd.hands[seat]]


def line_texts(rnd) -> list[str]:
    return [tile_key(a, b) for a, b in rnd.line]


def hidden_from(table, viewer: int | None) -> set[str]:
    """The tiles `viewer` (None: a spectator) must not be shown: other hands and the boneyard.

    Once the round is over the hands are shown (T9), but the boneyard stays face down (D1). The
    tile a Block or Draw round must be opened with is public while it waits to be placed (D2).
    """
    rnd = table.match.round if table.match else None
    if rnd is None:
        return set()
    hidden = {t.text for t in rnd.boneyard}
    if rnd.over:
        return hidden
    hidden |= {t.text for seat, hand in enumerate(rnd.hands) if seat != viewer for t in hand}
    if rnd.left is None and rnd.opening_tile is not None:
        hidden.discard(rnd.opening_tile.text)
    return hidden


def choose_move(table, rng: random.Random) -> tuple[int, str, dict]:
    """A random legal action for the seat to play: (seat, route, form fields)."""
    rnd = table.match.round
    seat = rnd.turn
    moves = rnd.playable(seat)
    if moves:
        tile, end = rng.choice(moves)
        return seat, "play", {"tile": tile.text, "end": end or "", "version": table.version}
    if rnd.must_draw(seat):
        return seat, "draw", {"version": table.version}
    return seat, "pass", {"version": table.version}


def step(app, url: str, players: list[Browser], rng: random.Random) -> None:
    """One legal action over HTTP: a move, or the host's next round between rounds (T13: or the acting
    host's; none while nobody can start it)."""
    table = live_table(app, url)
    with table.lock:
        if table.phase in ("pause", "over"):
            seat, route, fields = table.acting_host(app.extensions["fichas"].tables.now()), "next-round", {
                "version": table.version}
            if seat is None:
                return
        else:
            seat, route, fields = choose_move(table, rng)
    response = players[seat].post(f"{url}/{route}", fields)
    assert response.status_code == 204, response.get_data(as_text=True)


def play_until(app, url: str, players: list[Browser], rng: random.Random, done, limit: int = 3000):
    """Play legal actions over HTTP until done(table) holds; returns the table."""
    table = live_table(app, url)
    for _ in range(limit):
        with table.lock:
            if done(table):
                return table
        step(app, url, players, rng)
    raise AssertionError("the position looked for never came up")


def finish_round(app, table) -> None:
    """Play the round out through the app's Tables, as its seats would (each one's first fitting tile, a draw
    or a pass): the pages see each move come as any other."""
    tables = app.extensions["fichas"].tables
    while table.phase == "playing":
        with table.lock:
            rnd, version = table.match.round, str(table.version)
            seat = rnd.turn
            moves = rnd.playable(seat)
        if moves:
            tile, end = moves[0]
            tables.act(table, seat, "play", version, tile=tile.text, end=end or "")
        else:
            tables.act(table, seat, "draw" if rnd.must_draw(seat) else "pass", version)


def round_over(table) -> bool:
    return table.phase in ("pause", "over")


def playing(table) -> bool:
    return table.phase == "playing"


# -- browsers and the database -----------------------------------------------------------

def reopen(browser: Browser, app, url: str) -> Browser:
    """The same browser (its CSRF and seat cookies) against another app, e.g. after a restart."""
    twin = Browser(app)
    twin.csrf = browser.csrf
    twin.client.set_cookie(CSRF_COOKIE, browser.client.get_cookie(CSRF_COOKIE).value)
    seat = browser.client.get_cookie(SEAT_COOKIE, path=url)
    if seat is not None:
        twin.client.set_cookie(SEAT_COOKIE, seat.value, path=url)
    return twin


def seat_secret(browser: Browser, url: str) -> str | None:
    cookie = browser.client.get_cookie(SEAT_COOKIE, path=url)
    return None if cookie is None else cookie.value


def db_rows(app, sql: str, *args) -> list[tuple]:
    """Rows read from the app's database file by a separate connection (what is on disk)."""
    with closing(sqlite3.connect(app.config["DATABASE"])) as db:
        return db.execute(sql, args).fetchall()


def table_count(app) -> int:
    return db_rows(app, "SELECT COUNT(*) FROM tables")[0][0]



# -- real servers ------------------------------------------------------------------------

def handshake(base_url: str, path: str, headers: dict[str, str], frame: bool = False) -> tuple[int, bytes]:
    """A websocket handshake by hand: its HTTP status and (with `frame`) the first frame's bytes.

    A refused handshake never becomes a socket, and reading the server's first frame directly
    avoids the client library, which can miss a close frame that arrives with the handshake.
    """
    parts = urlsplit(base_url)
    lines = [f"GET {path} HTTP/1.1", f"Host: {parts.netloc}", "Upgrade: websocket", "Connection: Upgrade",
             "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13",
             *(f"{key}: {value}" for key, value in headers.items())]
    data = b""
    with socket.create_connection((parts.hostname, parts.port), timeout=5) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        while b"\r\n\r\n" not in data or (frame and len(data.split(b"\r\n\r\n", 1)[1]) < 4):
            chunk = sock.recv(4096)
            if not chunk:
                break
            data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    return int(head.split(b"\r\n", 1)[0].split()[1]), rest


def handshake_status(base_url: str, path: str, headers: dict[str, str]) -> int:
    """The HTTP status a websocket handshake gets."""
    return handshake(base_url, path, headers)[0]


def seat_up(server, variant="partnership", seats=4, names=("Ana", "Bea", "Carl", "Dan")):
    """Create and fill a table over HTTP; returns (url, players by seat)."""
    host = server.player()
    url = host.create(names[0], variant, seats)
    players = [host]
    for name in names[1:seats]:
        guest = server.player()
        guest.join(url, name)
        players.append(guest)
    return url, players


def connect_all(server, url: str, players) -> object:
    """Open every player's websocket and wait until each has the table's version and every seat shows
    connected; returns the live table."""
    table = server.app.extensions["fichas"].tables.get(table_id(url))
    for player in players:
        player.connect()
    for player in players:
        player.wait_version(table.version)
    wait_until(lambda: all(table.connected(s) for s in range(len(players))))
    return table


def wait_until(predicate, timeout: float = 5.0) -> None:
    """Poll a condition the server reaches asynchronously (a socket closing), for a bounded time."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def cookie_header(player) -> str:
    return "; ".join(f"{c.name}={c.value}" for c in player.http.cookies)


def twin(server, player):
    """A second tab of the same browser: a new client with the same cookies."""
    other = server.player()
    other.http.cookies.update(player.http.cookies)
    other.csrf = player.csrf
    other.url = player.url
    return other


def wait_new(player, start: int, predicate, timeout: float = 5.0) -> str:
    """The first message from index `start` on for which predicate holds, waiting up to `timeout`."""
    with player.arrived:
        found = player.arrived.wait_for(
            lambda: next((m for m in player.messages[start:] if predicate(m)), None), timeout)
    assert found, f"no such message among {len(player.messages) - start} new ones"
    return found


def fold(messages) -> str:
    """What a browser shows of #table and #me after swapping these pushes in, in order (helpers/swaps.py)."""
    return swaps.fold(messages)


def shown_now(player) -> str:
    """What the player's page shows now, folded from every push it got so far."""
    with player.arrived:
        return fold(list(player.messages))


def screen(player, version: int, timeout: float = 5.0) -> str:
    """The player's screen once the push for `version` (or a later one) has arrived."""
    player.wait_version(version, timeout)
    with player.arrived:
        messages = list(player.messages)
    upto = next(i for i, m in enumerate(messages) if VERSION.search(m) and version_of(m) >= version)
    return fold(messages[:upto + 1])
