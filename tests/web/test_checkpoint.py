"""SQLite's write-ahead log is copied into the database file by a job off the worker's path."""

from __future__ import annotations

import os
import sqlite3

from helpers import open_table
from live.periodic import off_the_loop


def test_checkpoint_copies_the_log_and_leaves_the_tables_readable(app):
    url, _ = open_table(app)
    store = app.extensions["fichas"].tables.store
    busy, in_log, copied = off_the_loop(store.checkpoint)
    assert busy == 0 and in_log > 0 and copied == in_log  # nobody reading: everything copied
    assert os.path.getsize(store.path) > 0
    assert store.load_table(url.rsplit("/", 1)[1])["version"] == 4



def test_a_checkpoint_beside_a_writer_still_lets_the_log_start_again(app):
    """Moves written while a checkpoint copies must not keep the log from starting again: else it
    only grows, until a commit checkpoints inline (fsyncs and all) on the worker's path."""
    open_table(app)
    store = app.extensions["fichas"].tables.store
    written = iter(range(100))

    def write() -> None:
        with store.write() as db:
            db.execute("INSERT INTO settings (key, value) VALUES (?, 'x')", (f"test-{next(written)}",))

    def pages_in_log_after_a_write(checkpoint) -> int:
        """A write lands while `checkpoint` copies (a reader holds the log back, as a pass in
        progress does); then one more write: how many pages the log holds."""
        reader = sqlite3.connect(store.path, isolation_level=None)
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM tables").fetchone()  # its snapshot: before the write
        passes = []

        def run(job):
            passes.append(job())
            if len(passes) == 1:
                reader.execute("COMMIT")  # the first pass is done: the log behind it is all there is
            return passes[-1]

        write()
        checkpoint(run)
        reader.close()
        write()
        return store.checkpoint()[1]

    one_write = pages_in_log_after_a_write(store.checkpoint_wholly)
    grown = pages_in_log_after_a_write(lambda run: run(store.checkpoint))  # one pass: the log grows on
    assert 0 < one_write < grown
    assert pages_in_log_after_a_write(store.checkpoint_wholly) == one_write  # started again each time
