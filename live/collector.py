"""Short garbage-collector pauses for a process that keeps about a million objects alive."""

from __future__ import annotations

import gc


class FrozenSurvivors:
    """Freeze what is alive at start-up and what survives each collection.

    Thousands of websockets keep about a million objects alive; a full collection over them all
    stopped every table for most of a second. Frozen objects are skipped by the automatic collections,
    which then look only at younger objects. Freezing what survives every collection (not only a
    full one) keeps the middle and oldest generations empty, so only the young pass ever has work
    (the older passes stalled every table every few seconds).
    Nothing periodic has to unfreeze them, because the objects that live long here (tables,
    matches, rounds, sockets and their readers) form no reference cycles
    (tests/live/test_no_cycles.py): when one dies, frozen or not, its reference count frees it.
    The cycles that do form (werkzeug's URL matcher, once per request; flask-sock's response
    class, once per socket, emptied by web/ws/endpoint.py) are garbage within microseconds of being
    made, and are freed by the next young pass; one is frozen only if a pass falls inside the
    call that makes it (a few hundred objects in minutes: bench/server_probe.py counts them at exit).
    """

    def start(self) -> FrozenSurvivors:
        gc.freeze()
        gc.callbacks.append(self._after_collection)
        return self

    def stop(self) -> None:
        """Stop freezing, and give back what was frozen (tests build many apps in one process)."""
        if self._after_collection in gc.callbacks:
            gc.callbacks.remove(self._after_collection)
        gc.unfreeze()

    @staticmethod
    def _after_collection(phase: str, info: dict) -> None:
        if phase == "stop":
            gc.freeze()


def full_collection() -> None:
    """Unfreeze and collect everything once (FICHAS_GC_SECONDS: a safety net, off by default)."""
    gc.unfreeze()
    gc.collect()
