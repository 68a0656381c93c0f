"""SQLite persistence: tables, seats (hashed secrets), the rounds of the match, an action log.

Every accepted action is one transaction: the table row (version, clock, the time of the change),
what is new in the current round (its deal once, then each move's events as rows of their own,
with the move's time) and, for anything but a move, a line in the append-only log (a move's
events are its record: a line of its own doubled what a move writes). Schema changes go through
PRAGMA user_version; a file written by a newer Fichas (a higher version than SCHEMA knows) is
refused untouched.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from game.errors import GameError

if TYPE_CHECKING:  # the store reads a Change's rows only: it needs nothing else of live
    from .change import Change

SCHEMA = [
    # version 1
    """
    CREATE TABLE tables (
        id TEXT PRIMARY KEY,
        variant TEXT NOT NULL,
        seats INTEGER NOT NULL,
        target INTEGER NOT NULL,
        created_at REAL NOT NULL,
        version INTEGER NOT NULL,
        match_no INTEGER NOT NULL,
        turn_started REAL,
        deadline REAL
    );
    CREATE TABLE seats (
        table_id TEXT NOT NULL REFERENCES tables(id),
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        secret_hash TEXT NOT NULL,
        joined_at REAL NOT NULL,
        PRIMARY KEY (table_id, seat)
    );
    CREATE UNIQUE INDEX seats_by_secret ON seats(secret_hash);
    CREATE TABLE rounds (
        table_id TEXT NOT NULL REFERENCES tables(id),
        match_no INTEGER NOT NULL,
        number INTEGER NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (table_id, match_no, number)
    );
    CREATE TABLE actions (
        id INTEGER PRIMARY KEY,
        table_id TEXT NOT NULL,
        version INTEGER NOT NULL,
        seat INTEGER,
        kind TEXT NOT NULL,
        detail TEXT NOT NULL,
        at REAL NOT NULL
    );
    CREATE INDEX actions_by_table ON actions(table_id, version);
    """,
    # version 2: a move appends its event instead of rewriting the whole round (which grew with it)
    """
    CREATE TABLE round_events (
        table_id TEXT NOT NULL,
        match_no INTEGER NOT NULL,
        number INTEGER NOT NULL,
        seq INTEGER NOT NULL,  -- the event's index in its round's events
        data TEXT NOT NULL,
        PRIMARY KEY (table_id, match_no, number, seq)
    ) WITHOUT ROWID;
    """,
    # version 3: settings kept across restarts (the CSRF secret), and the browser holding each seat
    """
    CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    ALTER TABLE seats ADD COLUMN browser_hash TEXT;  -- NULL: seated before version 3
    CREATE UNIQUE INDEX seats_by_browser ON seats(table_id, browser_hash) WHERE browser_hash IS NOT NULL;
    """,
    # version 4: a finished match's record kept whole when the next starts, with the names of then
    # (a seat may change hands later); matches finished before version 4 are replayed from `rounds`
    """
    CREATE TABLE matches (
        table_id TEXT NOT NULL,
        match_no INTEGER NOT NULL,
        record TEXT NOT NULL,  -- domino-match/1
        PRIMARY KEY (table_id, match_no)
    ) WITHOUT ROWID;
    """,
    # version 5: moves are no longer lines of the action log (their events are their record, now with
    # their time); the table row keeps the time of its last change, which the purge reads
    """
    ALTER TABLE round_events ADD COLUMN at REAL;  -- when the move was made (NULL: before version 5)
    ALTER TABLE tables ADD COLUMN changed_at REAL;
    UPDATE tables SET changed_at = MAX(created_at,
        COALESCE((SELECT MAX(a.at) FROM actions a WHERE a.table_id = tables.id), 0));
    """,
    # version 6: the running server's last sight of each table it holds (a page open at it, or loaded),
    # which the purge leaves alone; and the ids the purge removed, whose links then say so
    """
    ALTER TABLE tables ADD COLUMN seen_at REAL;
    CREATE TABLE purged (
        id TEXT PRIMARY KEY,
        at REAL NOT NULL
    ) WITHOUT ROWID;
    """,
    # version 7: table talk (live/talk.py): the host's chat rule (NULL: the game's default) and each
    # table's last messages
    """
    ALTER TABLE tables ADD COLUMN chat TEXT;
    CREATE TABLE talk (
        table_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        at REAL NOT NULL,
        seat INTEGER,  -- NULL: a spectator
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        body TEXT NOT NULL,
        lang TEXT NOT NULL,
        spectators INTEGER NOT NULL,  -- 1: said by a spectator during a round, for spectators only
        PRIMARY KEY (table_id, seq)
    ) WITHOUT ROWID;
    """,
    # version 8: the home page lists the tables a browser holds a seat at, by the hash it already stored
    """
    CREATE INDEX seats_of_browser ON seats(browser_hash) WHERE browser_hash IS NOT NULL;
    """,
]


class TableGone(GameError):
    """The table's rows left the database while this server held it (`python -m live.purge` in the
    instant before the server's last sight of it was stored): nothing more can change it."""

    code = "removed"


