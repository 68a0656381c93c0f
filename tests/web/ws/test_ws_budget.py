"""Each websocket's budget (web/ws/endpoint.py's Reader): a flood is cut off with 1008, a human never is.

The Reader replaces simple-websocket's reader thread and writes nothing itself: its pongs and
close frames go through the socket's one ordered writer (Connection), as the pushes do.
"""

from __future__ import annotations

import socket
import threading
import time
from importlib.metadata import version
from types import SimpleNamespace

import pytest
from wsproto import ConnectionType
from wsproto.connection import Connection as Frames
from wsproto.events import CloseConnection, Message, Ping, Pong, TextMessage

from helpers.pages import seat_up, table_id, wait_until
from helpers.wsclient import RawClient
from web.guard.budget import Budget
from web.ws.endpoint import (
    INBOX_MAX,
    MESSAGE_TOO_BIG,
    MESSAGES_PER_SECOND,
    POLICY_VIOLATION,
    TOO_BIG,
    TOO_FAST,
    Reader,
)
from web.ws.hub import Connection


def test_the_installed_simple_websocket_is_the_one_the_reader_was_written_for():
    # web/ws/endpoint.py uses simple-websocket 1.1's Server for the handshake only: thread_class keeps
    # its reader from starting, and Reader uses its .sock, .ws (wsproto), .mode and .pong_received.
    # After an upgrade check that all of that still holds, then change this line.
    assert version("simple-websocket") == "1.1.0"
    # Reader._wsproto_idle reads wsproto's parser state (checked by behaviour below), as laid out
    # in 1.3 (pyproject.toml keeps to it): before allowing another series read it again there.
    assert version("wsproto").startswith("1.3.")


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_the_budget_is_a_burst_then_a_steady_rate():
    clock = Clock()
    budget = Budget(20, clock)
    assert all(budget.spend() for _ in range(20))  # a second's worth at once
    assert not budget.spend()
    clock.now += 0.05  # one more token every 1/20 s
    assert budget.spend() and not budget.spend()
    for _ in range(100):  # a move every 0.2 s, for ever
        clock.now += 0.2
        assert budget.spend()
    for _ in range(100):  # 25 a second: the bucket runs dry
        clock.now += 0.04
        if not budget.spend():
            break
    else:
        pytest.fail("25 frames a second were never refused")


class OnlySendall:
    """The server's end of the socket: a write that does not come from Connection fails the test."""

    def __init__(self, sock: socket.socket):
        self._sock = sock
        self.frames: list[bytes] = []

    def sendall(self, data):
        self.frames.append(bytes(data))
        self._sock.sendall(data)

    def send(self, data):
        raise AssertionError("a write that does not go through Connection's ordered writer")

    def __getattr__(self, name):
        return getattr(self._sock, name)


class Pair:
    """A Reader and its Connection on one end of a socket pair, a client's frames on the other.

    A thread stands in for the handler: it writes what the connection queues until it is done.
    """

    def __init__(self, rate: float = MESSAGES_PER_SECOND, max_message_size: int = 4096):
        server, self.sock = socket.socketpair()
        self.sock.settimeout(5)
        self.raw = OnlySendall(server)
        self.ws = SimpleNamespace(sock=self.raw, ws=Frames(ConnectionType.SERVER), pong_received=False,
                                  connected=True)
        self.connection = Connection(self.ws, None)
        self.reader = Reader(self.ws, self.connection, rate, max_message_size)
        self.client = Frames(ConnectionType.CLIENT)
        self.events: list = []
        self.writer = threading.Thread(target=self._write, daemon=True)
        self.writer.start()
        self.reader.start()

    def _write(self):
        while not self.connection.done:
            self.connection.flush(0.05)

    def send(self, *events) -> None:
        self.sock.sendall(b"".join(self.client.send(event) for event in events))

    def read_until_eof(self) -> list:
        """Every event the server sent, up to its end of the stream."""
        while data := self.sock.recv(65536):
            self.client.receive_data(data)
        self.events += list(self.client.events())
        return self.events

    def close(self):
        self.connection.close()
        self.writer.join(5)
        self.reader.finished.wait(5)
        self.sock.close()
        self.raw._sock.close()


