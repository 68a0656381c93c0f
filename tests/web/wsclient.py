"""For the websocket budget tests: a client that writes and reads raw frames, and the production server.

`RawClient` is a websocket written by hand with wsproto (what a flooder would write): it sends
frames as bytes, as fast as asked, and reads back every frame the server writes, close codes
and pongs included. `Production` runs the README's production command (gunicorn, one gevent
worker) in a subprocess, as bench/load.py does: the stall a flood causes only shows under gevent.
"""

from __future__ import annotations

import contextlib
import os
import select
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import requests
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

from helpers.bench import load_generator

ROOT = Path(__file__).resolve().parents[2]
LOAD = load_generator()  # its children() and stop_server() stop a gunicorn as the benchmark does


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


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Production:
    """`gunicorn -k gevent -w 1 ... 'app:create_app()'` on a free port with a temporary database."""

    def __init__(self, folder: Path, **env: str):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = folder / "gunicorn.log"
        self.env = {**os.environ, "FICHAS_DB": str(folder / "fichas.sqlite3"), **env}
        self.process: subprocess.Popen | None = None
        self.worker = 0

    def start(self, timeout: float = 30.0) -> Production:
        # --no-control-socket: two servers at once (a benchmark and this test) would share ~/.gunicorn.
        command = [sys.executable, "-m", "gunicorn", "-k", "gevent", "-w", "1", "--worker-connections",
                   "1000", "-b", f"127.0.0.1:{self.port}", "--no-control-socket", "app:create_app()"]
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=log,
                                            stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"gunicorn exited:\n{self.log()}"
            with contextlib.suppress(requests.RequestException):
                workers = LOAD.children(self.process.pid)
                if requests.get(self.url + "/", timeout=2).status_code == 200 and workers:
                    self.worker = workers[0]
                    return self
            time.sleep(0.1)
        raise AssertionError(f"gunicorn did not answer within {timeout} s:\n{self.log()}")

    def workers(self) -> list[int]:
        return LOAD.children(self.process.pid)

    def log(self) -> str:
        with contextlib.suppress(OSError):
            return self.log_path.read_text(errors="replace")
        return ""

    def stop(self) -> None:
        if self.process is not None:
            LOAD.stop_server(self.process)
