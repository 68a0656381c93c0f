"""A clean stop's mark moves the running clocks on by the time the server was down (no turn loses time to
a restart), and a stale mark, one a process wrote changes after, moves nothing (gunicorn's HUP)."""

from __future__ import annotations

from helpers.clock import START, TIMING, FakeClock, connect_all, full_table
from live.store import Store
from live.tables import Tables


def a_running_turn(tmp_path, clock):
    """A Partnership table on its first turn, every seat connected; its store, tables and table."""
    store = Store(str(tmp_path / "stop.sqlite3"))
    tables = Tables(store, TIMING, now=clock)
    table = full_table(tables)
    connect_all(tables, table)
    return store, tables, table


def deadline_of(store, table_id):
    return store.load_table(table_id)["deadline"]


def test_a_clean_stop_moves_the_clocks_on_by_the_time_down(tmp_path):
    clock = FakeClock()
    store, _, table = a_running_turn(tmp_path, clock)
    clock.advance(1)  # 44 s left
    store.mark_stopped(clock())
    clock.advance(120)  # down two minutes
    assert store.thaw(clock()) == 120
    assert deadline_of(store, table.id) == START + 45 + 120  # 44 s left, as at the stop
    assert store.thaw(clock()) == 0  # the mark went with it: a later crash keeps a crash's rule


def test_a_stale_mark_moves_nothing(tmp_path):
    """The new worker of a HUP started (and thawed) before the old one stopped and marked: changes were
    written after the mark, and the next start must not move every clock on by the whole time since."""
    clock = FakeClock()
    store, tables, table = a_running_turn(tmp_path, clock)
    store.mark_stopped(clock())
    clock.advance(45)
    assert tables.expire(table.id)  # the turn ran out: the table played, a change after the mark
    before = deadline_of(store, table.id)
    clock.advance(3600)
    assert store.thaw(clock()) == 0
    assert deadline_of(store, table.id) == before
