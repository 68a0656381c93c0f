"""`python -m live.purge`: old finished tables and old never-started ones leave the database; nothing else."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from contextlib import closing

import pytest

from helpers import Browser, LivePlayer, open_table
from helpers.pages import db_rows, table_id
from helpers.production import ROOT, Production
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

    later = make_app()  # a restart on the same file: the purged links say so, the others load
    visitor = Browser(later)
    for url in (finished, abandoned):
        page = visitor.get(url)
        assert page.status_code == 410 and "This table has been removed" in page.get_data(as_text=True)
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
    store.commit_rows(row, new=True, round_data={"number": 1, "events": []},
                 action={"kind": "join", "at": long_ago})
    store.commit_rows(row | {"version": 2, "changed_at": now - 3600},
                 events=(1, 0, [{"seat": 0, "action": "pass", "ends": [], "auto": False}]))
    assert store.purge(now - 30 * DAY, now - DAY, dry_run=True) == {"finished": 0, "never_started": 0}
    # The clock's change alone: not a change of state.
    store.commit_rows(row | {"version": 3, "changed_at": None})
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
    store.commit_rows(row, new=True, action={"kind": "join", "at": long_ago})
    # As the older one writes it:
    store.commit_rows(row | {"version": 2}, action={"kind": "join", "at": now - 60})
    assert store.purge(now - 30 * DAY, now - DAY, dry_run=True) == {"finished": 0, "never_started": 0}
    assert store.purge(now, now) == {"finished": 0, "never_started": 1}  # past it: purged
    store.close()


def test_a_missing_database_is_an_error_not_a_new_file(tmp_path, capsys):
    assert purge(["--db", str(tmp_path / "none.sqlite3")]) == 2
    assert not (tmp_path / "none.sqlite3").exists()


# -- the production server and `python -m live.purge` side by side ---------------------------------------


def purge_beside(server) -> str:
    """`python -m live.purge` as cron runs it, on the running server's file, with every cutoff at now."""
    done = subprocess.run([sys.executable, "-m", "live.purge", "--db", server.env["FICHAS_DB"],
                           "--finished-days", "0", "--never-started-days", "0"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def table_row(server, url: str) -> tuple | None:
    with closing(sqlite3.connect(server.env["FICHAS_DB"])) as db:
        return db.execute("SELECT version, deadline FROM tables WHERE id=?", (table_id(url),)).fetchone()


def socket_closed(player: LivePlayer, timeout: float = 5.0) -> tuple | None:
    """The close code and reason the server ended the player's websocket with (None: still open)."""
    deadline = time.monotonic() + timeout
    while player.socket.connected and time.monotonic() < deadline:
        time.sleep(0.05)
    return None if player.socket.connected else (player.socket.close_reason, player.socket.close_message)


@pytest.fixture
def production(tmp_path):
    # Turns of 50 ms: the table's clock plays a whole match in seconds.
    server = Production(tmp_path, FICHAS_TURN_SECONDS="0.05", FICHAS_OFFLINE_SECONDS="0.05",
                        FICHAS_PAUSE_SECONDS="0", FICHAS_GRACE_SECONDS="0").start()
    yield server
    server.stop()


@pytest.mark.slow  # the production command's clock plays a whole match out in real time
def test_a_purge_beside_the_server_keeps_every_table_a_page_holds_open(production):
    """A purge removed a waiting table whose host had its page open, and a finished table with both pages
    open: the pages went on answering, then a join and "New match" answered 500 (FOREIGN KEY constraint
    failed). The server stores which tables it holds, and the purge leaves those alone."""
    waiting = LivePlayer(production.url)
    waiting_url = waiting.create("Ana", "block", 2, target=50)
    waiting.connect()
    ana, bea = LivePlayer(production.url), LivePlayer(production.url)
    finished = ana.create("Ana", "block", 2, target=50)
    bea.join(finished, "Bea")
    ana.connect(), bea.connect()
    try:
        for _ in range(600):  # the clock plays the match out: over, nothing due
            row = table_row(production, finished)
            if row[1] is None:
                break
            time.sleep(0.05)
        assert row[1] is None, "the match did not end"

        assert "removed 0 finished table(s) and 0 that never started" in purge_beside(production)

        guest = LivePlayer(production.url)
        assert guest.join(waiting_url, "Cy").status_code == 204  # the match starts
        assert table_row(production, waiting_url)[1] is not None
        assert ana.post(f"{finished}/next-round", {"version": str(row[0])}).status_code == 204  # New match
        assert table_row(production, finished)[0] > row[0]
    finally:
        for player in (waiting, ana, bea):
            player.close()
    assert "Traceback" not in production.log(), production.log()


def test_a_table_purged_while_the_server_held_it_says_so_on_every_route(production):
    """Should a purge still remove a table a page holds (the server's last sight of it stored too long
    ago), every route of it says it was removed, in the page's language, and never answers 500."""
    host = LivePlayer(production.url)
    url = host.create("Ana", "block", 2, target=50)
    host.connect()
    try:
        with closing(sqlite3.connect(production.env["FICHAS_DB"])) as db, db:
            if "seen_at" in {column[1] for column in db.execute("PRAGMA table_info(tables)")}:
                db.execute("UPDATE tables SET seen_at = 0")  # as if the server had not said so in days
        assert "removed 0 finished table(s) and 1 that never started" in purge_beside(production)

        guest = LivePlayer(production.url)
        joined = guest.post(f"{url}/join", {"name": "Bea"})
        assert joined.status_code == 410 and "This table has been removed" in joined.text
        # The host's page is told at once, and reconnects no more (fichas.js shows the words).
        closed = socket_closed(host)
        assert closed == (1008, "This table has been removed. Open a new table."), closed
        for path in ("", "/record.json", "/seat"):
            answer = guest.http.get(production.url + url + path, timeout=10)
            assert answer.status_code == 410 and "This table has been removed" in answer.text, path
        for lang, words in (("es", "Esta mesa se ha eliminado"), ("da", "Dette bord er fjernet")):
            answer = guest.http.get(production.url + url, headers={"Accept-Language": lang}, timeout=10)
            assert answer.status_code == 410 and words in answer.text, lang
        assert guest.post(f"{url}/ask", {"name": "Bea"}).status_code == 410
        assert host.post(f"{url}/play", {"version": "1", "tile": "6-6"}).status_code == 410
        handshake = guest.http.get(production.url + url + "/ws", timeout=10, headers={
            "Origin": production.url, "Connection": "Upgrade", "Upgrade": "websocket",
            "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="})
        assert handshake.status_code == 410
    finally:
        host.close()
    assert "Traceback" not in production.log(), production.log()
