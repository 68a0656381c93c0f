"""Idle tables leave memory and come back as they were; a request racing the eviction stays consistent."""

from __future__ import annotations

import threading

from helpers import Browser, version_of


class FakeClock:
    """Time that moves only when the test says so."""

    def __init__(self, now: float = 1_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


def open_waiting_table(app, names=("Ana",)):
    """A Partnership table with only some seats taken: nothing is due at it."""
    host = Browser(app)
    url = host.client.post("/tables", data={"name": names[0], "variant": "partnership", "seats": 4,
                                            "target": 100, "csrf_token": host.csrf}).headers["Location"]
    for name in names[1:]:
        assert Browser(app).post(f"{url}/join", {"name": name}).status_code == 204
    return url, host


def test_an_idle_table_leaves_memory_and_comes_back_the_same(make_app):
    clock = FakeClock()
    app = make_app(IDLE_SECONDS=600, TABLES_OPTIONS={"now": clock})
    tables = app.extensions["fichas"].tables
    url, host = open_waiting_table(app, ("Ana", "Bea"))
    before = host.get(url).get_data(as_text=True)
    clock.now += 599
    assert tables.evict_idle() == 0  # not idle long enough
    clock.now += 1
    assert tables.evict_idle() == 1 and tables.in_memory() == 0
    after = host.get(url).get_data(as_text=True)  # loads it again
    assert tables.in_memory() == 1
    assert version_of(after) == version_of(before)
    assert 'data-seat="0"' in after and "Ana" in after and "Bea" in after
    assert "Share the link" in after and "Take seat" not in after  # the host's seat cookie still works
    assert Browser(app).post(f"{url}/join", {"name": "Carl"}).status_code == 204  # and it goes on


def test_a_table_with_a_running_clock_stays_in_memory(make_app):
    clock = FakeClock()
    app = make_app(IDLE_SECONDS=600, TABLES_OPTIONS={"now": clock})
    tables = app.extensions["fichas"].tables
    open_waiting_table(app, ("Ana", "Bea", "Carl", "Dan"))  # full: round one runs, a turn is due
    clock.now += 10_000
    assert tables.evict_idle() == 0 and tables.in_memory() == 1


def test_a_move_through_an_evicted_object_reaches_the_table_loaded_again(make_app):
    clock = FakeClock()
    app = make_app(IDLE_SECONDS=0, TABLES_OPTIONS={"now": clock})
    tables = app.extensions["fichas"].tables
    url, _ = open_waiting_table(app)
    table_id = url.rsplit("/", 1)[1]
    stale = tables.get(table_id)  # a request got the table just before it left memory
    assert tables.evict_idle() == 1 and stale.evicted
    seat, _ = tables.join(stale, "Bea")
    fresh = tables.get(table_id)
    assert fresh is not stale and seat == 1
    assert fresh.players == ["Ana", "Bea"] and stale.players == ["Ana"]
    assert tables.store.load_table(table_id)["version"] == fresh.version


def test_joins_racing_evictions_leave_one_consistent_table(make_app):
    app = make_app(IDLE_SECONDS=0)
    tables = app.extensions["fichas"].tables
    url, _ = open_waiting_table(app)
    table_id = url.rsplit("/", 1)[1]
    held = tables.get(table_id)
    stop = threading.Event()

    def evict_again_and_again():
        while not stop.is_set():
            tables.evict_idle()

    evictor = threading.Thread(target=evict_again_and_again)
    evictor.start()
    joiners = [threading.Thread(target=tables.join, args=(held, name)) for name in ("Bea", "Carl", "Dan")]
    for joiner in joiners:
        joiner.start()
    for joiner in joiners:
        joiner.join()
    stop.set()
    evictor.join()
    table = tables.get(table_id)
    assert sorted(table.players[1:]) == ["Bea", "Carl", "Dan"] and table.phase == "playing"
    row = tables.store.load_table(table_id)
    assert row["version"] == table.version == 4
    assert [s["name"] for s in row["seat_rows"]] == table.players


def test_a_table_in_a_spectators_sight_stays_in_memory(make_app):
    """Its page holds it: in memory, the server stores it as seen, so `python -m live.purge` keeps it."""
    clock = FakeClock()
    app = make_app(IDLE_SECONDS=600, TABLES_OPTIONS={"now": clock})
    tables = app.extensions["fichas"].tables
    url, _ = open_waiting_table(app)
    table = tables.get(url.rsplit("/", 1)[1])
    tables.connect(table, None)  # a spectator's websocket, as web/ws/endpoint.py opens it
    clock.now += 10_000
    assert tables.evict_idle() == 0 and tables.mark_seen() == 1
    tables.disconnect(table, None)  # its page closed: idle from now on
    clock.now += 600
    assert tables.evict_idle() == 1
