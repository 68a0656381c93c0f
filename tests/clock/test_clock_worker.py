"""The background worker: wakes at the earliest deadline, a newer schedule replaces an older one."""

from __future__ import annotations

import threading
import time

from live.clock import Clock


def test_clock_fires_at_the_deadline_once():
    fired, woke = [], threading.Event()
    clock = Clock(lambda table_id: (fired.append(table_id), woke.set()))
    # Cancelled before the worker starts: a slow test thread cannot let it fire in between.
    clock.schedule("b", time.time() + 0.05)
    clock.schedule("b", None)
    clock.start()
    try:
        clock.schedule("a", time.time() + 30)
        clock.schedule("a", time.time() + 0.05)  # rescheduled earlier: fires once, early
        assert woke.wait(5)
        time.sleep(0.2)
        assert fired == ["a"] and clock.pending() == 0
    finally:
        clock.stop()


def test_clock_keeps_going_after_a_failure():
    calls, woke = [], threading.Event()

    def fire(table_id):
        calls.append(table_id)
        if table_id == "bad":
            raise RuntimeError("one broken table")
        woke.set()

    clock = Clock(fire)
    clock.schedule("bad", time.time())  # both in before the worker starts: it takes them in order
    clock.schedule("good", time.time() + 0.05)
    clock.start()
    try:
        assert woke.wait(5)
        assert calls[:2] == ["bad", "good"]  # a slow thread may see "bad" retried (1 s) after these
    finally:
        clock.stop()
