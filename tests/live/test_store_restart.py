"""SQLite keeps everything: a restarted app finds every table as it was; commits come before pushes."""

import json
import random
import sqlite3
from contextlib import closing

import pytest

from helpers import open_table, version_of
from helpers.pages import (
    db_rows,
    hand_of,
    line_of,
    live_table,
    page,
    play_until,
    playing,
    reopen,
    round_over,
    section,
    stable,
    you_of,
)
from live.store import SCHEMA

NAMES = ("Ana", "Bea", "Carl", "Dan")


def what_each_sees(players, spectator, url) -> dict:
    """Every viewer's #table and #me (countdowns aside), and the record."""
    seen = {}
    for seat, viewer in enumerate((*players, spectator)):
        html = page(viewer, url)
        seen[seat] = {"you": you_of(html), "version": version_of(html), "hand": hand_of(html),
                      "line": line_of(html), "partials": stable(section(html, "table") + section(html, "me"))}
    seen["record"] = spectator.get(f"{url}/record.json").get_data(as_text=True)
    return seen


def test_restart_finds_the_same_state_and_play_continues(make_app):
    app = make_app(TABLES_OPTIONS={"rng": random.Random(8)})
    url, players = open_table(app, target=500, names=NAMES)
    rng = random.Random(8)
    play_until(app, url, players, rng, round_over)  # round 1 ends: a score and a record
    table = play_until(app, url, players, rng, lambda t: playing(t) and len(t.match.round.line) >= 5)
    spectator = open_table(app, "block", 2, names=("Eve", "Fay"))[1][0]  # a browser seated elsewhere
    before = what_each_sees(players, spectator, url)
    assert json.loads(before["record"])["rounds"] and sum(json.loads(before["record"])["scores"]) > 0
    assert before[0]["hand"] and len(before[0]["line"]) >= 5
    version = table.version

    app.extensions["fichas"].close()
    # The same database file, a new process as far as the app can tell; seen within the restart's
    # grace, when no seat counts as away yet (after it, the host not back is said to a spectator).
    again = make_app(GRACE_SECONDS=60)
    players = [reopen(p, again, url) for p in players]
    spectator = reopen(spectator, again, url)
    after = what_each_sees(players, spectator, url)
    assert after == before

    table = live_table(again, url)
    assert table.version == version
    play_until(again, url, players, rng, lambda t: t.version >= version + 3)
    html = page(players[0], url)
    assert version_of(html) == version + 3
    assert len(line_of(html)) >= len(before[0]["line"]) + 1 or not playing(table)


def test_restart_keeps_a_table_still_waiting_for_players(make_app):
    app = make_app()
    host_url, players = open_table(app, "draw", 3, names=NAMES[:3])
    host = players[0]
    guest_url = host.client.post("/tables", data={"name": "Zoe", "variant": "block", "seats": 3,
                                                  "target": 250, "csrf_token": host.csrf}).headers["Location"]
    app.extensions["fichas"].close()
    again = make_app()
    zoe = reopen(host, again, guest_url)
    html = page(zoe, guest_url)
    assert you_of(html) == "0" and 'data-phase="waiting"' in html and "Block · to 250" in html
    newcomer = reopen(players[1], again, guest_url)
    assert newcomer.post(f"{guest_url}/join", {"name": "Yan"}).status_code == 204
    assert you_of(page(newcomer, guest_url)) == "1"
    assert version_of(page(reopen(players[2], again, host_url), host_url)) == 3


def test_database_is_versioned_and_in_wal_mode(app):
    open_table(app, "block", 2, names=("Ana", "Bea"))
    with closing(sqlite3.connect(app.config["DATABASE"])) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] >= 1
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    kinds = [row[0] for row in db_rows(app, "SELECT kind FROM actions ORDER BY id")]
    assert kinds == ["join", "join"]


class DiskReader:
    """A fake browser connection that, on every push, reads the version on disk."""

    def __init__(self, path: str, table_id: str):
        self.seat, self.alive, self.me_key, self.seq, self.unseen = None, True, None, None, None
        self.path, self.table_id, self.seen = path, table_id, []

    def send(self, data: str) -> bool:
        with closing(sqlite3.connect(self.path)) as db:
            stored = db.execute("SELECT version FROM tables WHERE id=?", (self.table_id,)).fetchone()[0]
        self.seen.append((version_of(data), stored))
        return True

    def close(self) -> None:
        self.alive = False


