"""The web layer keeps its own state per table (what it last pushed, its line as laid) by table id, never
on the live Table, and lets it go when the table leaves memory."""

from __future__ import annotations

from helpers import Browser


def open_waiting_table(app):
    """A table with two of its four seats taken: nothing is due at it, so it may leave memory."""
    host = Browser(app)
    url = host.client.post("/tables", data={"name": "Ana", "variant": "partnership", "seats": 4,
                                            "target": 100, "csrf_token": host.csrf}).headers["Location"]
    assert Browser(app).post(f"{url}/join", {"name": "Bea"}).status_code == 204
    return url, host


def test_the_webs_state_of_a_table_goes_when_the_table_leaves_memory(make_app):
    clock = [1_000_000.0]
    app = make_app(IDLE_SECONDS=600, TABLES_OPTIONS={"now": lambda: clock[0]})
    live = app.extensions["fichas"]
    url, host = open_waiting_table(app)
    table = live.tables.get(url.rsplit("/", 1)[1])
    assert host.get(url).status_code == 200
    assert table.id in live.state and live.state[table.id].pushed.seq == 2  # the host's seat, then Bea's
    assert not hasattr(table, "pushed") and not hasattr(table, "laid")  # the web's, not live's
    clock[0] += 600
    assert live.tables.evict_idle() == 1
    assert table.id not in live.state
    assert host.get(url).status_code == 200  # loaded again: its state starts afresh
    assert live.state[table.id].pushed.seq == 0


def test_a_purged_table_takes_the_webs_state_of_it_along(app):
    live = app.extensions["fichas"]
    url, _ = open_waiting_table(app)
    table = live.tables.get(url.rsplit("/", 1)[1])
    assert table.id in live.state
    live.tables.forget(table)  # what the server does once `python -m live.purge` removed it
    assert table.id not in live.state
