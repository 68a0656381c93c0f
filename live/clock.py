"""One background worker that sleeps until the earliest deadline of all tables, then acts.

The clock is data: deadlines live with the tables (and in the store); this worker only keeps
a heap of (due time, table id) and calls `fire(table_id)`, which re-checks under the table's
lock. Under gevent the thread is a greenlet.
"""

from __future__ import annotations

import heapq
import logging
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)
RETRY_SECONDS = 1.0


class Clock:
    """Wakes for the next deadline; a newer schedule for a table replaces the older one."""

    def __init__(self, fire: Callable[[str], object], now: Callable[[], float] = time.time):
        self.fire = fire
        self.now = now
        self._heap: list[tuple[float, str]] = []
        self._due: dict[str, float] = {}
        self._wake = threading.Condition()
        self._stopped = False
        self._thread: threading.Thread | None = None

    def schedule(self, table_id: str, due: float | None) -> None:
        """Act for `table_id` at `due` (None: nothing to do)."""
        with self._wake:
            if due is None:
                self._due.pop(table_id, None)
                return
            if self._due.get(table_id) == due:
                return
            self._due[table_id] = due
            heapq.heappush(self._heap, (due, table_id))
            if self._heap[0] == (due, table_id):
                self._wake.notify()

    def start(self) -> Clock:
        """Start the worker (once)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="fichas-clock", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        """Stop the worker and wait for it."""
        with self._wake:
            self._stopped = True
            self._wake.notify()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def pending(self) -> int:
        """How many tables have a deadline scheduled."""
        with self._wake:
            return len(self._due)

    def _next_due(self) -> str | None:
        """Wait until an entry is due and return its table id; None once stopped."""
        with self._wake:
            while not self._stopped:
                while self._heap and self._due.get(self._heap[0][1]) != self._heap[0][0]:
                    heapq.heappop(self._heap)  # replaced by a newer schedule
                if not self._heap:
                    self._wake.wait()
                    continue
                due, table_id = self._heap[0]
                delay = due - self.now()
                if delay > 0:
                    self._wake.wait(min(delay, 60.0))
                    continue
                heapq.heappop(self._heap)
                del self._due[table_id]
                return table_id
        return None

    def _run(self) -> None:
        while (table_id := self._next_due()) is not None:
            try:
                self.fire(table_id)
            except Exception:  # one table's failure must not stop every clock; try again soon
                log.exception("clock failed for table %s", table_id)
                self.schedule(table_id, self.now() + RETRY_SECONDS)
            # Let others run before the next deadline: when many come due together (rounds that ended
            # together start their next round together), firing them back to back under gevent would
            # hold every move and push of every other table until the last one is done.
            time.sleep(0)