def test_every_change_is_on_disk_before_anyone_is_told(app):
    url, players = open_table(app, "draw", 2, names=("Ana", "Bea"))
    reader = DiskReader(app.config["DATABASE"], url.split("/")[-1])
    app.extensions["fichas"].hub.add(reader.table_id, reader)
    play_until(app, url, players, random.Random(4), lambda t: t.version >= 12)
    app.extensions["fichas"].hub.remove(reader.table_id, reader)
    assert len(reader.seen) >= 10
    assert all(stored >= shown for shown, stored in reader.seen), reader.seen


def test_restart_between_rounds_keeps_the_reveal_and_the_host_button(make_app):
    app = make_app(TABLES_OPTIONS={"rng": random.Random(12)})
    url, players = open_table(app, "block", 3, target=500, names=NAMES[:3])
    table = play_until(app, url, players, random.Random(12), round_over)
    assert table.phase == "pause"
    for player in players:  # each page once: a first one offers the private link (once)
        page(player, url)
    before = [stable(page(p, url).split('<main', 1)[1]) for p in players]
    app.extensions["fichas"].close()
    again = make_app(GRACE_SECONDS=15)  # within the grace nobody counts as away, the host included
    players = [reopen(p, again, url) for p in players]
    assert [stable(page(p, url).split('<main', 1)[1]) for p in players] == before
    assert "Start the next round now" in page(players[0], url)
    assert players[0].post(f"{url}/next-round", {"version": table.version}).status_code == 204
    assert "Round 2" in page(players[1], url)


def test_a_database_of_schema_1_is_upgraded_and_its_rounds_continue(make_app):
    """Before schema 2 every move rewrote its round whole; such a file still loads and plays on."""
    app = make_app(TABLES_OPTIONS={"rng": random.Random(5)}, SECRET_KEY="kept")  # schema 1 kept none
    url, players = open_table(app, "draw", 3, names=NAMES[:3])
    table = play_until(app, url, players, random.Random(5), lambda t: t.version >= 10)
    version, events = table.version, list(table.match.round.events)
    record = json.dumps(table.match.round.to_dict())
    app.extensions["fichas"].close()
    with closing(sqlite3.connect(app.config["DATABASE"])) as db, db:  # as schema 1 left it
        db.execute("UPDATE rounds SET data=? WHERE number=?", (record, table.match.round.number))
        db.execute("DROP TABLE round_events")
        db.execute("DROP TABLE settings")
        db.execute("DROP TABLE matches")
        db.execute("DROP INDEX seats_by_browser")
        db.execute("DROP INDEX seats_of_browser")
        db.execute("ALTER TABLE seats DROP COLUMN browser_hash")
        db.execute("ALTER TABLE tables DROP COLUMN changed_at")
        db.execute("ALTER TABLE tables DROP COLUMN seen_at")
        db.execute("DROP TABLE purged")
        db.execute("ALTER TABLE tables DROP COLUMN chat")
        db.execute("DROP TABLE talk")
        db.execute("PRAGMA user_version = 1")

    again = make_app(SECRET_KEY="kept")
    with closing(sqlite3.connect(again.config["DATABASE"])) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(SCHEMA)
        # The last change's time, taken from the action log (the purge reads it): the last join here.
        assert db.execute("SELECT changed_at FROM tables").fetchall() == \
            db.execute("SELECT MAX(at) FROM actions").fetchall()
    table = live_table(again, url)
    assert table.version == version and table.match.round.events == events
    players = [reopen(p, again, url) for p in players]
    play_until(again, url, players, random.Random(6), lambda t: t.version >= version + 4)
    events = list(table.match.round.events)
    again.extensions["fichas"].close()
    assert live_table(make_app(), url).match.round.events == events


def test_a_round_missing_a_stored_event_does_not_load_and_the_others_do(make_app):
    app = make_app()
    broken_url, players = open_table(app, "block", 2, names=NAMES[:2])
    play_until(app, broken_url, players, random.Random(2), lambda t: t.version >= 6)
    fine_url, fine = open_table(app, "block", 2, names=NAMES[2:4])
    play_until(app, fine_url, fine, random.Random(3), lambda t: t.version >= 6)
    app.extensions["fichas"].close()
    with closing(sqlite3.connect(app.config["DATABASE"])) as db, db:
        db.execute("DELETE FROM round_events WHERE table_id=? AND seq=1", (broken_url.split("/")[-1],))

    again = make_app()  # start-up logs the broken table and resumes the other
    assert live_table(again, fine_url).version >= 6
    assert again.test_client().get(fine_url).status_code == 200
    with pytest.raises(ValueError, match="misses event 1"):  # a 500 page, never a guessed round
        live_table(again, broken_url)
