"""The cost and size of pushes: web.render.publish over whole random matches, in one language and in two.

    python bench/publish.py [--matches N] [--root PATH]

A Partnership table with its four seats on websocket stand-ins (they keep what they are sent),
played to the end by random legal moves, again and again. Every push is timed and weighed:
pushes of changed pieces and whole tables apart, and the bytes per move per seat over whole
matches. Every action is timed too, whole (the rules, the SQLite write and the push), by kind:
a move in a round's play, the move that ends a round, and the next deal. Languages: all four
seats read English, or two English and two Spanish. `--root` runs the same against another
checkout (for a before/after). Timings are measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path


class Inbox:
    """A websocket stand-in that keeps what it is sent (web.hub.Connection writes to it)."""

    def __init__(self):
        self.sent: list[str] = []

    def send(self, data: str) -> None:
        self.sent.append(data)


def play(tables, table, rng: random.Random) -> None:
    """One legal move by whoever acts (the host starts each next round)."""
    if table.phase != "playing":
        tables.act(table, 0, "next_round", str(table.version))
        return
    rnd = table.match.round
    seat = rnd.turn
    moves = rnd.playable(seat)
    if moves:
        tile, end = rng.choice(moves)
        tables.act(table, seat, "play", str(table.version), tile=tile.text, end=end)
    elif rnd.must_draw(seat):
        tables.act(table, seat, "draw", str(table.version))
    else:
        tables.act(table, seat, "pass", str(table.version))


def kind_of(table) -> str:
    """What the next action at `table` is: a move, or the host starting the next round."""
    return "move" if table.phase == "playing" else "next deal"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--root", default=str(Path(__file__).resolve().parents[1]))
    args = parser.parse_args()
    sys.path.insert(0, args.root)
    from app import create_app
    from web.hub import Connection  # the checkout's own: publish() reads and sets what it holds

    app = create_app({"DATABASE": tempfile.mkdtemp() + "/bench.sqlite3", "START_CLOCK": False,
                      "LIMITS": False, "PING_SECONDS": 3600, "TABLES_OPTIONS": {"rng": random.Random(1)}})
    live = app.extensions["fichas"]
    tables = live.tables
    for langs in (("en",) * 4, ("en", "es", "en", "es")):
        rng = random.Random(2)
        timings: dict[str, list[float]] = {"changed pieces": [], "whole table": []}
        actions: dict[str, list[float]] = {"move": [], "round's end": [], "next deal": []}
        moves = sent = 0
        for _ in range(args.matches):
            table, _ = tables.create("Ana", "partnership", 4, 100)
            for name in ("Bea", "Carl", "Dan"):
                tables.join(table, name)
            viewers = [Connection(Inbox(), s) for s in range(4)]
            for viewer, lang in zip(viewers, langs, strict=True):
                viewer.holder, viewer.lang = table.secret_hashes[viewer.seat], lang
                live.hub.add(table.id, viewer)
            publish = tables.publish

            def timed(table, publish=publish, viewers=viewers, timings=timings):
                start = time.perf_counter()
                publish(table)
                spent = time.perf_counter() - start
                for viewer in viewers:  # what the page's handler would write (pushes are queued)
                    viewer.flush(0)
                sent = viewers[0].socket.sent
                whole = sent and sent[-1].lstrip().startswith("<section")
                timings["whole table" if whole else "changed pieces"].append(spent)

            tables.publish = timed
            while not (table.match and table.match.over):
                kind, start = kind_of(table), time.perf_counter()
                play(tables, table, rng)
                spent = time.perf_counter() - start
                if kind == "move" and table.phase != "playing":
                    kind = "round's end"
                actions[kind].append(spent)
                moves += 1
            tables.publish = publish
            sent += sum(len(m.encode()) for v in viewers for m in v.socket.sent)
            for viewer in viewers:
                live.hub.remove(table.id, viewer)
        print(f"{len(set(langs))} language(s), {args.matches} matches, {moves} moves:")
        for kind, spent in timings.items():
            if spent:
                print(f"  {kind:15s} {len(spent):5d} pushes, median {statistics.median(spent) * 1e6:5.0f} µs,"
                      f" mean {statistics.fmean(spent) * 1e6:5.0f} µs")
        for kind, spent in actions.items():  # the pushes' time included, and the flushes' not
            print(f"  {kind:15s} {len(spent):5d} actions, median {statistics.median(spent) * 1e6:5.0f} µs,"
                  f" mean {statistics.fmean(spent) * 1e6:5.0f} µs")
        print(f"  bytes per move per seat: {sent / moves / 4:,.0f}")
    live.close()


if __name__ == "__main__":
    main()
