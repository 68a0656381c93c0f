"""S4's 3-second settle and T13's acting host, with a fake clock: the clock value alone, then a table."""

from __future__ import annotations

import pytest

from game.errors import GameError
from helpers.clock import START, TIMING, FakeClock, connect_all, finish_round, full_table
from live.store import Store
from live.table import SeatRefused
from live.tables import Tables
from live.turnclock import Timing, TurnClock


@pytest.fixture
def clock():
    return FakeClock()


LONG_PAUSE = Timing(turn=45, offline=5, pause=300, grace=15, settle=3, host_wait=60)  # the host's 60 s in it


@pytest.fixture
def make_tables(tmp_path, clock):
    stores = []

    def make(timing=TIMING):
        store = Store(str(tmp_path / f"presence{len(stores)}.sqlite3"))
        stores.append(store)
        tables = Tables(store, timing, now=clock)
        tables.pushes = 0

        def counted(table):
            tables.pushes += 1

        tables.publish = counted
        return tables

    yield make
    for store in stores:
        store.close()


@pytest.fixture
def tables(make_tables):
    return make_tables()


# -- the clock value ------------------------------------------------------------


def turn_of(seat: int, at: float = START) -> TurnClock:
    clock = TurnClock(Timing(settle=3, host_wait=60))
    clock.start_turn(seat, at)
    return clock


def test_s4_a_seat_gone_less_than_3_seconds_is_not_disconnected():
    clock = turn_of(1)
    clock.disconnect(1, START + 10)
    assert not clock.away(1, START + 12.9) and clock.ends(1, START + 12.9) == START + 45
    assert clock.due(1) == START + 13  # the table wakes as the settle ends
    assert not clock.connect(1, 1, START + 12.9)  # a reload: back in time, nothing lost
    assert clock.ends(1, START + 20) == START + 45 and clock.due(1) == START + 45


def test_s4_after_3_seconds_the_5_seconds_count_from_the_going():
    clock = turn_of(1)
    clock.disconnect(1, START + 10)
    assert clock.away(1, START + 13) and clock.ends(1, START + 13) == START + 15
    assert clock.notice(1, START + 13) == (True, True)  # told, and the deadline stored
    assert clock.deadline == START + 15 and clock.due(1) == START + 15
    assert clock.notice(1, START + 13.5) == (False, False)  # told once
    assert not clock.connect(1, 1, START + 14)  # back: the time lost stays lost
    assert clock.ends(1, START + 14) == START + 15


def test_s4_back_after_3_seconds_before_the_table_woke_still_loses_the_time():
    clock = turn_of(1)
    clock.disconnect(1, START + 10)
    assert clock.connect(1, 1, START + 13.2)  # the wake was late: the cut is made (and stored) now
    assert clock.deadline == START + 15


def test_s4_a_seat_gone_as_its_turn_begins_has_5_seconds_in_all():
    clock = TurnClock(Timing(settle=3))
    clock.disconnect(2, START - 1)
    clock.start_turn(2, START)  # not yet disconnected: a whole turn for now
    assert clock.deadline == START + 45 and clock.due(2) == START + 2
    assert clock.notice(2, START + 2) == (True, True)
    assert clock.deadline == START + 5  # 5 s from the turn's start, the later of the two


def test_s4_a_seat_long_gone_gets_5_seconds_from_its_turn():
    clock = TurnClock(Timing(settle=3))
    clock.disconnect(2, START - 100)
    clock.notice(None, START - 97)
    clock.start_turn(2, START)
    assert clock.deadline == START + 5 and clock.cut_short()


def test_t13_the_host_choices_pass_after_60_seconds_to_the_first_seat_present():
    clock = TurnClock(Timing(settle=3, host_wait=60))
    here = [False, False, True, True]  # the host and seat 1 have no page open
    clock.disconnect(0, START)
    assert clock.acting_host(START + 59.9, here) == 0  # the host's, for a minute
    assert clock.due(None) == START + 3  # told the host is away ...
    clock.notice(None, START + 3)
    assert clock.due(None) == START + 60  # ... then that someone stands in
    assert clock.acting_host(START + 60, here) == 2
    assert clock.notice(None, START + 60) == (True, False) and clock.due(None) is None
    assert clock.acting_host(START + 60, [False, True, True, True]) == 1
    assert clock.acting_host(START + 60, [False, False, False, False]) is None  # nobody to hold them
    clock.connect(0, None, START + 61)
    assert clock.acting_host(START + 61, here) == 0  # back as soon as the host's page is


# -- a table ------------------------------------------------------------------