@pytest.fixture
def pair():
    pairs = []

    def make(**options):
        pairs.append(Pair(**options))
        return pairs[-1]

    yield make
    for made in pairs:
        made.close()


def test_a_ping_is_answered_through_the_connection_and_a_pong_is_noted(pair):
    p = pair()
    p.send(Ping(b"hello"))
    p.client.receive_data(p.sock.recv(65536))
    assert [type(e) for e in p.client.events()] == [Pong]
    assert p.raw.frames == [b"\x8a\x05hello"]  # written whole, by the connection's writer
    p.send(Pong(b""))
    wait_until(lambda: p.ws.pong_received)


def test_a_close_from_the_client_is_answered_and_ends_the_socket(pair):
    p = pair()
    p.send(TextMessage("first"), CloseConnection(1001, "going away"))
    events = p.read_until_eof()  # the server's close, then its FIN
    assert [(e.code, e.reason) for e in events] == [(1001, "going away")]
    wait_until(lambda: p.connection.done)
    assert p.reader.next() == "first"  # what came before the close is still played
    p.sock.close()
    assert p.reader.finished.wait(5)


def test_a_message_in_fragments_is_taken_whole(pair):
    p = pair()
    p.send(TextMessage("a move ", message_finished=False), TextMessage("in two parts"))
    wait_until(lambda: p.reader.inbox)
    assert p.reader.next() == "a move in two parts"


def frame(payload: bytes, first: int = 0x81, mask: bytes | None = b"MASK", long: bool = False) -> bytes:
    """A client's frame written by hand: `first` (FIN, RSV, opcode; a text frame), then `payload`
    (valid UTF-8 or not), masked with `mask` (None: not masked); its length in two more bytes when it
    is 126 or more, or when `long`."""
    size = len(payload)
    length = bytes((126,)) + size.to_bytes(2, "big") if size > 125 or long else bytes((size,))
    if mask is None:
        return bytes((first,)) + length + payload
    key = (mask * size)[:size]
    masked = bytes(a ^ b for a, b in zip(payload, key, strict=True))
    return bytes((first, 0x80 | length[0])) + length[1:] + mask + masked


def closes(p) -> list[int]:
    """The codes of the server's close frames, read to the end of its stream."""
    return [e.code for e in p.read_until_eof() if isinstance(e, CloseConnection)]


def test_a_whole_small_move_is_read_without_wsproto_and_anything_else_with_it(pair):
    p = pair()
    parsed = []
    handle = p.reader._handle_events
    p.reader._handle_events = lambda: parsed.append(1) or handle()
    move = '{"action": "play", "tile": "6-6", "end": "", "version": "7", "note": "ñ€😀"}'
    p.send(TextMessage(move))
    wait_until(lambda: p.reader.inbox)
    assert p.reader.next() == move and not parsed  # the page's usual move: read directly
    p.send(Pong(b""))  # the answer to our ping, as often as moves
    wait_until(lambda: p.ws.pong_received)
    assert not parsed
    split = p.client.send(TextMessage("split across two reads"))
    p.sock.sendall(split[:5])
    time.sleep(0.1)
    p.sock.sendall(split[5:])
    p.send(TextMessage("one"), TextMessage("two"))  # two frames in one read
    wait_until(lambda: len(p.reader.inbox) == 3)
    assert [p.reader.next() for _ in range(3)] == ["split across two reads", "one", "two"]
    assert parsed  # all those went through wsproto
    parsed.clear()
    p.sock.sendall(frame(b"after them"))  # wsproto holds nothing again: read directly
    wait_until(lambda: p.reader.inbox)
    assert p.reader.next() == "after them" and not parsed


