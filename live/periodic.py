"""A job run every few seconds in the background (a thread; a greenlet under gevent), stoppable."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)


def off_the_loop(job: Callable[[], object]) -> object:
    """Run `job` in an OS thread of gevent's pool when gevent runs the process, so that blocking
    work (SQLite's fsync) does not stop every greenlet; elsewhere, simply call it."""
    try:
        from gevent import get_hub, monkey
    except ImportError:
        return job()
    if not monkey.is_module_patched("threading"):
        return job()
    return get_hub().threadpool.apply(job)


class Worker:
    """A background loop (a thread; a greenlet under gevent) that runs `_run` until `stop()`.

    Subclasses loop on `self._stopped.wait(seconds)`, which returns True once stopped.
    """

    name = "worker"

    def __init__(self):
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self):
        """Start the loop (once); returns self."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, daemon=True, name=f"fichas-{self.name}")
            self._thread.start()
        return self

    def stop(self) -> None:
        """Stop the loop; waits for a round in progress."""
        self._stopped.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        raise NotImplementedError


class Periodic(Worker):
    """Calls `job()` every `interval` seconds until `stop()`; a failing run is logged, not fatal."""

    def __init__(self, name: str, interval: float, job: Callable[[], object]):
        super().__init__()
        self.name, self.interval, self.job = name, interval, job

    def _run(self) -> None:
        while not self._stopped.wait(self.interval):
            try:
                self.job()
            except Exception:
                log.exception("periodic job %s failed", self.name)
