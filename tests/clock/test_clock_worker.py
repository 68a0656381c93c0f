"""The background worker: wakes at the earliest deadline, a newer schedule replaces an older one."""

from __future__ import annotations

import itertools
import subprocess
import sys
import threading
import time
from pathlib import Path

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


GEVENT_CLOCK = """
from gevent import monkey
monkey.patch_all()
import sys, threading, time
sys.path.insert(0, {root!r})
from live.clock import Clock

order, fired, done = [], [], threading.Event()
def fire(table_id):
    order.append(table_id)
    fired.append(table_id)
    if len(fired) == 3:
        done.set()
clock = Clock(fire)
for table_id in ("a", "b", "c"):  # all due at once, as when rounds that ended together start again
    clock.schedule(table_id, time.time() - 1)

def other():
    while not done.is_set():
        order.append("other")
        time.sleep(0)
threading.Thread(target=other).start()
clock.start()
done.wait(5)
clock.stop()
print(" ".join(order))
"""


def test_deadlines_due_together_let_other_work_run_between_them_under_gevent():
    """Under gevent every table shares one thread: a burst of due deadlines must not hold it."""
    root = str(Path(__file__).resolve().parents[2])
    out = subprocess.run([sys.executable, "-c", GEVENT_CLOCK.format(root=root)], capture_output=True,
                         text=True, timeout=30, check=True).stdout.split()
    fired = [i for i, name in enumerate(out) if name != "other"]
    assert [out[i] for i in fired] == ["a", "b", "c"]
    assert all("other" in out[a:b] for a, b in itertools.pairwise(fired)), out
