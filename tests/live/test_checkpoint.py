"""SQLite's write-ahead log is copied into the database file by a job off the worker's path,
and started again; writes wait for it without stopping the worker."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from helpers import open_table
from helpers.pages import table_id
from live import store as store_module
from live.periodic import off_the_loop


def test_checkpoint_copies_the_log_and_leaves_the_tables_readable(app):
    url, _ = open_table(app)
    store = app.extensions["fichas"].tables.store
    busy, in_log, copied = off_the_loop(store.checkpoint)
    assert busy == 0 and in_log > 0 and copied == in_log  # nobody reading: everything copied
    assert os.path.getsize(store.path) > 0
    assert store.load_table(table_id(url))["version"] == 4


def table_row(table: str, version: int) -> dict:
    """A table's row as the store writes it at a move (only its version matters here)."""
    return {"id": table, "version": version, "match_no": 1, "turn_started": None, "deadline": None,
            "changed_at": time.time()}


def steady_writes(store, table: str, stop: threading.Event, done: list, errors: list) -> None:
    """A move's worth of writes about every millisecond, as a busy worker commits them."""
    version = 1000
    try:
        while not stop.is_set():
            version += 1
            store.commit_rows(table_row(table, version),
                              action={"kind": "test", "seat": 0, "at": time.time()})
            done.append(version)
            time.sleep(0.001)
    except Exception as error:  # the test reads it: a write must never fail for a checkpoint
        errors.append(error)


def checkpoint_through(store) -> tuple[int, int, int]:
    """A checkpoint that got the write lock (one may find it taken throughout its short wait: it
    tries again a second later in the app)."""
    for _ in range(20):
        result = store.checkpoint()
        if result[0] == 0:
            return result
    raise AssertionError(f"every checkpoint was busy: {result}")


def test_a_checkpoint_beside_steady_writes_starts_the_log_again(app, monkeypatch):
    monkeypatch.setattr(store_module, "RESTART_PAGES", 1)  # any log is long enough to start again
    url, _ = open_table(app)
    store = app.extensions["fichas"].tables.store
    stop, done, errors = threading.Event(), [], []
    writer = threading.Thread(target=steady_writes, args=(store, table_id(url), stop, done, errors))
    writer.start()
    try:
        time.sleep(0.5)
        first = checkpoint_through(store)
        time.sleep(0.1)
        second = checkpoint_through(store)
    finally:
        stop.set()
        writer.join()
    assert not errors and len(done) > 100
    # A log that started again after the first holds only what was written since: a tenth of a
    # second of writes against half a second. (A log never started again only grows, and in the
    # end a commit copies it inline, stopping the whole worker.)
    assert second[1] < first[1], (first, second)