def test_a_move_with_htmx_headers_has_a_longer_length_and_is_read_without_wsproto_too(pair):
    p = pair()
    parsed = []
    handle = p.reader._handle_events
    p.reader._handle_events = lambda: parsed.append(1) or handle()
    move = ('{"action":"play","tile":"6-6","end":"","version":"7","HEADERS":{"HX-Request":"true",'
            '"HX-Trigger":null,"HX-Trigger-Name":null,"HX-Target":"me",'
            '"HX-Current-URL":"https://fichas.example/t/s1-Fh3kq9ZpXw2L"}}')
    assert len(move) > 125
    for text in (move, "m" * 126, "ñ" * 2000):
        p.send(TextMessage(text))
        wait_until(lambda: p.reader.inbox)
        assert p.reader.next() == text
    assert not parsed


def test_a_length_written_longer_than_it_needs_is_a_protocol_error(pair):
    p = pair()
    p.sock.sendall(frame(b'{"action": "pass"}', long=True))  # wsproto reads it, and refuses it
    assert closes(p) == [1002]
    assert p.reader.next() is None


def test_a_small_text_frame_that_is_not_utf8_is_closed_by_wsproto_with_1007(pair):
    p = pair()
    p.sock.sendall(frame(b'{"action": "\xff"}'))
    assert closes(p) == [1007]
    assert p.reader.next() is None


def test_whole_frames_of_0_125_and_126_bytes_are_read_alike(pair):
    p = pair()
    for size in (0, 125, 126):
        p.send(TextMessage("m" * size))
    wait_until(lambda: len(p.reader.inbox) == 3)
    assert [p.reader.next() for _ in range(3)] == ["", "m" * 125, "m" * 126]


@pytest.mark.parametrize("bad", [frame(b"move", first=0xC1), frame(b"move", mask=None)],
                         ids=["rsv1", "unmasked"])
def test_a_small_frame_with_a_reserved_bit_or_no_mask_is_a_protocol_error(pair, bad):
    p = pair()
    p.sock.sendall(bad)
    assert closes(p) == [1002]
    assert p.reader.next() is None


def test_a_whole_text_frame_inside_a_message_in_fragments_is_a_protocol_error(pair):
    p = pair()
    p.send(TextMessage("the first part", message_finished=False))
    wait_until(lambda: p.reader._parts)  # wsproto has begun the message
    p.sock.sendall(frame(b"a new message"))  # not a continuation: read by wsproto, which refuses it
    assert closes(p) == [1002]
    assert p.reader.next() is None


def test_the_end_of_a_frame_begun_in_an_earlier_read_is_never_read_as_a_frame(pair):
    p = pair()
    inner = frame(b"evil")  # looks like a whole move, but is a binary frame's payload
    outer = frame(inner, first=0x82, mask=b"\x00\x00\x00\x00")
    p.sock.sendall(outer[:6])  # the header and the mask alone: wsproto keeps the header it read
    time.sleep(0.2)
    p.sock.sendall(outer[6:])
    wait_until(lambda: p.reader.inbox)
    assert p.reader.next() == inner and p.reader.next() is None


def test_the_end_of_a_header_begun_in_an_earlier_read_is_never_read_as_a_frame(pair):
    p = pair()
    binary = frame(b"Z", first=0x82, mask=b"\x80\x00\x00\x00")  # its last 6 bytes: an empty text frame's
    p.sock.sendall(binary[:1])
    time.sleep(0.2)  # read alone: wsproto keeps the byte
    p.sock.sendall(binary[1:])
    wait_until(lambda: p.reader.inbox)
    assert p.reader.next() == b"Z" and p.reader.next() is None


def test_moves_read_directly_count_against_the_budget_and_the_size_limit(pair):
    p = pair(rate=3)  # a burst of three
    for _ in range(5):  # each alone in its read
        p.sock.sendall(frame(b'{"action": "pass"}'))
        time.sleep(0.05)
    assert closes(p) == [POLICY_VIOLATION]
    small = pair(max_message_size=10)
    small.sock.sendall(frame(b"x" * 20))
    assert closes(small) == [MESSAGE_TOO_BIG]
    assert small.reader.next() is None


def test_an_oversized_message_is_closed_with_1009(pair):
    p = pair(max_message_size=100)
    p.send(Message("x" * 60, message_finished=False), Message("x" * 60))
    assert [(e.code, e.reason) for e in p.read_until_eof()] == [(MESSAGE_TOO_BIG, TOO_BIG)]
    assert p.reader.next() is None


