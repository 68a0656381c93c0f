"""`python -m live.purge`: old finished tables and old never-started ones leave the database; nothing else."""

from __future__ import annotations

import time

from helpers import Browser, open_table
from helpers.pages import db_rows, table_id
from live.purge import main as purge
from live.store import Store

DAY = 86_400


class FakeClock:
    """The tables' time, set by the test (time.time's scale, so the purge's cutoffs apply)."""

    def __init__(self, now: float):
        self.now = now

    def __call__(self) -> float:
        return self.now


def waiting_table(app) -> str:
    host = Browser(app)
    return host.client.post("/tables", data={"name": "Ana", "variant": "block", "seats": 2, "target": 50,
                                             "csrf_token": host.csrf}).headers["Location"]


def test_old_finished_and_never_started_tables_are_purged_and_nothing_else(make_app, tmp_path, capsys):
    clock = FakeClock(time.time() - 40 * DAY)
    app = make_app(TURN_SECONDS=0, OFFLINE_SECONDS=0, PAUSE_SECONDS=0, TABLES_OPTIONS={"now": clock})
    tables = app.extensions["fichas"].tables
    finished, _ = open_table(app, "block", 2, target=50, names=("Ana", "Bea"))
    for _ in range(3000):  # the clock's moves play the whole match
        if tables.get(table_id(finished)).phase == "over":
            break
        tables.expire(table_id(finished))
    assert tables.get(table_id(finished)).phase == "over"
    abandoned = waiting_table(app)
    clock.now += 1  # the playing table's clock is set at this time, far in the past: it still runs
    running, _ = open_table(app, "block", 2, target=50, names=("Cy", "Di"))
    clock.now = time.time() - 3600  # an hour ago: too recent to purge
    recent = waiting_table(app)
    database = app.config["DATABASE"]

    def kept() -> dict[str, int]:
        return {name: db_rows(app, "SELECT COUNT(*) FROM tables WHERE id = ?", table_id(url))[0][0]
                for name, url in (("finished", finished), ("abandoned", abandoned), ("running", running),
                                  ("recent", recent))}

    assert purge(["--db", database, "--dry-run"]) == 0
    assert "would remove 1 finished table(s) and 1 that never started" in capsys.readouterr().out
    assert set(kept().values()) == {1}  # a dry run removes nothing

    assert purge(["--db", database, "--finished-days", "30", "--never-started-days", "1"]) == 0
    assert "removed 1 finished table(s) and 1 that never started" in capsys.readouterr().out
    assert kept() == {"finished": 0, "abandoned": 0, "running": 1, "recent": 1}
    for name in ("seats", "rounds", "round_events", "actions"):  # nothing of theirs is left behind
        left = db_rows(app, f"SELECT COUNT(*) FROM {name} WHERE table_id IN (?, ?)",
                       table_id(finished), table_id(abandoned))[0][0]
        assert left == 0, name

    later = make_app()  # a restart on the same file: the purged links are gone, the others load
    visitor = Browser(later)
    assert visitor.get(finished).status_code == 404 and visitor.get(abandoned).status_code == 404
    assert visitor.get(running).status_code == 200 and visitor.get(recent).status_code == 200


def old_table_row(created_at: float, changed_at: float | None) -> dict:
    """A table's row as the store writes it, for a table made at `created_at` and not running."""
    return {"id": "t1", "variant": "block", "seats": 2, "target": 50, "created_at": created_at, "version": 1,
            "match_no": 1, "turn_started": None, "deadline": None, "changed_at": changed_at}


def test_a_finished_table_whose_last_move_is_recent_is_kept(tmp_path):
    """A move is not a line of the action log: the table's own time of its last change counts."""
    store = Store(str(tmp_path / "purge.sqlite3"))
    now = time.time()
    long_ago = now - 40 * DAY
    row = old_table_row(long_ago, long_ago)
    store.commit(row, new=True, round_data={"number": 1, "events": []},
                 action={"kind": "join", "at": long_ago})
    store.commit(row | {"version": 2, "changed_at": now - 3600},
                 events=(1, 0, [{"seat": 0, "action": "pass", "ends": [], "auto": False}]))
    assert store.purge(now - 30 * DAY, now - DAY, dry_run=True) == {"finished": 0, "never_started": 0}
    store.commit(row | {"version": 3, "changed_at": None})  # the clock's change alone: not a change of state
    assert store.purge(now - 30 * DAY, now - DAY, dry_run=True) == {"finished": 0, "never_started": 0}
    assert store.purge(now, now) == {"finished": 1, "never_started": 0}  # past the move: purged
    store.close()


def test_a_change_only_an_older_fichas_logged_still_counts(tmp_path):
    """During an upgrade the purge (schema 5) may run beside a server still on an older Fichas: that
    one logs every change, moves included, and never sets the table's time of its last change."""
    store = Store(str(tmp_path / "purge.sqlite3"))
    now = time.time()
    long_ago = now - 40 * DAY
    row = old_table_row(long_ago, None)
    store.commit(row, new=True, action={"kind": "join", "at": long_ago})
    store.commit(row | {"version": 2}, action={"kind": "join", "at": now - 60})  # as the older one writes it
    assert store.purge(now - 30 * DAY, now - DAY, dry_run=True) == {"finished": 0, "never_started": 0}
    assert store.purge(now, now) == {"finished": 0, "never_started": 1}  # past it: purged
    store.close()


def test_a_missing_database_is_an_error_not_a_new_file(tmp_path, capsys):
    assert purge(["--db", str(tmp_path / "none.sqlite3")]) == 2
    assert not (tmp_path / "none.sqlite3").exists()
