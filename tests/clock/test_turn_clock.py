"""The table's clocks with a fake clock: S3 expiry, S4 presence arithmetic and its settle, T10 pause,
T13's acting host, restart grace."""

from __future__ import annotations

import random

import pytest

from helpers.clock import START, TIMING, FakeClock, connect_all, finish_round, full_table
from live.store import Store
from live.tables import Tables


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "clock.sqlite3")


@pytest.fixture
def tables(db, clock):
    store = Store(db)
    yield Tables(store, TIMING, now=clock)
    store.close()


def test_s3_turn_runs_45_seconds_then_the_table_plays(tables, clock):
    table = full_table(tables)
    connect_all(tables, table)
    seat, version = table.turn, table.version
    assert table.due_at() == START + 45
    clock.advance(44.9)
    assert not tables.expire(table.id)
    assert table.version == version
    clock.advance(0.1)
    assert tables.expire(table.id)
    event = table.match.round.events[-1]
    assert event.seat == seat and event.auto is True and event.action == "play"
    assert table.turn == (seat + 1) % 4 and table.version == version + 1


def test_s3_automatic_play_is_the_first_fitting_tile_left_then_right(tables, clock):
    table = full_table(tables)
    connect_all(tables, table)
    for _ in range(6):  # several timeouts in a row, each checked against the hand's order
        rnd = table.match.round
        seat = rnd.turn
        expected = rnd.playable(seat)[0] if rnd.playable(seat) else None
        clock.advance(45)
        assert tables.expire(table.id)
        event = rnd.events[-1]
        if expected is None:
            assert event.action == "pass"
        else:
            assert (event.tile, event.end) == expected


def test_s3_draw_variant_draws_then_plays_when_time_runs_out(db, clock):
    store = Store(db)
    tables = Tables(store, TIMING, now=clock, rng=random.Random(7))  # a deal in which a turn must draw
    table = full_table(tables, "draw", 2)
    connect_all(tables, table)
    drew = False
    for _ in range(40):
        if table.phase != "playing":
            break
        rnd, seat = table.match.round, table.turn
        must_draw = rnd.must_draw(seat)
        before = len(rnd.events)
        clock.advance(45)
        assert tables.expire(table.id)
        new = rnd.events[before:]
        assert all(e.auto for e in new)
        if must_draw:
            drew = True
            assert new[0].action == "draw"
            assert new[-1].action in ("play", "pass")
            assert all(e.action == "draw" for e in new[:-1])
    store.close()
    assert drew, "no turn needed a draw in 40 automatic turns"


def test_s4_disconnected_before_the_turn_gets_5_seconds(tables, clock):
    table = full_table(tables)
    connect_all(tables, table)
    nxt = (table.turn + 1) % 4
    tables.disconnect(table, nxt)
    clock.advance(3)
    tables.act(table, table.turn, "play", table.version, *_first_move(table))
    assert table.turn == nxt
    assert table.ends_at(clock.now) == clock.now + 5


def test_s4_disconnect_during_the_turn_leaves_5_seconds(tables, clock):
    table = full_table(tables)
    connect_all(tables, table)
    clock.advance(10)
    tables.disconnect(table, table.turn)
    assert table.due_at() == START + 13  # the table wakes when the settle is over ...
    clock.advance(3)
    assert not tables.expire(table.id)  # ... and the turn has 2 s left of its 5
    assert table.due_at() == table.ends_at(clock.now) == START + 15


def test_s4_late_disconnect_keeps_the_earlier_45_second_deadline(tables, clock):
    table = full_table(tables)
    connect_all(tables, table)
    clock.advance(43)
    tables.disconnect(table, table.turn)
    clock.advance(3)
    assert table.ends_at(clock.now) == START + 45