def test_a_flood_is_closed_with_1008_and_none_of_it_is_played(pair):
    p = pair()
    p.send(*[TextMessage('{"action": "pass"}') for _ in range(200)])
    assert [(e.code, e.reason) for e in p.read_until_eof()] == [(POLICY_VIOLATION, TOO_FAST)]
    assert p.reader.next() is None
    assert p.reader.close_code == POLICY_VIOLATION


def test_pings_count_against_the_budget_too(pair):
    p = pair()
    p.send(*[Ping(b"") for _ in range(MESSAGES_PER_SECOND * 3)])
    closes = [e for e in p.read_until_eof() if isinstance(e, CloseConnection)]
    assert [(e.code, e.reason) for e in closes] == [(POLICY_VIOLATION, TOO_FAST)]
    assert len(p.events) < MESSAGES_PER_SECOND + 5  # pongs for the burst at most, then the close


def test_a_handler_that_falls_behind_closes_the_socket_at_its_inbox_limit(pair):
    p = pair(rate=10_000)  # no rate to speak of: only the inbox bounds what waits
    p.send(*[TextMessage(str(n)) for n in range(INBOX_MAX + 1)])
    assert [(e.code, e.reason) for e in p.read_until_eof()] == [(POLICY_VIOLATION, TOO_FAST)]


# -- the same against a real server ----------------------------------------------------------


@pytest.fixture
def server(make_server):
    return make_server(START_CLOCK=False, PING_SECONDS=1)


def test_a_socket_past_its_budget_gets_1008_and_the_reason(server):
    url, _ = seat_up(server, "block", 2, ("Ana", "Bea"))
    hub = server.app.extensions["fichas"].hub
    flooder = RawClient(server.url, url + "/ws", {"Origin": server.url})  # no cookie: no seat
    try:
        wait_until(lambda: "fichas-ws-reader" in {t.name for t in threading.enumerate()})
        assert not any("simple_websocket" in t.name for t in threading.enumerate())  # its reader never ran
        frame = flooder.frame('{"action": "play", "tile": "6-6", "end": "", "version": "1"}')
        flooder.write(frame * (MESSAGES_PER_SECOND * 5))
        assert flooder.read_until(lambda: flooder.closed is not None)
        assert (flooder.closed.code, flooder.closed.reason) == (POLICY_VIOLATION, TOO_FAST)
        # It was answered at most for its burst, then cut off and forgotten.
        assert len(flooder.messages) <= 1 + MESSAGES_PER_SECOND
        wait_until(lambda: hub.count() == 0)
        assert flooder.read_until(lambda: flooder.eof)  # the server's writing half is shut
    finally:
        flooder.close()


def test_a_move_every_fifth_of_a_second_is_never_cut_off(make_server):
    rate = 6  # a tighter budget than the default: 5 messages a second must still pass
    assert rate <= MESSAGES_PER_SECOND
    server = make_server(START_CLOCK=False, PING_SECONDS=1, WS_MESSAGES_PER_SECOND=rate)
    url, players = seat_up(server, "block", 2, ("Ana", "Bea"))
    table = server.app.extensions["fichas"].tables.get(table_id(url))
    for player in players:
        player.connect()
        player.wait_version(table.version)
    mover = players[table.match.round.turn]
    since = len(mover.messages)
    sent = 20  # four seconds at five a second: well past the burst
    for _ in range(sent):
        mover.send_move({"action": "pass", "version": "0"})  # refused (a stale version): answered in #flash
        time.sleep(0.2)
    wait_until(lambda: sum(m.startswith('<div id="flash"') for m in mover.messages[since:]) == sent)
    version = table.version
    tile = table.match.round.playable(table.match.round.turn)[0][0].text
    mover.send_move({"action": "play", "tile": tile, "end": "", "version": str(version)})
    for player in players:  # the socket is still open: its move is played and reaches everyone
        player.wait_version(version + 1)
    assert server.app.extensions["fichas"].hub.count() == 2
