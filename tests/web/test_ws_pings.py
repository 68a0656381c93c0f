"""Pings (S4): a browser that stops answering is noticed within two ping intervals; one that answers stays."""

import socket
import time
from urllib.parse import urlsplit

import pytest
from webtools import cookie_header, table_id, wait_until

PING = 0.3  # seconds between pings in these tests


@pytest.fixture
def server(make_server):
    return make_server(START_CLOCK=False, PING_SECONDS=PING)


def seated_pair(server):
    host = server.player()
    url = host.create("Ana", "block", 2)
    guest = server.player()
    guest.join(url, "Bea")
    return url, host, guest, server.app.extensions["fichas"].tables.get(table_id(url))


def silent_socket(server, url: str, player) -> socket.socket:
    """A websocket opened by hand that never reads again: it cannot answer a ping."""
    parts = urlsplit(server.url)
    lines = [f"GET {url}/ws HTTP/1.1", f"Host: {parts.netloc}", "Upgrade: websocket", "Connection: Upgrade",
             "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13",
             f"Origin: {server.url}", f"Cookie: {cookie_header(player)}"]
    sock = socket.create_connection((parts.hostname, parts.port), timeout=5)
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    assert sock.recv(4096).startswith(b"HTTP/1.1 101")
    return sock


def test_a_browser_that_stops_answering_pings_is_disconnected(server):
    url, host, guest, table = seated_pair(server)
    host.connect()
    sock = silent_socket(server, url, guest)
    try:
        wait_until(lambda: table.connected(1), timeout=2)
        started = time.monotonic()
        wait_until(lambda: not table.connected(1), timeout=10 * PING)
        assert time.monotonic() - started <= 3 * PING  # two intervals, and a little slack
        host.wait_for(lambda m: "disconnected" in m)  # everyone sees it (S4)
    finally:
        sock.close()


def test_a_browser_that_answers_pings_stays_connected(server):
    _, host, guest, table = seated_pair(server)
    host.connect()
    guest.connect()
    wait_until(lambda: table.connected(0) and table.connected(1))
    time.sleep(8 * PING)
    assert table.connected(0) and table.connected(1)
    assert server.app.extensions["fichas"].hub.count() == 2