def test_a_write_waits_for_the_write_lock_a_while_and_then_gives_up(app, monkeypatch):
    url, _ = open_table(app)
    store = app.extensions["fichas"].tables.store
    row = table_row(table_id(url), 99)
    other = sqlite3.connect(store.path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # as a checkpoint holds it, for a moment
    start = time.monotonic()  # before the timer starts: its 0.2 s is counted from a later moment
    threading.Timer(0.2, other.execute, ("COMMIT",)).start()
    store.commit_rows(row)
    # It waited for the lock (well past SQLite's default of failing at once), not a timer's exact tick.
    assert time.monotonic() - start >= 0.15
    assert store.load_table(row["id"])["version"] == 99

    monkeypatch.setattr(store_module, "WRITE_WAIT_SECONDS", 0.1)
    other.execute("BEGIN IMMEDIATE")  # held for good
    try:
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            store.commit_rows({**row, "version": 100})
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert store.load_table(row["id"])["version"] == 99  # nothing written


GEVENT_WAIT = """
from gevent import monkey
monkey.patch_all()
import sqlite3, subprocess, sys, threading, time
sys.path.insert(0, {root!r})
from live import store as store_module
from live.store import Store

store_module.HOLD_SECONDS = 0.05  # the worker's thread waits this long before it lets greenlets run

store = Store({path!r})
row = dict(id="t", variant="block", seats=2, target=100, created_at=0.0, version=1, match_no=1,
           turn_started=None, deadline=None, changed_at=0.0)
store.commit_rows(row, new=True)
# Another process holds the write lock for 1 s (longer than a checkpoint would: a backup, say).
holder = subprocess.Popen([sys.executable, "-c", "import sqlite3, time; db = sqlite3.connect({path!r},"
                           " isolation_level=None); db.execute('BEGIN IMMEDIATE'); print('held', flush=True);"
                           " time.sleep(1.0); db.execute('COMMIT')"], stdout=subprocess.PIPE, text=True)
assert holder.stdout.readline().strip() == "held"
ticks, written = [], threading.Event()
def other():  # another table's work: it must go on while the write waits
    while not written.is_set():
        ticks.append(1)
        time.sleep(0.01)
threading.Thread(target=other).start()
start = time.monotonic()
store.commit_rows(dict(row, version=2))
written.set()
holder.wait()
print(round(time.monotonic() - start, 2), len(ticks))
"""


@pytest.mark.slow  # waits out a lock in real time
def test_a_write_that_waits_for_the_lock_lets_other_work_run_under_gevent(tmp_path):
    """Under gevent every table shares one thread: a write waiting for a checkpoint must not hold it."""
    root = str(Path(__file__).resolve().parents[2])
    script = GEVENT_WAIT.format(root=root, path=str(tmp_path / "wait.sqlite3"))
    waited, ticks = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=30,
                                   check=True).stdout.split()
    assert float(waited) >= 0.9  # it did wait for the lock ...
    # ... and the other greenlet ran meanwhile (every 10 ms on a quiet machine; stopped, it ran once)
    assert int(ticks) >= 5, (waited, ticks)


def test_a_short_log_is_copied_without_the_write_lock(app):
    """Below RESTART_PAGES a checkpoint only copies (PASSIVE): it never makes a write wait for it."""
    open_table(app)
    store = app.extensions["fichas"].tables.store
    writer = sqlite3.connect(store.path, isolation_level=None, check_same_thread=False)
    writer.execute("BEGIN IMMEDIATE")  # the write lock, as the worker holds it during a commit
    try:
        busy, in_log, copied = store.checkpoint()  # a RESTART would wait for the lock, then say busy
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    assert (busy, copied) == (0, in_log) and 0 < in_log < store_module.RESTART_PAGES


@pytest.mark.slow  # waits out a lock in real time
def test_a_long_reader_of_the_file_does_not_hold_writes_back(app, monkeypatch):
    """A backup reads the file for as long as it takes: the checkpoint gives up on it, not the writes."""
    monkeypatch.setattr(store_module, "RESTART_PAGES", 1)  # a checkpoint that starts the log again
    url, _ = open_table(app)
    store = app.extensions["fichas"].tables.store
    row = table_row(table_id(url), 100)
    backup = sqlite3.connect(store.path, isolation_level=None, check_same_thread=False)
    backup.execute("BEGIN")
    backup.execute("SELECT count(*) FROM actions").fetchone()  # it reads from here on, as `.backup` does
    store.commit_rows(row)  # something in the log that the reader does not see
    done_reading = threading.Timer(1.5, backup.execute, ("COMMIT",))
    done_reading.start()
    results = []
    checkpoint = threading.Thread(target=lambda: results.append(store.checkpoint()))
    checkpoint.start()
    slowest = 0.0
    for version in range(101, 131):
        start = time.monotonic()
        store.commit_rows({**row, "version": version})
        slowest = max(slowest, time.monotonic() - start)
        time.sleep(0.01)
    checkpoint.join()
    done_reading.join()
    backup.close()
    assert slowest < 0.5, slowest  # not held until the reader is done (1.5 s)
    assert results[0][0] == 1  # busy: it tries again next time
