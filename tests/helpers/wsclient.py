"""For the websocket budget tests: a client that writes and reads raw frames, and the production server.

`RawClient` is a websocket written by hand with wsproto (what a flooder would write): it sends
frames as bytes, as fast as asked, and reads back every frame the server writes, close codes
and pongs included. `Production` (helpers/production.py) runs the README's production command
(gunicorn, one gevent worker) in a subprocess, as bench/load.py does: the stall a flood causes only
shows under gevent.
"""

from __future__ import annotations

import contextlib
import select
import socket
import time
from urllib.parse import urlsplit

from wsproto import ConnectionType, WSConnection
from wsproto.events import (
    AcceptConnection,
    CloseConnection,
    Message,
    Ping,
    Pong,
    RejectConnection,
    Request,
    TextMessage,
)
from wsproto.utilities import LocalProtocolError

from helpers.production import Production, free_port  # noqa: F401 (the tests import them from here)


class Refused(Exception):
    """The server answered the handshake with an HTTP status instead of accepting it."""

    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


class RawClient:
    """One websocket opened by hand, with the headers given (an Origin, perhaps a cookie)."""

    def __init__(self, base_url: str, path: str, headers: dict[str, str], timeout: float = 5.0):
        parts = urlsplit(base_url)
        self.sock = socket.create_connection((parts.hostname, parts.port), timeout=timeout)
        self.protocol = WSConnection(ConnectionType.CLIENT)
        self.messages: list[str | bytes] = []
        self.pongs = 0
        self.pings = 0
        self.closed: CloseConnection | None = None  # the server's close frame
        self.eof = False
        self.bytes_read = 0
        extra = [(key.encode(), value.encode()) for key, value in headers.items()]
        self.sock.sendall(self.protocol.send(Request(host=parts.netloc, target=path, extra_headers=extra)))
        accepted = None
        while accepted is None:
            data = self.sock.recv(65536)
            assert data, "the server hung up during the handshake"
            self.protocol.receive_data(data)
            for event in self.protocol.events():
                if isinstance(event, RejectConnection):
                    self.sock.close()
                    raise Refused(event.status_code)
                if isinstance(event, AcceptConnection):
                    accepted = event
                    break
        self._handle()  # a first push may have come with the handshake's answer

    def frame(self, text: str) -> bytes:
        """A text message as the masked frame a client writes."""
        return self.protocol.send(TextMessage(data=text))

    def ping_frame(self, payload: bytes = b"") -> bytes:
        return self.protocol.send(Ping(payload=payload))

    def write(self, data: bytes) -> None:
        self.sock.sendall(data)

    def read(self, timeout: float) -> bool:
        """Read what comes within `timeout`; False once the server has hung up.

        It leaves the socket's own timeout alone, so another thread may write meanwhile.
        """
        if self.eof:
            return False
        if not select.select([self.sock], [], [], timeout)[0]:
            return True
        try:
            data = self.sock.recv(65536)
        except OSError:  # reset
            data = b""
        if not data:
            self.eof = True
            return False
        self.bytes_read += len(data)
        with contextlib.suppress(LocalProtocolError):  # bytes after the close frame
            self.protocol.receive_data(data)
        self._handle()
        return True

    def read_until(self, predicate, timeout: float = 5.0) -> bool:
        """Read until predicate() holds or the server hangs up; whether it held."""
        deadline = time.monotonic() + timeout
        while not predicate() and time.monotonic() < deadline:
            if not self.read(min(0.2, max(0.01, deadline - time.monotonic()))):
                break
        return bool(predicate())

    def _handle(self) -> None:
        for event in self.protocol.events():
            if isinstance(event, Message):
                assert event.message_finished, "the server writes every message as one frame"
                self.messages.append(event.data)
            elif isinstance(event, Pong):
                self.pongs += 1
            elif isinstance(event, Ping):
                self.pings += 1
            elif isinstance(event, CloseConnection) and self.closed is None:
                self.closed = event

    def close(self) -> None:
        self.sock.close()
