"""Remove old tables from the database: finished ones and ones that never started.

    python -m live.purge [--db PATH] [--finished-days 30] [--never-started-days 1] [--dry-run]

A finished table is one whose last match is over (nothing is due at it) and that nobody has
touched for --finished-days; a table that never started is one whose seats were never all
taken, untouched for --never-started-days. Their seats, rounds, records and action log go with
them; their links then answer "This table has been removed" (410). Running tables, and tables
in the pause between rounds, are never removed. Safe while the server runs: the purge is one
transaction, and it never removes a table the running server holds (a page open at it, or loaded
in its memory), which the server stores every minute (live/store.py `seen`).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from .store import NewerDatabase, Store

DAY = 86_400


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m live.purge", description=__doc__.split("\n", 1)[0])
    parser.add_argument("--db", default=os.environ.get("FICHAS_DB", "instance/fichas.sqlite3"),
                        help="the database file (default: FICHAS_DB, else instance/fichas.sqlite3)")
    parser.add_argument("--finished-days", type=float, default=30.0)
    parser.add_argument("--never-started-days", type=float, default=1.0)
    parser.add_argument("--dry-run", action="store_true", help="count what would go, remove nothing")
    args = parser.parse_args(argv)
    if not os.path.exists(args.db):
        print(f"no database at {args.db}", file=sys.stderr)
        return 2
    try:
        store = Store(args.db)
    except NewerDatabase as error:
        print(error, file=sys.stderr)
        return 2
    now = time.time()
    try:
        gone = store.purge(now - args.finished_days * DAY, now - args.never_started_days * DAY, args.dry_run)
    finally:
        store.close()
    verb = "would remove" if args.dry_run else "removed"
    print(f"{verb} {gone['finished']} finished table(s) and {gone['never_started']} that never started")
    return 0


if __name__ == "__main__":
    sys.exit(main())