def test_s4_reconnecting_never_gives_time_back(tables, clock):
    table = full_table(tables)
    connect_all(tables, table)
    seat = table.turn
    clock.advance(10)
    tables.disconnect(table, seat)
    clock.advance(3)
    assert not tables.expire(table.id)  # disconnected now: 2 s left
    clock.advance(0.5)
    tables.connect(table, seat)
    assert table.due_at() == START + 15
    clock.advance(0.5)  # disconnect again: the later disconnection cannot move the deadline later
    tables.disconnect(table, seat)
    assert table.ends_at(clock.now) == START + 15
    clock.advance(0.9)
    assert not tables.expire(table.id)
    clock.advance(0.1)
    assert tables.expire(table.id)
    assert table.match.round.events[-1].auto is True


def test_s4_a_turn_cut_short_says_so_until_the_next_turn(tables, clock):
    """`cut_short`: true from the moment a seat's absence brings its turn's deadline forward (or its
    turn begins while it is away), false for a full turn, a disconnection too late to shorten it,
    and the next turn."""
    table = full_table(tables)
    connect_all(tables, table)
    seat = table.turn
    assert not table.clock.cut_short()
    clock.advance(10)
    tables.disconnect(table, seat)
    clock.advance(3)
    tables.connect(table, seat)
    assert table.clock.cut_short()  # coming back does not give the time back (S4), nor unsay it
    tables.act(table, seat, "play", table.version, *_first_move(table))
    assert not table.clock.cut_short()  # the next seat's turn is whole
    late = table.turn
    clock.advance(43)
    tables.disconnect(table, late)  # 2 s left: 5 s more would not shorten it
    clock.advance(1)
    assert not table.clock.cut_short()
    tables.connect(table, late)
    after = (late + 1) % 4
    tables.disconnect(table, after)  # away as its turn begins: the turn starts short
    clock.advance(3)
    _take_turn(tables, table)  # the deal is random: this seat may have to pass
    assert table.turn == after and table.clock.cut_short()


def test_s4_only_the_last_socket_closing_disconnects(tables, clock):
    table = full_table(tables)
    connect_all(tables, table)
    seat = table.turn
    tables.connect(table, seat)  # a second tab
    clock.advance(10)
    tables.disconnect(table, seat)
    assert table.connected(seat) and table.due_at() == START + 45


def test_s4_shortened_deadline_is_stored(tables, clock, db):
    table = full_table(tables)
    connect_all(tables, table)
    clock.advance(10)
    tables.disconnect(table, table.turn)
    assert Store(db).load_table(table.id)["deadline"] == START + 45  # a reload would be back in time
    clock.advance(3)
    tables.expire(table.id)  # the table wakes as the settle ends
    assert Store(db).load_table(table.id)["deadline"] == START + 15


def test_s1_a_player_still_opening_the_page_is_not_disconnected(tables, clock):
    table = full_table(tables)  # nobody has opened a websocket yet
    assert table.due_at() == START + 45


def test_t10_pause_of_30_seconds_then_the_next_round_starts_itself(tables, clock):
    table = full_table(tables, target=500)  # a round scores at most 168: round one ends in a pause
    connect_all(tables, table)
    finish_round(tables, table, clock)
    assert table.phase == "pause"
    ended = clock.now
    assert table.due_at() == ended + 30
    clock.advance(29.9)
    assert not tables.expire(table.id)
    clock.advance(0.1)
    assert tables.expire(table.id)
    assert table.phase == "playing" and table.match.round.number == 2
    assert table.due_at() == clock.now + 45


def test_t10_host_starts_the_next_round_early(tables, clock):
    table = full_table(tables, target=500)  # a round scores at most 168: round one ends in a pause
    connect_all(tables, table)
    finish_round(tables, table, clock)
    clock.advance(3)
    tables.act(table, 0, "next_round", table.version)
    assert table.phase == "playing" and table.match.round.number == 2


