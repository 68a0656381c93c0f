"""What the tests share: browser-like clients, opening a table, a real server and its players."""

from __future__ import annotations

import json
import re
import threading

from werkzeug import serving

from web.guard.security import CSRF_COOKIE

# No settle (S4): a page closed shows as gone at once, as the tests driving presence by hand expect;
# tests of the settle set it (tests/clock/test_presence_rules.py, tests/e2e/test_presence.py).
FAST = {"TURN_SECONDS": 45, "OFFLINE_SECONDS": 5, "PAUSE_SECONDS": 30, "GRACE_SECONDS": 0, "GC_SECONDS": 0,
        "SETTLE_SECONDS": 0}
# #table's version, or the stamp's (#version's value) in a push of changed pieces.
VERSION = re.compile(r'(?:data-version|id="version" name="version" value)="(\d+)"')
CSRF = re.compile(r'<meta name="csrf-token" content="([^"]+)"')


def version_of(html: str) -> int:
    """The table version a page or a pushed message shows."""
    return int(VERSION.search(html).group(1))


class Browser:
    """A Flask test client that behaves like one browser: cookies and the CSRF header."""

    def __init__(self, app):
        self.client = app.test_client()
        # The page's token (masked), not the cookie's: the server compares what they carry.
        self.csrf = CSRF.search(self.client.get("/").get_data(as_text=True)).group(1)
        assert self.client.get_cookie(CSRF_COOKIE) is not None

    def get(self, url, **kwargs):
        return self.client.get(url, **kwargs)

    def post(self, url, data=None, csrf=True, **kwargs):
        headers = {"X-CSRF-Token": self.csrf, "HX-Request": "true"} if csrf else {}
        return self.client.post(url, data=data or {}, headers=headers, **kwargs)

    def version(self, table_url) -> int:
        return version_of(self.get(table_url).get_data(as_text=True))


def open_table(app, variant="partnership", seats=4, target=100, names=("Ana", "Bea", "Carl", "Dan")):
    """A host opens a table and the others join by its link; returns (url, browsers by seat)."""
    host = Browser(app)
    response = host.client.post("/tables", data={"name": names[0], "variant": variant, "seats": seats,
                                                 "target": target, "csrf_token": host.csrf})
    assert response.status_code == 303, response.get_data(as_text=True)
    url = response.headers["Location"]
    players = [host]
    for name in names[1:seats]:
        guest = Browser(app)
        assert guest.post(f"{url}/join", {"name": name}).status_code == 204
        players.append(guest)
    return url, players


class LiveServer:
    """The app served by werkzeug on a free loopback port, in a thread."""

    def __init__(self, app):
        self.app = app
        self.server = serving.make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        # Polled every 0.05 s for shutdown, not every 0.5 s (the default): each stop waited that long.
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05},
                                       daemon=True)
        self.thread.start()
        self.players: list[LivePlayer] = []

    def player(self) -> LivePlayer:
        """A new browser-like client of this server, closed when the server stops."""
        player = LivePlayer(self.url)
        self.players.append(player)
        return player

    def stop(self):
        for player in self.players:
            player.close()
        self.app.extensions["fichas"].hub.close_all()
        self.server.shutdown()
        self.thread.join(timeout=5)


class LivePlayer:
    """A browser against a real server: an HTTP session plus a websocket that keeps every message."""

    def __init__(self, base: str):
        import requests

        self.base = base
        self.http = requests.Session()
        self.csrf = CSRF.search(self.http.get(base + "/").text).group(1)
        self.messages: list[str] = []
        self.arrived = threading.Condition()
        self.socket = None
        self.url = None

    def post(self, path: str, data=None, **kwargs):
        return self.http.post(self.base + path, data=data or {}, allow_redirects=False,
                              headers={"X-CSRF-Token": self.csrf, "HX-Request": "true"}, **kwargs)

    def create(self, name, variant="partnership", seats=4, target=100) -> str:
        response = self.post("/tables", {"name": name, "variant": variant, "seats": seats, "target": target})
        assert response.status_code == 303, response.text
        self.url = response.headers["Location"]
        return self.url

    def join(self, url: str, name: str):
        self.url = url
        response = self.post(f"{url}/join", {"name": name})
        assert response.status_code == 204, response.text
        return response

    def connect(self, url: str | None = None):
        """Open the table's websocket as the page would, and collect what it pushes."""
        import simple_websocket

        self.url = url or self.url
        cookies = "; ".join(f"{c.name}={c.value}" for c in self.http.cookies)
        self.socket = simple_websocket.Client(self.base.replace("http", "ws", 1) + self.url + "/ws",
                                              headers={"Origin": self.base, "Cookie": cookies})
        threading.Thread(target=self._read, daemon=True).start()
        return self

    def send_move(self, values: dict) -> None:
        """A move as the page sends it: htmx's ws-send JSON, the button's values plus its headers."""
        headers = {"HX-Request": "true", "HX-Trigger": None, "HX-Trigger-Name": None, "HX-Target": "me",
                   "HX-Current-URL": self.base + self.url}
        self.socket.send(json.dumps({**values, "HEADERS": headers}))

    def _read(self):
        import simple_websocket

        try:
            while True:
                message = self.socket.receive()
                with self.arrived:
                    self.messages.append(message)
                    self.arrived.notify_all()
        except simple_websocket.ConnectionClosed:
            pass

    def wait_for(self, predicate, timeout: float = 5.0) -> str:
        """The first message (old or new) for which predicate holds, waiting up to `timeout`."""
        with self.arrived:
            found = self.arrived.wait_for(lambda: next((m for m in self.messages if predicate(m)), None),
                                          timeout)
        assert found, f"no such message among {len(self.messages)}"
        return found

    def wait_version(self, version: int, timeout: float = 5.0) -> str:
        """The message that shows the table at `version`."""
        return self.wait_for(lambda m: VERSION.search(m) and version_of(m) >= version, timeout)

    def latest(self) -> str:
        with self.arrived:
            return self.messages[-1]

    def close(self):
        import simple_websocket

        if self.socket is not None:
            try:
                self.socket.close()
            # OSError: the server's close came first, and the client's reader shut the socket
            # between simple-websocket's check that it is open and its write of our close frame.
            except (simple_websocket.ConnectionClosed, OSError):
                pass
