"""A small run of the load generator (bench/load.py): it completes cleanly and every move reaches every seat.

Timings are not asserted here; they live in BENCHMARKS.md.
"""

from __future__ import annotations

import asyncio

import pytest

from helpers.bench import load_generator
from helpers.shards import nginx_or_skip

pytestmark = pytest.mark.slow  # drives real servers and shards with the load generator: out of the quick loop


def test_five_tables_play_and_every_move_reaches_all_four_seats():
    load = load_generator()
    config = load.Config(tables=5, seconds=6, pace=(0.2, 0.6), pause_seconds=1, write_json=False, quiet=True)
    result = asyncio.run(load.measure(config))

    assert result["tables_open"] == 5
    assert result["moves"] >= 20, result["move_kinds"]
    errors = result["errors"]
    assert errors["http"] == 0, errors["samples"]
    assert errors["http_during_ramp"] == 0, errors["samples"]
    assert errors["dropped_sockets"] == 0
    assert errors["stuck_tables"] == 0
    assert errors["server_log_errors"] == 0, errors["server_log_sample"]
    # Every accepted move arrived, with its own version, on all four seats' websockets; no seat
    # skipped a version (the server's own moves, such as a new round, included) or saw one go back.
    assert errors["missed_seat_updates"] == 0
    assert result["latency_ms"]["samples"] == result["moves"]
    assert errors["version_gaps"] == 0
    assert errors["out_of_order"] == 0
    assert result["push"]["updates_received"] >= 4 * result["moves"]


def test_two_shards_behind_nginx_take_tables_and_every_move_reaches_all_four_seats():
    """bench/load.py --shards 2: the players only know nginx's address; tables land on both shards."""
    nginx_or_skip()
    load = load_generator()
    config = load.Config(tables=6, seconds=5, pace=(0.2, 0.6), pause_seconds=1, write_json=False, quiet=True,
                         shards=2)
    result = asyncio.run(load.measure(config))

    assert result["tables_open"] == 6
    # nginx picks a shard at random (tests/sharding/test_shards_nginx.py shows both get tables).
    assert set(result["tables_per_shard"]) <= {"s1", "s2"}, result["tables_per_shard"]
    assert sum(result["tables_per_shard"].values()) == 6
    assert result["moves"] >= 15, result["move_kinds"]
    errors = result["errors"]
    assert errors["http"] == 0 and errors["http_during_ramp"] == 0, errors["samples"]
    assert errors["dropped_sockets"] == 0 and errors["stuck_tables"] == 0
    assert errors["server_log_errors"] == 0, errors["server_log_sample"]  # nginx's log too
    assert errors["missed_seat_updates"] == 0 and errors["version_gaps"] == 0 and errors["out_of_order"] == 0
    assert result["push"]["updates_received"] >= 4 * result["moves"]


def test_the_probe_times_each_part_of_a_push_and_every_move_still_arrives():
    """bench/load.py --probe-parts: the server's own timers, the parts of each push among them."""
    load = load_generator()
    config = load.Config(tables=3, seconds=4, pace=(0.2, 0.6), pause_seconds=1, write_json=False, quiet=True,
                         probe_parts=True)
    result = asyncio.run(load.measure(config))

    errors = result["errors"]
    assert result["moves"] >= 10 and errors["missed_seat_updates"] == 0 and errors["server_log_errors"] == 0
    probe = result["server_probe"]
    assert probe, "the worker wrote no timings as it stopped"
    for part in ("act", "commit", "checkpoint", "publish", "push_init", "message_for", "shared", "own", "put",
                 "write"):
        assert probe.get(part, {}).get("count", 0) > 0, f"{part} was not timed: {sorted(probe)}"
    # Four players a table: a push makes a message for each of their pages (counted inside the window).
    assert probe["message_for"]["count"] > 3 * probe["push_init"]["count"]


def test_the_bare_stack_takes_the_same_players_and_pushes_the_bytes_it_is_set_to():
    """bench/load.py --bare: the yardstick (bench/bare.py) plays the same client, every move to every seat."""
    load = load_generator()
    config = load.Config(tables=3, seconds=3, pace=(0.2, 0.6), write_json=False, quiet=True, bare=True)
    result = asyncio.run(load.measure(config))

    errors = result["errors"]
    assert result["tables_open"] == 3 and result["moves"] >= 9, result["move_kinds"]
    assert errors["http"] == 0 and errors["dropped_sockets"] == 0 and errors["server_log_errors"] == 0
    assert errors["missed_seat_updates"] == 0 and errors["version_gaps"] == 0 and errors["stuck_tables"] == 0
    assert result["push"]["bytes_per_move_per_seat"] == 1430  # what Fichas sends a seat a move
    assert "bench.bare:create_app()" in result["command"]


def test_summarise_profile_counts_self_and_inclusive_time():
    load = load_generator()
    summary = load.summarise_profile("main (a.py:1);publish (app.py:9);render (t.py:3) 3\n"
                                     "main (a.py:1);publish (app.py:9) 1\n")
    assert summary["samples"] == 4
    assert dict(summary["self"]) == {"render (t.py)": 75.0, "publish (app.py)": 25.0}
    assert dict(summary["inclusive"])["publish (app.py)"] == 100.0