def test_restart_grace_lets_a_returning_player_keep_their_turn(db, clock):
    store = Store(db)
    table = full_table(Tables(store, TIMING, now=clock))
    store.close()
    clock.advance(20)  # the server was down for a while, then starts again
    restarted = Tables(Store(db), TIMING, now=clock)
    assert restarted.resume() == 1
    table = restarted.get(table.id)
    seat = table.turn
    assert table.due_at() == clock.now + 15  # nothing happens during the grace
    clock.advance(5)
    restarted.connect(table, seat)
    assert table.ends_at(clock.now) == START + 45  # their own deadline, as stored
    clock.advance(10)
    assert not restarted.expire(table.id)
    restarted.store.close()


def test_restart_grace_then_the_table_plays_for_an_absent_player(db, clock):
    store = Store(db)
    table = full_table(Tables(store, TIMING, now=clock))
    store.close()
    clock.advance(1)
    restarted = Tables(Store(db), TIMING, now=clock)
    restarted.resume()
    table = restarted.get(table.id)
    version = table.version
    clock.advance(14.9)
    assert not restarted.expire(table.id)
    clock.advance(0.1)
    assert restarted.expire(table.id)
    assert table.version == version + 1 and table.match.round.events[-1].auto is True
    restarted.store.close()


def test_the_match_end_stops_the_clock(tables, clock):
    table = full_table(tables, target=50)
    connect_all(tables, table)
    for _ in range(2000):
        if table.phase == "over":
            break
        clock.advance(max(0.0, table.due_at() - clock.now))
        assert tables.expire(table.id)
    assert table.phase == "over" and table.due_at() is None


def _first_move(table):
    tile, end = table.match.round.playable(table.turn)[0]
    return tile.text, end


def _take_turn(tables, table):
    """The seat to play plays its first playable tile, or passes when it has none (Partnership)."""
    if table.match.round.playable(table.turn):
        tables.act(table, table.turn, "play", table.version, *_first_move(table))
    else:
        tables.act(table, table.turn, "pass", table.version)


def test_s4_a_real_disconnection_during_the_restart_grace_still_counts(db, clock):
    store = Store(db)
    table = full_table(Tables(store, TIMING, now=clock))
    store.close()
    restarted = Tables(Store(db), TIMING, now=clock)
    restarted.resume()
    table = restarted.get(table.id)
    seat = table.turn
    restarted.connect(table, seat)  # back within the grace: full time
    assert table.ends_at(clock.now) == START + 45
    clock.advance(2)
    restarted.disconnect(table, seat)  # a real disconnection, still within the grace
    clock.advance(3.5)
    restarted.connect(table, seat)  # coming back does not give the time back
    assert table.ends_at(clock.now) == START + 15  # not before the grace ends (15 s after start-up)
    restarted.store.close()


def test_a_failed_commit_leaves_the_same_table_as_stored(tables, clock, monkeypatch):
    table = full_table(tables)
    connect_all(tables, table)
    before = (table.version, table.match.to_dict(), table.deadline)
    seat = table.turn
    tile, end = _first_move(table)

    def disk_full(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(tables.store, "commit", disk_full)
    with pytest.raises(OSError):
        tables.act(table, seat, "play", table.version, tile, end)
    assert tables.get(table.id) is table  # the object everyone holds is still the live one
    assert (table.version, table.match.to_dict(), table.deadline) == before
    assert all(table.connected(s) for s in range(4))  # presence is kept
    monkeypatch.undo()
    tables.act(table, seat, "play", table.version, tile, end)
    assert table.version == before[0] + 1


def test_one_table_that_no_longer_loads_does_not_stop_the_others(db, clock):
    store = Store(db)
    good = full_table(Tables(store, TIMING, now=clock))
    bad = full_table(Tables(store, TIMING, now=clock))
    with store.write() as sql:  # a stored round that breaks a rule (the wrong opener)
        sql.execute("UPDATE rounds SET data = json_set(data, '$.opener', "
                    "(json_extract(data, '$.opener') + 1) % 4) WHERE table_id = ?", (bad.id,))
    store.close()
    restarted = Tables(Store(db), TIMING, now=clock)
    assert restarted.resume() == 1
    assert restarted.get(good.id) is not None
    restarted.store.close()
