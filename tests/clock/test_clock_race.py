"""A player's move and the clock's at the same version: exactly one applies, never both."""

from __future__ import annotations

import threading

from game.errors import GameError
from helpers.clock import FakeClock, connect_all, full_table
from live.store import Store
from live.tables import Tables
from live.turnclock import Timing

TIMING = Timing(turn=45, offline=5, pause=30, grace=0)


def test_s3_player_and_clock_race_exactly_one_applies(tmp_path):
    clock = FakeClock()
    store = Store(str(tmp_path / "race.sqlite3"))
    tables = Tables(store, TIMING, now=clock)
    table, outcomes = None, {"player": 0, "clock": 0}
    for _ in range(150):
        if table is None or table.phase != "playing":
            table = full_table(tables)
            connect_all(tables, table)
        seat, version = table.turn, table.version
        moves = table.match.round.playable(seat)
        clock.now = table.due_at()  # the deadline is reached just as the player acts
        start = threading.Barrier(2)
        applied = {}

        def player(table=table, seat=seat, version=version, moves=moves, start=start, applied=applied):
            start.wait()
            try:
                if moves:
                    tile, end = moves[0]
                    tables.act(table, seat, "play", version, tile.text, end)
                else:
                    tables.act(table, seat, "pass", version)
                applied["player"] = True
            except GameError:
                applied["player"] = False

        def timer(table=table, version=version, start=start, applied=applied):
            start.wait()
            applied["clock"] = tables.expire(table.id, version)

        threads = [threading.Thread(target=player), threading.Thread(target=timer)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert applied["player"] != applied["clock"], applied
        assert table.version == version + 1
        outcomes["player" if applied["player"] else "clock"] += 1
    stored = store.rounds(table.id, table.match_no)[-1]["events"]  # every applied move, once
    assert stored == [event.to_dict() for event in table.match.round.events] and stored
    store.close()
