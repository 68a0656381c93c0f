"""The cost of one push: web.render.publish for a 4-seat table, in one language and in two.

    python bench/publish.py [--repeat N] [--root PATH]

Four seated viewers on websocket stand-ins (they keep nothing). "move" re-renders every #me (as
after a move that changed every seat's part, the worst case); "shared" re-renders #table only
(as a presence change). Languages: all four read English, or two English and two Spanish: the
shared #table is then rendered twice. `--root` runs the same against another checkout (for a
before/after). Timings are measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import timeit
from pathlib import Path


class Viewer:
    """A websocket stand-in: what publish() reads of a connection."""

    def __init__(self, seat: int, holder: str, lang: str):
        self.seat, self.holder, self.lang = seat, holder, lang
        self.alive, self.me_key = True, None

    def send(self, data: str) -> bool:
        return True

    def ping(self, interval: float, now: float | None = None) -> bool:
        return True

    def close(self) -> None:
        self.alive = False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2000)
    parser.add_argument("--root", default=str(Path(__file__).resolve().parents[1]))
    args = parser.parse_args()
    sys.path.insert(0, args.root)
    from app import create_app
    from web.render import publish

    app = create_app({"DATABASE": tempfile.mkdtemp() + "/bench.sqlite3", "START_CLOCK": False,
                      "LIMITS": False})
    live = app.extensions["fichas"]
    tables = live.tables
    table, _ = tables.create("Ana", "partnership", 4, 100)
    for name in ("Bea", "Carl", "Dan"):
        tables.join(table, name)
    for langs in (("en",) * 4, ("en", "es", "en", "es")):
        viewers = [Viewer(s, table.secret_hashes[s], lang) for s, lang in enumerate(langs)]
        for viewer in viewers:
            live.hub.add(table.id, viewer)

        def move(viewers=viewers):
            for viewer in viewers:
                viewer.me_key = None
            publish(app, live.hub, tables, table)

        def shared():
            publish(app, live.hub, tables, table)

        for name, call in (("move", move), ("shared", shared)):
            call()
            runs = [timeit.timeit(call, number=args.repeat // 10) / (args.repeat // 10) for _ in range(10)]
            print(f"{len(set(langs))} language(s), {name}: {min(runs) * 1e6:.0f} µs per publish (best of 10)")
        for viewer in viewers:
            live.hub.remove(table.id, viewer)
    live.close()


if __name__ == "__main__":
    main()
