"""Pings (S4): a browser that stops answering is noticed within two ping intervals; one that answers stays."""

import socket
import time
from urllib.parse import urlsplit

import pytest

from helpers.pages import cookie_header, seat_panels, table_id, wait_new, wait_until
from web.hub import PING, Connection

INTERVAL = 1.0  # seconds between pings: the test clients answer within one even on a loaded machine


@pytest.fixture
def server(make_server):
    return make_server(START_CLOCK=False, PING_SECONDS=INTERVAL)


def seated_pair(server):
    host = server.player()
    url = host.create("Ana", "block", 2)
    guest = server.player()
    guest.join(url, "Bea")
    return url, host, guest, server.app.extensions["fichas"].tables.get(table_id(url))


def silent_socket(server, url: str, player) -> tuple[socket.socket, bytes]:
    """A websocket opened by hand that does not read until told: it cannot answer a ping.

    Returns the socket and what came after the handshake's answer in the same read.
    """
    parts = urlsplit(server.url)
    lines = [f"GET {url}/ws HTTP/1.1", f"Host: {parts.netloc}", "Upgrade: websocket", "Connection: Upgrade",
             "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13",
             f"Origin: {server.url}", f"Cookie: {cookie_header(player)}"]
    sock = socket.create_connection((parts.hostname, parts.port), timeout=5)
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(4096)
    head, _, rest = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 101")
    return sock, rest


def opcodes(data: bytes) -> list[int]:
    """The opcodes of the websocket frames in `data`, as a server writes them (unmasked)."""
    found = []
    while len(data) >= 2:
        size, start = data[1] & 0x7F, 2
        if size == 126:
            size, start = int.from_bytes(data[2:4]), 4
        elif size == 127:
            size, start = int.from_bytes(data[2:10]), 10
        found.append(data[0] & 0x0F)
        data = data[start + size:]
    return found


def online(message: str, seat: int) -> bool:
    return "offline" not in seat_panels(message)[seat][0]


def test_a_browser_that_stops_answering_pings_is_disconnected(server):
    url, host, guest, table = seated_pair(server)
    host.connect().wait_for(lambda m: True)  # the host's socket is in before seat 1's comes and goes
    sock, received = silent_socket(server, url, guest)
    try:
        # What the host was pushed is kept: a slow test cannot miss the short time seat 1 was online.
        came = host.wait_for(lambda m: online(m, 1))
        wait_new(host, host.messages.index(came), lambda m: not online(m, 1))  # everyone sees it (S4)
        assert not table.connected(1)
        while chunk := sock.recv(65536):  # the server has shut the socket: read what it wrote
            received += chunk
    finally:
        sock.close()
    # Cut off at the first ping after the one left unanswered, i.e. within two intervals (S4),
    # counted in pings rather than timed.
    assert opcodes(received).count(0x9) == 1, opcodes(received)


def test_a_browser_that_answers_pings_stays_connected(server):
    _, host, guest, table = seated_pair(server)
    host.connect()
    guest.connect()
    wait_until(lambda: table.connected(0) and table.connected(1))
    time.sleep(4 * INTERVAL)  # four pings, each answered
    assert table.connected(0) and table.connected(1)
    assert server.app.extensions["fichas"].hub.count() == 2


def test_a_page_whose_first_table_is_slow_to_come_is_not_cut_off_meanwhile(server):
    _, host, _, table = seated_pair(server)
    tables = server.app.extensions["fichas"].tables
    connect = tables.connect

    def slow_connect(table, seat):  # a slow disk or a busy table: two pings go out meanwhile
        time.sleep(1.6 * INTERVAL)
        return connect(table, seat)

    tables.connect = slow_connect
    host.connect().wait_version(table.version)  # its pongs were read while it waited
    time.sleep(2 * INTERVAL)
    assert table.connected(0)


class Answering:
    """A websocket stand-in: what simple-websocket's reader sets when a pong comes, and a send."""

    def __init__(self):
        self.pong_received, self.sent = True, []

    def send(self, data):
        self.sent.append(data)


def test_a_ping_answered_keeps_the_connection_and_one_unanswered_cuts_it():
    socket = Answering()
    connection = Connection(socket, 0)
    start = time.monotonic()
    assert connection.ping(5, now=start) and connection.flush(0) and socket.sent == [PING]
    socket.pong_received = True  # the browser answered
    assert connection.ping(5, now=start + 5) and connection.alive
    connection.flush(0)
    assert not connection.ping(5, now=time.monotonic() + 5)  # this one went unanswered
    assert not connection.alive


def test_a_ping_written_late_behind_a_backlog_gets_time_for_its_answer():
    socket = Answering()
    connection = Connection(socket, 0)
    now = time.monotonic()
    connection.ping(5, now=now - 4.9)  # queued 4.9 s ago, behind pushes ...
    connection.flush(0)  # ... and written only now
    assert connection.ping(5, now=now + 0.1) and connection.alive  # its pong may be on its way
    assert socket.sent == [PING]  # and no second ping piles up behind it
    assert not connection.ping(5, now=now + 5.1) and not connection.alive


def test_a_ping_stuck_in_the_queue_cuts_the_connection_off_in_the_end():
    connection = Connection(Answering(), 0)
    now = time.monotonic()
    connection.ping(5, now=now)  # never written: the writer is stuck
    assert connection.ping(5, now=now + 4) and connection.alive
    assert not connection.ping(5, now=now + 6) and not connection.alive
