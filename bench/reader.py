"""The cost of reading one incoming websocket frame: a page's move, and the pong to a ping.

    python bench/reader.py [--frames N]

Feeds web.socket.Reader's frame handling (no socket, no event loop) the frames a browser sends:
a move as htmx's ws-send writes it (a masked text frame of about 90 bytes) and an empty pong.
Each is read as the Reader reads it (`feed`: directly, by `_whole_text`) and, for comparison, by
wsproto's parser (`receive_data` and `_handle_events`, as every frame was read before). Prints µs
a frame. Timings are measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from wsproto import ConnectionType
from wsproto.connection import Connection as Frames
from wsproto.events import Pong, TextMessage

from web.hub import Connection
from web.socket import Reader

MOVE = '{"action":"play","tile":"3-5","end":"left","version":"41","HEADERS":{"HX-Request":"true"}}'


def reader() -> Reader:
    """A Reader on a stand-in socket, with a budget no run exhausts."""
    ws = SimpleNamespace(sock=None, ws=Frames(ConnectionType.SERVER), pong_received=False, connected=True)
    return Reader(ws, Connection(ws, None), rate=1e12, max_message_size=4096)


def timed(frame: bytes, count: int, direct: bool) -> float:
    """µs a frame, read `count` times by one Reader (its inbox emptied as the handler would)."""
    r = reader()
    start = time.perf_counter()
    for _ in range(count):
        if direct:
            r.feed(frame)
        else:
            r.protocol.receive_data(frame)
            r._handle_events()
        r.inbox.clear()
    return (time.perf_counter() - start) / count * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=200_000)
    args = parser.parse_args()
    client = Frames(ConnectionType.CLIENT)
    for name, frame in (("a move", client.send(TextMessage(MOVE))), ("a pong", client.send(Pong(b"")))):
        wsproto = min(timed(frame, args.frames, direct=False) for _ in range(3))
        direct = min(timed(frame, args.frames, direct=True) for _ in range(3))
        print(f"{name} ({len(frame)} bytes): wsproto {wsproto:.2f} µs, direct {direct:.2f} µs a frame")


if __name__ == "__main__":
    main()
