"""A database written by a newer Fichas (a higher PRAGMA user_version than SCHEMA knows) is refused,
left byte for byte as it was, and the production server exits with a clear message."""

import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from app import create_app
from helpers import FAST
from live.store import SCHEMA, NewerDatabase, Store

ROOT = Path(__file__).resolve().parents[2]


def newer_file(path: Path, version: int = len(SCHEMA) + 1) -> bytes:
    """A database as a newer Fichas would leave it; its bytes."""
    with closing(sqlite3.connect(path)) as db, db:
        db.execute("CREATE TABLE future (id INTEGER PRIMARY KEY, data TEXT)")
        db.execute("INSERT INTO future (data) VALUES ('kept')")
        db.execute(f"PRAGMA user_version = {version}")
    return path.read_bytes()


def sidecars(path: Path) -> list[Path]:
    return [p for p in path.parent.iterdir() if p.name.startswith(path.name) and p != path]


@pytest.mark.parametrize("ahead", [1, 40])
def test_a_newer_file_is_refused_and_left_untouched(tmp_path, ahead):
    path = tmp_path / "fichas.sqlite3"
    before = newer_file(path, len(SCHEMA) + ahead)
    with pytest.raises(NewerDatabase) as refused:
        Store(str(path))
    message = str(refused.value)
    assert "newer Fichas" in message and str(path) in message and f"{len(SCHEMA) + ahead}" in message
    assert refused.value.version == len(SCHEMA) + ahead
    assert path.read_bytes() == before
    assert sidecars(path) == []  # no -wal or -shm either


def test_create_app_refuses_it_too(tmp_path):
    path = tmp_path / "fichas.sqlite3"
    before = newer_file(path)
    with pytest.raises(NewerDatabase, match="written by a newer Fichas"):
        create_app({"DATABASE": str(path), "TESTING": True, "START_CLOCK": False, **FAST})
    assert path.read_bytes() == before


def test_a_file_of_this_version_opens(tmp_path):
    path = tmp_path / "fichas.sqlite3"
    Store(str(path)).close()
    store = Store(str(path))  # at len(SCHEMA): not newer
    assert store.setting("k", lambda: "v") == "v" and store.setting("k", lambda: "w") == "v"
    store.close()
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(SCHEMA)


def test_the_production_server_exits_with_the_message(tmp_path):
    """gunicorn (the README's command) stops with a non-zero code and the reason, instead of serving."""
    path = tmp_path / "fichas.sqlite3"
    before = newer_file(path)
    env = {**os.environ, "FICHAS_DB": str(path)}
    done = subprocess.run([sys.executable, "-m", "gunicorn", "-k", "gevent", "-w", "1", "-b", "127.0.0.1:0",
                           "app:create_app()"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "written by a newer Fichas" in done.stderr and "left unchanged" in done.stderr
    assert path.read_bytes() == before
