"""Short garbage-collector pauses for a process that keeps about a million objects alive."""

from __future__ import annotations

import gc


class FrozenSurvivors:
    """Freeze what is alive at start-up and what survives each full collection.

    Thousands of websockets keep about a million objects alive; a full collection over them all
    stopped every table for 0.4-0.7 s. Frozen objects are skipped by the automatic collections,
    which then look only at younger objects. Nothing periodic has to unfreeze them, because the
    objects that live long here (tables, matches, rounds, sockets and their readers) form no
    reference cycles (tests/web/test_no_cycles.py): when one dies, frozen or not, its reference
    count frees it. The cycles that do form (werkzeug's URL matcher, once per request; flask-sock's
    response class, once per socket, emptied by web/socket.py) die young, in the automatic passes.
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
        if phase == "stop" and info["generation"] == 2:
            gc.freeze()


def full_collection() -> None:
    """Unfreeze and collect everything once (FICHAS_GC_SECONDS: a safety net, off by default)."""
    gc.unfreeze()
    gc.collect()
