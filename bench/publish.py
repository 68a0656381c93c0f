"""The cost and size of pushes: web/push/publish.py over whole random matches, in one language and in two.

    python bench/publish.py [--matches N] [--root PATH]
    python bench/publish.py --tables 1000 [--moves N] [--root PATH]

A Partnership table with its four seats on websocket stand-ins (they keep what they are sent),
played to the end by random legal moves, again and again. Every push is timed and weighed:
pushes of changed pieces and whole tables apart, and the bytes per move per seat over whole
matches. Every action is timed too, whole (the rules, the SQLite write and the push), by kind:
a move in a round's play, the move that ends a round, and the next deal. Languages: all four
seats read English, or two English and two Spanish. `--root` runs the same against another
checkout (for a before/after). Timings are measured here, never asserted in tests.

With `--tables N`: N such tables at once (one language), a move at each in turn in a shuffled
order, as a server's tables take theirs; prints the process's CPU per move (the rules, the SQLite
write and the push to stand-ins, with the collector's passes: no network). Steadier than a load
run from one minute to the next (a few per cent), so it suits a before/after of the move's own code.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path


class Inbox:
    """A websocket stand-in that keeps what it is sent (web.ws.hub.Connection writes to it)."""

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


def seated_table(live, langs: tuple[str, ...]) -> tuple:
    """A new Partnership table, its four seats taken, each seat's page on a stand-in reading `langs`."""
    from web.ws.hub import Connection  # the checkout's own: publish() reads and sets what it holds

    table, _ = live.tables.create("Ana", "partnership", 4, 100)
    for name in ("Bea", "Carl", "Dan"):
        live.tables.join(table, name)
    pages = [Connection(Inbox(), s) for s in range(4)]
    for page, lang in zip(pages, langs, strict=True):
        page.holder, page.lang = table.secret_hashes[page.seat], lang
        live.hub.add(table.id, page)
    return table, pages


def interleaved(app, count: int, moves: int) -> None:
    """`count` tables played a move each in turn (new matches as they end); CPU and collections a move."""
    live, rng = app.extensions["fichas"], random.Random(2)
    tables, pages = live.tables, {}
    for _ in range(count):
        table, pages_of_table = seated_table(live, ("en",) * 4)
        pages[table.id] = pages_of_table

    def move(table) -> None:
        play(tables, table, rng)
        if table.match.over:
            tables.act(table, 0, "next_round", str(table.version))
        for page in pages[table.id]:  # what each page's handler would write; then forgotten
            page.flush(0)
            page.socket.sent.clear()

    order = [tables.get(table_id) for table_id in pages]
    for table in order:  # a first move each, then a clean start for the collector
        move(table)
    gc.collect()
    passes = {"seconds": 0.0, "count": 0}

    def timed_pass(phase: str, info: dict) -> None:
        if phase == "start":
            passes["started"] = time.perf_counter()
        elif "started" in passes:
            passes["seconds"] += time.perf_counter() - passes["started"]
            passes["count"] += 1

    gc.callbacks.append(timed_pass)
    done, cpu = 0, time.process_time()
    while done < moves:
        rng.shuffle(order)
        for table in order:
            move(table)
        done += len(order)
    cpu = time.process_time() - cpu
    gc.callbacks.remove(timed_pass)
    print(f"{count} tables, {done} moves: CPU {cpu / done * 1e6:.0f} µs a move, of which the collector"
          f" {passes['seconds'] / done * 1e6:.1f} µs ({passes['count']} passes)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--root", default=str(Path(__file__).resolve().parents[1]))
    parser.add_argument("--tables", type=int, default=0, help="N tables at once: CPU per move (see above)")
    parser.add_argument("--moves", type=int, default=30_000, help="with --tables: moves to time")
    args = parser.parse_args()
    sys.path.insert(0, args.root)
    from app import create_app

    app = create_app({"DATABASE": tempfile.mkdtemp() + "/bench.sqlite3", "START_CLOCK": False,
                      "LIMITS": False, "PING_SECONDS": 3600, "TABLES_OPTIONS": {"rng": random.Random(1)}})
    live = app.extensions["fichas"]
    if args.tables:
        interleaved(app, args.tables, args.moves)
        live.close()
        return
    tables = live.tables
    for langs in (("en",) * 4, ("en", "es", "en", "es")):
        rng = random.Random(2)
        timings: dict[str, list[float]] = {"changed pieces": [], "whole table": []}
        actions: dict[str, list[float]] = {"move": [], "round's end": [], "next deal": []}
        moves = sent = 0
        for _ in range(args.matches):
            table, viewers = seated_table(live, langs)
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
