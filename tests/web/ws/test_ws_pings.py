"""Pings (S4): a browser silent for FICHAS_SILENCE_SECONDS (no pong, no frame) is cut off; one that
answers stays, however long its page's scripts are frozen."""

import socket
import time
from urllib.parse import urlsplit

import pytest

from helpers.pages import cookie_header, seat_panels, table_id, wait_new, wait_until
from web.ws.hub import PING, Connection

INTERVAL = 1.0  # seconds between pings: the test clients answer within one even on a loaded machine
SILENCE = 3 * INTERVAL  # silent this long: cut off


@pytest.fixture
def server(make_server):
    # The clock runs: it wakes the table to show a seat gone once the settle is over (S4).
    return make_server(PING_SECONDS=INTERVAL, SILENCE_SECONDS=SILENCE, SETTLE_SECONDS=0.2)


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
    # Cut off once silent for SILENCE, not at the first ping left unanswered: pinged about
    # SILENCE / INTERVAL times, counted in pings rather than timed.
    assert 2 <= opcodes(received).count(0x9) <= 4, opcodes(received)


def test_s4_a_socket_silent_for_less_than_the_silence_stays_present(server):
    """A phone's radio asleep, a frozen tab: pings left unanswered for a while cut nobody off (one
    unanswered ping did, within two intervals), and nobody is shown gone."""
    url, host, guest, table = seated_pair(server)
    host.connect().wait_for(lambda m: True)
    sock, _ = silent_socket(server, url, guest)
    try:
        wait_until(lambda: table.connected(1))
        count = len(host.messages)
        time.sleep(SILENCE - INTERVAL)  # two pings go unanswered
        assert table.connected(1) and not table.away(1, time.time())
        assert all(online(message, 1) for message in host.messages[count:] if "article" in message)
    finally:
        sock.close()


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


def test_a_ping_left_unanswered_cuts_the_connection_only_after_the_silence():
    socket = Answering()
    connection = Connection(socket, 0)
    start = connection.heard_at
    assert connection.ping(5, 20, now=start) and connection.flush(0) and socket.sent == [PING]
    socket.pong_received = False  # no answer: a phone's radio asleep, a busy link
    assert connection.ping(5, 20, now=start + 15) and connection.alive
    socket.pong_received = True  # the browser answered at last
    assert connection.ping(5, 20, now=start + 19.9) and connection.alive
    assert connection.ping(5, 20, now=start + 39.8) and connection.alive
    assert not connection.ping(5, 20, now=start + 39.9)  # nothing for 20 s
    assert not connection.alive


def test_any_frame_from_the_browser_counts_as_heard():
    connection = Connection(Answering(), 0)
    connection.socket.pong_received = False
    connection.heard_at -= 19  # silent 19 s, then a move comes (web/ws/endpoint.py Reader calls heard)
    connection.heard()
    assert connection.ping(5, 20, now=connection.heard_at + 19) and connection.alive


def test_without_a_silence_set_two_intervals_cut_it_off():
    connection = Connection(Answering(), 0)
    connection.socket.pong_received = False
    assert connection.ping(5, now=connection.heard_at + 9.9)
    assert not connection.ping(5, now=connection.heard_at + 10)
