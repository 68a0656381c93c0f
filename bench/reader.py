"""The cost of reading one incoming websocket frame: a page's move, and the pong to a ping.

    python bench/reader.py [--frames N]

Feeds web.ws.endpoint.Reader (no socket, no event loop) the frames a browser sends, on a wsproto
connection past its handshake as simple-websocket hands it over: a move as htmx's ws-send writes
it (a masked text frame of about 90 bytes), an empty pong, and two moves in one read. Each is read
as the Reader reads it (`feed`: one whole small frame directly, anything else through wsproto) and
through wsproto's parser alone (`receive_data`, then `_handle_events`: how every frame was read
before the direct path). Prints µs a read. Timings are measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, Pong, Request, TextMessage

from web.ws.endpoint import Reader
from web.ws.hub import Connection

MOVE = '{"action":"play","tile":"3-5","end":"left","version":"41","HEADERS":{"HX-Request":"true"}}'


def opened() -> tuple[WSConnection, WSConnection]:
    """A client's and a server's wsproto connections, past the handshake."""
    client, server = WSConnection(ConnectionType.CLIENT), WSConnection(ConnectionType.SERVER)
    server.receive_data(client.send(Request(host="localhost", target="/t/x/ws")))
    list(server.events())
    client.receive_data(server.send(AcceptConnection()))
    list(client.events())
    return client, server


def timed(data: bytes, count: int, direct: bool) -> float:
    """µs a read of `data`, `count` times by one Reader (its inbox emptied as the handler would)."""
    _, server = opened()
    ws = SimpleNamespace(sock=None, ws=server, pong_received=False, connected=True)
    reader = Reader(ws, Connection(ws, None), rate=1e12, max_message_size=4096)
    start = time.perf_counter()
    for _ in range(count):
        if direct:
            reader.feed(data)
        else:
            reader.protocol.receive_data(data)
            reader._handle_events()
        reader.inbox.clear()
    return (time.perf_counter() - start) / count * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=200_000)
    args = parser.parse_args()
    client, _ = opened()
    move = client.send(TextMessage(MOVE))
    for name, data in (("a move", move), ("a pong", client.send(Pong(b""))), ("two moves", move * 2)):
        wsproto = min(timed(data, args.frames, direct=False) for _ in range(3))
        feed = min(timed(data, args.frames, direct=True) for _ in range(3))
        print(f"{name} ({len(data)} bytes in one read): wsproto {wsproto:.2f} µs, feed {feed:.2f} µs")


if __name__ == "__main__":
    main()
