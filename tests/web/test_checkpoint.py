"""SQLite's write-ahead log is copied into the database file by a job off the worker's path."""

from __future__ import annotations

import os

from helpers import open_table
from live.periodic import off_the_loop


def test_checkpoint_copies_the_log_and_leaves_the_tables_readable(app):
    url, _ = open_table(app)
    store = app.extensions["fichas"].tables.store
    busy, in_log, copied = off_the_loop(store.checkpoint)
    assert busy == 0 and in_log > 0 and copied == in_log  # nobody reading: everything copied
    assert os.path.getsize(store.path) > 0
    assert store.load_table(url.rsplit("/", 1)[1])["version"] == 4
