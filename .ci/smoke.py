"""Smoke check of a running Fichas: the home page, a new table's page, and its websocket handshake.

Standard library only: it runs in an environment holding just what the README's run command
installs. Usage: python .ci/smoke.py http://127.0.0.1:8000
"""

from __future__ import annotations

import base64
import http.cookiejar
import os
import re
import socket
import sys
import time
import urllib.error
import urllib.parse
import urllib.request


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def wait_for(base: str, seconds: float = 60) -> None:
    """Until the server answers (it may still be starting)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            urllib.request.urlopen(base + "/", timeout=5).read()
            return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def main(base: str) -> None:
    wait_for(base)
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect)
    home = opener.open(base + "/", timeout=10).read().decode()
    token = re.search(r'<meta name="csrf-token" content="([^"]+)"', home).group(1)
    form = urllib.parse.urlencode({"name": "Smoke", "variant": "partnership", "seats": 4, "target": 100,
                                   "csrf_token": token}).encode()
    try:
        opener.open(base + "/tables", data=form, timeout=10)
        raise SystemExit("POST /tables did not redirect to the new table")
    except urllib.error.HTTPError as answer:
        assert answer.code == 303, answer.code
        table = answer.headers["Location"]
    page = opener.open(urllib.parse.urljoin(base, table), timeout=10).read().decode()
    assert 'id="table"' in page and "data-version" in page, page[:500]
    handshake(base, urllib.parse.urlsplit(urllib.parse.urljoin(base, table)).path + "/ws")
    print(f"smoke: {base} served /, {table} and its websocket")


def handshake(base: str, path: str) -> None:
    """The websocket upgrade answers 101 (the gevent worker serves websockets)."""
    url = urllib.parse.urlsplit(base)
    key = base64.b64encode(os.urandom(16)).decode()
    request = (f"GET {path} HTTP/1.1\r\nHost: {url.netloc}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: {base}\r\n\r\n")
    with socket.create_connection((url.hostname, url.port), timeout=10) as sock:
        sock.sendall(request.encode())
        status = sock.recv(4096).split(b"\r\n", 1)[0]
    assert b" 101 " in status, status


if __name__ == "__main__":
    main(sys.argv[1].rstrip("/"))