def test_s4_a_reload_on_ones_turn_costs_nothing_and_shows_nothing(tables, clock):
    table = full_table(tables)
    connect_all(tables, table)
    seat, pushes = table.turn, tables.pushes
    clock.advance(1)
    tables.disconnect(table, seat)  # the page reloads ...
    clock.advance(0.8)
    assert table.present(seat, clock.now) and not table.away(seat, clock.now)
    tables.connect(table, seat)  # ... and is back
    clock.advance(5)
    assert not tables.expire(table.id)
    assert table.ends_at(clock.now) == START + 45 and not table.clock.cut_short()
    assert tables.pushes == pushes + 1  # the page coming back (its own whole table): nobody saw it go


def test_s4_a_seat_gone_3_seconds_is_shown_gone_by_a_push_then(tables, clock):
    table = full_table(tables)
    connect_all(tables, table)
    seat, pushes = table.turn, tables.pushes
    clock.advance(10)
    tables.disconnect(table, seat)
    assert tables.pushes == pushes and table.due_at() == START + 13
    clock.advance(3)
    assert not tables.expire(table.id)  # a wake, not a move
    assert tables.pushes == pushes + 1 and not table.present(seat, clock.now)
    assert table.ends_at(clock.now) == START + 15 and table.clock.cut_short()
    clock.advance(2)
    assert tables.expire(table.id) and table.match.round.events[-1].auto


def test_s4_a_seat_taken_back_on_another_device_within_3_seconds_keeps_its_turn(tables, clock):
    table = full_table(tables)
    connect_all(tables, table)
    seat = table.turn
    clock.advance(10)
    tables.disconnect(table, seat)  # the phone's page closes
    clock.advance(2.5)
    tables.connect(table, seat)  # the laptop's opens
    clock.advance(10)
    assert not tables.expire(table.id) and table.ends_at(clock.now) == START + 45


def test_t13_only_the_host_or_the_acting_host_starts_the_next_round(make_tables, clock):
    tables = make_tables(LONG_PAUSE)
    table = full_table(tables, target=500)  # a round scores at most 168: round one ends in a pause
    connect_all(tables, table)
    finish_round(tables, table, clock)
    for seat in (1, 2, 3):
        with pytest.raises(GameError, match="Only the host"):
            tables.act(table, seat, "next_round", table.version)
    tables.disconnect(table, 0)
    tables.disconnect(table, 1)  # the first seat after the host is gone too
    clock.advance(10)
    tables.expire(table.id)
    with pytest.raises(GameError, match="Only the host"):  # the host has been gone 10 s only
        tables.act(table, 2, "next_round", table.version)
    clock.advance(50)
    assert table.acting_host(clock.now) == 2
    for seat in (1, 3):
        with pytest.raises(GameError, match="Only the host"):
            tables.act(table, seat, "next_round", table.version)
    tables.act(table, 2, "next_round", table.version)
    assert table.phase == "playing" and table.match.round.number == 2


def test_t13_the_acting_host_hands_a_seat_over_and_the_host_gets_it_back(make_tables, clock):
    tables = make_tables(LONG_PAUSE)
    table = full_table(tables, target=500)
    connect_all(tables, table)
    finish_round(tables, table, clock)
    tables.disconnect(table, 0)
    tables.disconnect(table, 3)
    clock.advance(60)
    tables.expire(table.id)
    tables.ask(table, "Zoe")
    ask_id = next(iter(table.asks))
    with pytest.raises(SeatRefused, match="not_host"):
        tables.hand_over(table, 2, 3, ask_id, table.version)
    tables.connect(table, 0)  # the host is back: the choices are the host's again
    with pytest.raises(SeatRefused, match="not_host"):
        tables.hand_over(table, 1, 3, ask_id, table.version)
    tables.disconnect(table, 0)
    clock.advance(60)
    tables.expire(table.id)
    with pytest.raises(SeatRefused, match="seat"):  # never the host's own seat, gone as it is
        tables.hand_over(table, 1, 0, ask_id, table.version)
    assert table.players[0] == "Ana"
    tables.hand_over(table, 1, 3, ask_id, table.version)
    assert table.players[3] == "Zoe"


def test_t13_the_table_wakes_to_tell_who_stands_in(make_tables, clock):
    tables = make_tables(LONG_PAUSE)
    table = full_table(tables, target=500)
    connect_all(tables, table)
    finish_round(tables, table, clock)
    tables.disconnect(table, 0)
    clock.advance(3)
    tables.expire(table.id)  # the host shows as away
    pushes = tables.pushes
    assert table.due_at() == clock.now + 57 and table.acting_host(clock.now) == 0
    clock.advance(57)
    assert not tables.expire(table.id)  # a wake: seat 1 stands in now, and the pages are told
    assert tables.pushes == pushes + 1 and table.acting_host(clock.now) == 1
    assert table.due_at() == table.ends_at(clock.now)  # then only the pause's end
