"""A gunicorn config file for load runs with --probe: times the server's own work per move.

    gunicorn ... -c bench/server_probe.py 'app:create_app()'

In the worker it wraps Tables.act, Store.commit, Store.checkpoint and app.publish with timers (with
FICHAS_BENCH_PROBE_PARTS set, the parts of each push too: bench/load.py --probe-parts) and records every
garbage-collector pause and how late a greenlet that sleeps 50 ms at a time wakes up (only lags
over 5 ms are kept); at exit it writes every (start, duration) pair, in seconds of
time.monotonic(), as JSON to the path in FICHAS_BENCH_PROBE (bench/load.py keeps those of the
measured window), with what the collector froze and how much of it had died in cycles. The
server's behaviour is unchanged, but for a longer graceful stop; the timers cost a few microseconds
each (--probe-parts: about 10 % of the worker's CPU).
"""

from __future__ import annotations

import array
import functools
import gc
import json
import os
import time

# name -> (start, duration) pairs, flat in an array of doubles: no object per timing, so the probe adds no
# work for the garbage collector (a list of tuples kept 3 more objects alive a move, and at 1,000 tables
# that alone set off about two extra young collections a second, the probe's own pauses).
durations: dict[str, array.array] = {}
# gunicorn's setting (this is its config file, read only with -c): how long the master waits for the
# worker to stop before it kills it. The worker spends it first on open connections (bench/load.py
# closes them all before it stops the server), then writes what it measured (several seconds for the
# millions of timings of --probe-parts). bench/load.py's PROBE_EXIT_SECONDS waits longer than this.
graceful_timeout = 90


def timed(name: str, function):
    """`function`, recording how long each call takes under `name`."""
    samples = durations.setdefault(name, array.array("d"))

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        started = time.monotonic()
        try:
            return function(*args, **kwargs)
        finally:
            samples.extend((started, time.monotonic() - started))

    return wrapper


def watch_gc() -> None:
    started = {}

    def callback(phase: str, info: dict) -> None:
        if phase == "start":
            started["at"] = time.monotonic()
        elif "at" in started:
            durations.setdefault(f"gc_gen{info['generation']}", array.array("d")).extend(
                (started["at"], time.monotonic() - started["at"]))

    gc.callbacks.append(callback)


def watch_hub(period: float = 0.05) -> None:
    """A greenlet that sleeps `period` at a time: how late it wakes is how far behind the hub is."""
    import gevent

    samples = durations.setdefault("hub_lag", array.array("d"))

    def run() -> None:
        while True:
            started = time.monotonic()
            gevent.sleep(period)
            late = time.monotonic() - started - period
            if late > 0.005:
                samples.extend((started, late))

    gevent.spawn(run)


def post_worker_init(worker) -> None:
    """Once the worker has patched the standard library for gevent: watch the hub."""
    watch_hub()


def post_fork(server, worker) -> None:
    """Before the worker loads the app (no --preload): wrap the functions that do a move's work."""
    import app
    import web.ws.endpoint
    from live.store import Store
    from live.tables import Tables

    Tables.act = timed("act", Tables.act)
    Store.commit = timed("commit", Store.commit)
    Store.checkpoint = timed("checkpoint", Store.checkpoint)  # its own thread, once a second: off the loop
    app.publish = timed("publish", app.publish)  # before create_app binds it into tables.show
    web.ws.endpoint.send_whole = timed("send_whole", web.ws.endpoint.send_whole)
    if os.environ.get("FICHAS_BENCH_PROBE_PARTS"):
        time_push_parts()
    watch_gc()


def time_push_parts() -> None:
    """Time each part of a push (web/push/publish.py's Push, web/ws/hub.py's writes): where `publish` goes."""
    from web.push.publish import Push
    from web.ws.hub import Connection

    Push.__init__ = timed("push_init", Push.__init__)  # the table's context, keys and what changed
    Push.message_for = timed("message_for", Push.message_for)  # one page's message, `shared` and `own` in it
    Push.shared = timed("shared", Push.shared)
    Push.own = timed("own", Push.own)
    Connection._put = timed("put", Connection._put)  # pings' too: `write` is the socket's own call at once
    Connection._write_now = timed("write", Connection._write_now)


def worker_exit(server, worker) -> None:
    """Write what was measured (the load generator reads it after the server stops)."""
    path = os.environ.get("FICHAS_BENCH_PROBE")
    if path:
        with open(path, "w") as out:
            json.dump({**{name: pairs(values) for name, values in durations.items()},
                       "at_exit": cycles_kept()}, out)


def pairs(values: array.array) -> list[tuple[float, float]]:
    """(start, duration) pairs from their flat array, rounded to 0.1 ms and 1 µs."""
    return [(round(values[i], 4), round(values[i + 1], 6)) for i in range(0, len(values), 2)]


def cycles_kept() -> dict:
    """What the collector froze (live/collector.py), and how much of it was garbage in cycles.

    Only at exit: counting the frozen objects walks them all (~0.1 s at 1,000 tables), and a
    collection of everything takes longer. Unreachable objects found here are cycles that died
    after they were frozen: what freezing cost in memory over the run.
    """
    frozen = gc.get_freeze_count()
    gc.unfreeze()
    return {"frozen_objects": frozen, "unreachable_objects": gc.collect()}