class NewerDatabase(Exception):
    """The file was written by a newer Fichas: this one would misread it, so it is left alone."""

    def __init__(self, path: str, version: int):
        self.path, self.version = path, version
        super().__init__(f"The database {path} was written by a newer Fichas (schema version {version};"
                         f" this Fichas knows up to {len(SCHEMA)}). It was left unchanged: run the newer"
                         " Fichas, or point FICHAS_DB at another file.")


try:  # a sleep of the thread itself, even where gevent made time.sleep a yield
    from gevent.monkey import get_original

    thread_sleep = get_original("time", "sleep")
except ImportError:
    thread_sleep = time.sleep

# The log is started again (a RESTART, which holds the write lock: every write waits) only once it
# holds this many pages, about 32 MB, not at every checkpoint: each hold froze the worker, and the
# moves that came meanwhile made the p99 of the moves' latency (BENCHMARKS.md). A quiet log starts
# again by itself.
RESTART_PAGES = 8_000
# Seats changing hands read to tell a browser how it lost its seat: a person's table has a few; a loop of
# reclaims (limited per address, web/guard/limits.py) must not make every visit read thousands.
LOST_SEATS_READ = 64
AUTOCHECKPOINT_PAGES = 20_000  # the backstop, should no checkpoint() run: about 80 MB of log
WRITE_WAIT_SECONDS = 5.0  # a write waits this long at most for the write lock (SQLite's default)
HOLD_SECONDS = 0.5  # ... the first of it in the worker's own thread: far longer than a checkpoint holds it
# The running server stores its sight of the tables it holds this often (live/registry.py mark_seen), and
# the purge keeps any table seen within SEEN_FRESH_SECONDS: a few of the server's beats, so that a late
# one (a busy worker) never lets a table with a page open go.
SEEN_EVERY_SECONDS = 60.0
SEEN_FRESH_SECONDS = 5 * SEEN_EVERY_SECONDS
STOPPED_AT = "stopped_at"  # the settings' key of a clean stop's time (mark_stopped, thaw)
BUSY_PAUSE = 0.0005  # between two tries
# What a checkpoint waits for, at most: the write lock, then (holding it) the readers of the log.
# A long reader (a backup) would otherwise hold every write back until it is done.
CHECKPOINT_WAIT_SECONDS = 0.02


class Store:
    """One SQLite file in WAL mode; a lock serialises writers across threads and greenlets."""

    def __init__(self, path: str):
        self.path = path
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        # Before anything that could write (the WAL pragma rewrites the header): a newer file is refused.
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > len(SCHEMA):
            self._db.close()
            raise NewerDatabase(path, version)
        self._db.row_factory = sqlite3.Row
        self._lock = threading.Lock()
        self._db.execute("PRAGMA journal_mode=WAL")
        # WAL with NORMAL survives a crash of the process (not of the machine) and is fast.
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        # Checkpoints (which fsync) run off the worker's path: see checkpoint().
        self._db.execute(f"PRAGMA wal_autocheckpoint={AUTOCHECKPOINT_PAGES}")
        self._checkpointer: sqlite3.Connection | None = None
        self._migrate()
        # From here a write that finds the write lock taken (by a checkpoint) waits in `_begin`,
        # not in SQLite's busy handler: that sleeps in steps of up to 100 ms, and for as long as
        # its timeout, which under gevent stops every greenlet.
        self._db.execute("PRAGMA busy_timeout=0")

    def _migrate(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        for number, script in enumerate(SCHEMA[version:], start=version + 1):
            with self._lock:
                self._db.executescript(f"BEGIN;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;")

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """A transaction committed at the end of the block, rolled back on error."""
        with self._lock:
            self._begin()
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _begin(self) -> None:
        """BEGIN IMMEDIATE, trying again while a checkpoint (or another process) holds the write lock.

        For HOLD_SECONDS the worker's thread waits: a checkpoint's hold is over before the loop
        would come back to this greenlet, and once one write yields every other write queues behind
        it (writes then waited many times longer). Past that, a hold that long is not a checkpoint's
        (another process, say): the other greenlets run between tries, up to WRITE_WAIT_SECONDS.
        """
        start = time.monotonic()
        while True:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as error:
                if error.sqlite_errorcode != sqlite3.SQLITE_BUSY:
                    raise
                waited = time.monotonic() - start
                if waited > WRITE_WAIT_SECONDS:
                    raise
            (thread_sleep if waited < HOLD_SECONDS else time.sleep)(BUSY_PAUSE)

    def close(self) -> None:
        """Close the connections."""
        with self._lock:
            self._db.close()
            if self._checkpointer is not None:
                self._checkpointer.close()

    def checkpoint(self) -> tuple[int, int, int]:
        """Copy the write-ahead log into the database file; once it is long, start it again.

        On a connection of its own, from a thread outside the worker's event loop
        (live.periodic.off_the_loop). A PASSIVE pass copies what the log holds beside the writes.
        Once the log holds RESTART_PAGES, a RESTART copies what they added meanwhile, holding
        SQLite's write lock for that short while (its fsyncs included; writes wait in `_begin`)
        so that the next write starts the log from its beginning. Without that hold the log never
        starts again under steady writes: it grows to the autocheckpoint limit, where a commit
        checkpoints inline and the whole worker stops with it. A reader still on the log (a
        backup) makes it give up after CHECKPOINT_WAIT_SECONDS (busy 1), to try again next time.
        Returns SQLite's (busy, pages in the log, pages copied) of the last pass.
        """
        if self._checkpointer is None:
            self._checkpointer = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None,
                                                 timeout=CHECKPOINT_WAIT_SECONDS)
        passive = tuple(self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone())
        if passive[1] < RESTART_PAGES:
            return passive
        return tuple(self._checkpointer.execute("PRAGMA wal_checkpoint(RESTART)").fetchone())

    # -- writes ----------------------------------------------------------------

    def commit(self, change: Change) -> None:
        """Write one accepted change (live/change.py) in one transaction: what Change.rows says."""
        self.commit_rows(**change.rows())

    def commit_rows(self, table_row: dict, *, seat_row: dict | None = None, round_data: dict | None = None,
                    events: tuple[int, int, list[dict]] | None = None, action: dict | None = None,
                    new: bool = False, finished: tuple[int, dict] | None = None,
                    reseat: dict | None = None) -> None:
        """Write one change given as rows: the table row, maybe a seat, a new round, new events, a log line.

        `table_row["changed_at"]` is the change's time (None: not a change, only the clock's).
        `new` inserts the table's row (its first change: the host's seat comes in the same
        transaction). `round_data` is a round's record (written whole when the round is dealt);
        `events` is (round number, index of the first, the events) appended to a round stored, at
        the change's time. `action` is the log's line (a move has none: its events are its record).
        `finished` is (match number, record) of a match that ended; `reseat` gives a taken seat
        a new secret (and maybe a new name and browser).
        """
        table_id, match_no = table_row["id"], table_row["match_no"]
        with self.write() as db:
            if new:
                # Seen as it is made: the host's page is opening (the purge leaves it alone from now).
                db.execute("INSERT INTO tables (id, variant, seats, target, created_at, version, match_no,"
                           " turn_started, deadline, changed_at, seen_at, chat) VALUES (:id, :variant,"
                           " :seats, :target, :created_at, :version, :match_no, :turn_started, :deadline,"
                           " :changed_at, :created_at, :chat)", {"chat": None, **table_row})
            elif not db.execute("UPDATE tables SET version=:version, match_no=:match_no,"
                                " turn_started=:turn_started, deadline=:deadline,"
                                " changed_at=COALESCE(:changed_at, changed_at) WHERE id=:id",
                                table_row).rowcount:  # purged: its other rows would be orphans
                raise TableGone(f"Table {table_id} is no longer in the database.")
            if seat_row is not None:
                db.execute("INSERT INTO seats (table_id, seat, name, secret_hash, joined_at, browser_hash)"
                           " VALUES (:table_id, :seat, :name, :secret_hash, :joined_at, :browser_hash)",
                           {"browser_hash": None, **seat_row})
            if reseat is not None:
                db.execute("UPDATE seats SET name=:name, secret_hash=:secret_hash, browser_hash=:browser_hash"
                           " WHERE table_id=:table_id AND seat=:seat", reseat)
            if finished is not None:
                db.execute("INSERT INTO matches (table_id, match_no, record) VALUES (?, ?, ?)",
                           (table_id, finished[0], _json(finished[1])))
            if round_data is not None:
                db.execute("INSERT OR REPLACE INTO rounds (table_id, match_no, number, data)"
                           " VALUES (?, ?, ?, ?)", (table_id, match_no, round_data["number"],
                                                    _json(round_data)))
            if events is not None:
                number, first, new = events
                rows = [(table_id, match_no, number, seq, _json(e), table_row["changed_at"])
                        for seq, e in enumerate(new, first)]
                db.executemany("INSERT INTO round_events (table_id, match_no, number, seq, data, at)"
                               " VALUES (?, ?, ?, ?, ?, ?)", rows)
            if action is not None:
                db.execute("INSERT INTO actions (table_id, version, seat, kind, detail, at)"
                           " VALUES (?, ?, ?, ?, ?, ?)",
                           (table_id, table_row["version"], action.get("seat"), action["kind"],
                            _json(action), action["at"]))

    def purge(self, finished_before: float, unstarted_before: float, dry_run: bool = False,
              now: float | None = None) -> dict:
        """Delete tables nothing runs at and nobody touched for a while; how many of each kind.

        Finished: a match was played and nothing is due (its last match is over), with no change
        since `finished_before`. Never started: no round was ever dealt, nothing since
        `unstarted_before`. Times are seconds since the epoch. One transaction, which the server's
        writes wait for (and it for them): what it decides is what the server had stored.

        A table the running server holds (a page open at it, or loaded in memory) is never removed,
        however old: the server stores its sight of them every SEEN_EVERY_SECONDS (seen), and one
        seen within SEEN_FRESH_SECONDS of `now` is kept. The removed ids are kept (`purged`), so that
        their links say the table was removed rather than that there never was one.

        The log's latest line counts too: a server still running a Fichas older than schema 5 on
        a file this purge upgraded logs every change (moves included) and never sets `changed_at`.
        """
        now = time.time() if now is None else now
        idle = """
            SELECT t.id, EXISTS (SELECT 1 FROM rounds r WHERE r.table_id = t.id) AS started
            FROM tables t
            WHERE t.deadline IS NULL
              AND COALESCE(t.seen_at, 0) < :fresh
              AND MAX(COALESCE(t.changed_at, t.created_at),
                      COALESCE((SELECT MAX(a.at) FROM actions a WHERE a.table_id = t.id), 0))
                  < CASE WHEN EXISTS (SELECT 1 FROM rounds r WHERE r.table_id = t.id)
                         THEN :finished ELSE :unstarted END
        """
        cutoffs = {"fresh": now - SEEN_FRESH_SECONDS, "finished": finished_before,
                   "unstarted": unstarted_before}
        with self.write() as db:
            rows = db.execute(idle, cutoffs).fetchall()
            ids = [(row["id"],) for row in rows]
            if ids and not dry_run:
                for name in ("round_events", "rounds", "matches", "actions", "talk", "seats", "tables"):
                    key = "id" if name == "tables" else "table_id"
                    db.executemany(f"DELETE FROM {name} WHERE {key} = ?", ids)
                db.executemany("INSERT OR REPLACE INTO purged (id, at) VALUES (?, ?)",
                               [(table_id, now) for (table_id,) in ids])
        started = sum(row["started"] for row in rows)
        return {"finished": started, "never_started": len(rows) - started}

    def say(self, row: dict, kept: int, chat: str | None = None) -> None:
        """Keep a message of a table's talk (live/said.py Said.row), and only its table's last `kept`; with
        `chat`, the host's new chat rule that the message says."""
        with self.write() as db:
            found = db.execute("UPDATE tables SET chat=COALESCE(?, chat) WHERE id=?", (chat, row["table_id"]))
            if not found.rowcount:
                raise TableGone(f"Table {row['table_id']} is no longer in the database.")
            db.execute("INSERT INTO talk (table_id, seq, at, seat, name, kind, body, lang, spectators) VALUES"
                       " (:table_id, :seq, :at, :seat, :name, :kind, :body, :lang, :spectators)", row)
            db.execute("DELETE FROM talk WHERE table_id=? AND seq<=?", (row["table_id"], row["seq"] - kept))

    def mark_stopped(self, at: float) -> None:
        """A clean stop at `at` (seconds since the epoch): the next start moves the running clocks on by the
        time the server was down (thaw). A second signal of the same stop keeps the first time."""
        with self.write() as db:
            db.execute("INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)", (STOPPED_AT, repr(at)))

    def thaw(self, now: float) -> float:
        """After a clean stop, every running deadline (a turn's, a pause's) moves on by the time the server
        was down, so that no turn loses time to a restart; the seconds moved (0 after a crash: no mark).

        One transaction, the mark gone with it: a later crash keeps the rule of a crash.
        """
        with self.write() as db:
            row = db.execute("SELECT value FROM settings WHERE key=?", (STOPPED_AT,)).fetchone()
            if row is None:
                return 0.0
            db.execute("DELETE FROM settings WHERE key=?", (STOPPED_AT,))
            stopped = float(row["value"])
            # A change made after the mark: a process ran on past that stop (gunicorn's HUP starts the new
            # worker before the old one stops), the mark is stale, and moving the clocks on by all that
            # time would freeze every turn; the grace after a restart is then what the players get.
            later = db.execute("SELECT 1 FROM tables WHERE changed_at > ? LIMIT 1", (stopped,)).fetchone()
            if later is not None:
                return 0.0
            down = max(0.0, now - stopped)
            db.execute("UPDATE tables SET turn_started = turn_started + :down, deadline = deadline + :down"
                       " WHERE deadline IS NOT NULL", {"down": down})
        return down

    def seen(self, table_ids: list[str], now: float) -> list[str]:
        """The running server holds these tables (pages open at them, or loaded): the purge leaves them
        alone for a while. Returns those of them no longer in the database (purged meanwhile)."""
        if not table_ids:
            return []
        ids = _json(table_ids)
        with self.write() as db:
            db.execute("UPDATE tables SET seen_at = ? WHERE id IN (SELECT value FROM json_each(?))",
                       (now, ids))
            gone = db.execute("SELECT value FROM json_each(?) WHERE value NOT IN (SELECT id FROM tables)",
                              (ids,)).fetchall()
        return [row[0] for row in gone]

    def was_purged(self, table_id: str) -> bool:
        """Whether `python -m live.purge` removed a table of this id."""
        with self._lock:
            return self._db.execute("SELECT 1 FROM purged WHERE id=?", (table_id,)).fetchone() is not None

    def setting(self, key: str, make: Callable[[], str]) -> str:
        """The stored value of `key`; the first call anywhere stores `make()` (get-or-create)."""
        with self.write() as db:
            row = db.execute("SELECT value FROM settings WHERE key=?", (key,)).fetchone()
            if row is not None:
                return row["value"]
            value = make()
            db.execute("INSERT INTO settings (key, value) VALUES (?, ?)", (key, value))
        return value

    # -- reads -----------------------------------------------------------------

    def seat_of_browser(self, table_id: str, browser_hash: str) -> int | None:
        """The seat the browser with this hash holds at the table, or None."""
        with self._lock:
            row = self._db.execute("SELECT seat FROM seats WHERE table_id=? AND browser_hash=?",
                                   (table_id, browser_hash)).fetchone()
        return None if row is None else row["seat"]

    def seats_of_browser(self, browser_hash: str, limit: int) -> list[tuple[str, int]]:
        """(table id, seat) of every seat the browser with this hash holds, its newest table first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT s.table_id, s.seat FROM seats s JOIN tables t ON t.id = s.table_id"
                " WHERE s.browser_hash = ? ORDER BY t.created_at DESC, t.id LIMIT ?",
                (browser_hash, limit)).fetchall()
        return [(row["table_id"], row["seat"]) for row in rows]

    def load_table(self, table_id: str) -> dict | None:
        """The table row with its seats and the current match's rounds, or None."""
        with self._lock:
            row = self._db.execute("SELECT * FROM tables WHERE id=?", (table_id,)).fetchone()
            if row is None:
                return None
            seats = self._db.execute("SELECT seat, name, secret_hash FROM seats WHERE table_id=?"
                                     " ORDER BY seat", (table_id,)).fetchall()
        table = dict(row)
        table["seat_rows"] = [dict(s) for s in seats]
        table["rounds"] = self.rounds(table_id, row["match_no"])
        return table

    def talk(self, table_id: str) -> list[dict]:
        """A table's kept messages, oldest first."""
        with self._lock:
            rows = self._db.execute("SELECT * FROM talk WHERE table_id=? ORDER BY seq",
                                    (table_id,)).fetchall()
        return [dict(row) for row in rows]

    def rounds(self, table_id: str, match_no: int) -> list[dict]:
        """The stored rounds of one match of a table, each with its events, in order."""
        with self._lock:
            rounds = self._db.execute("SELECT number, data FROM rounds WHERE table_id=? AND match_no=?"
                                      " ORDER BY number", (table_id, match_no)).fetchall()
            events = self._db.execute("SELECT number, seq, data FROM round_events WHERE table_id=?"
                                      " AND match_no=? ORDER BY number, seq", (table_id, match_no)).fetchall()
        loaded = [json.loads(r["data"]) for r in rounds]
        by_number = {r["number"]: data for r, data in zip(rounds, loaded, strict=True)}
        for event in events:
            known = by_number[event["number"]]["events"]
            if event["seq"] != len(known):  # a gap: the replay must not guess
                raise ValueError(f"Table {table_id}: round {event['number']} misses event {len(known)}.")
            known.append(json.loads(event["data"]))
        return loaded

    def finished_match(self, table_id: str, match_no: int) -> dict | None:
        """The record kept when match `match_no` ended, or None (not kept: before schema 4)."""
        with self._lock:
            row = self._db.execute("SELECT record FROM matches WHERE table_id=? AND match_no=?",
                                   (table_id, match_no)).fetchone()
        return None if row is None else json.loads(row["record"])

    def finished_results(self, table_id: str) -> dict[int, tuple[list, int | None, list]]:
        """Each kept earlier match's scores, winner and players (its last round's, else the match's), by
        number: picked out of the records by SQLite, not parsed whole in Python."""
        with self._lock:
            rows = self._db.execute(
                "SELECT match_no, json_extract(record, '$.scores') AS scores,"
                " json_extract(record, '$.winner') AS winner,"
                " coalesce(CASE WHEN json_array_length(record, '$.rounds') > 0 THEN json_extract(record,"
                "   '$.rounds[' || (json_array_length(record, '$.rounds') - 1) || '].players') END,"
                "   json_extract(record, '$.players')) AS players"
                " FROM matches WHERE table_id=?", (table_id,)).fetchall()
        return {r["match_no"]: (json.loads(r["scores"]), r["winner"], json.loads(r["players"])) for r in rows}

    def tables_with_deadlines(self) -> list[str]:
        """Ids of tables whose clock is running (a turn or a pause)."""
        with self._lock:
            rows = self._db.execute("SELECT id FROM tables WHERE deadline IS NOT NULL").fetchall()
        return [r["id"] for r in rows]

    def lost_seat(self, table_id: str, holder: str) -> dict | None:
        """How the browser holding the seat secret whose hash is `holder` lost its seat at the table (the
        latest hand-over or reclaim that took it, of the table's latest LOST_SEATS_READ), or None."""
        with self._lock:
            rows = self._db.execute("SELECT detail FROM actions WHERE table_id=?"
                                    " AND kind IN ('hand_over', 'reclaim') ORDER BY id DESC LIMIT ?",
                                    (table_id, LOST_SEATS_READ)).fetchall()
        # At most LOST_SEATS_READ rows, read in Python (the store needs SQLite's JSON functions anyway: seen).
        return next((detail for detail in map(json.loads, (r["detail"] for r in rows))
                     if detail.get("was_holder") == holder), None)

    def actions(self, table_id: str) -> list[dict]:
        """The action log of a table, oldest first."""
        with self._lock:
            rows = self._db.execute("SELECT detail FROM actions WHERE table_id=? ORDER BY id",
                                    (table_id,)).fetchall()
        return [json.loads(r["detail"]) for r in rows]


_ENCODER = json.JSONEncoder(separators=(",", ":"))  # json.dumps with options makes an encoder at each call


def _json(data: dict) -> str:
    return _ENCODER.encode(data)
