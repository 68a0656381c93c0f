"""A gunicorn config file for bench/soak.py: the worker counts its greenlets when asked.

    gunicorn ... -c bench/soak_probe.py 'app:create_app()'

Whenever the file named by FICHAS_SOAK_PROBE + ".ask" appears, the worker removes it and
appends one JSON line to FICHAS_SOAK_PROBE: the time (time.monotonic()), how many greenlets
are alive and how many objects the collector tracks. Frozen objects (live/collector.py) are
not visible to gc.get_objects(), so the count unfreezes, counts and freezes again: that also
freezes the young objects of that instant, a few times an hour, which is the only way this
probe changes the server.
"""

from __future__ import annotations

import gc
import json
import os
import time


def count() -> dict:
    """Greenlets alive and objects tracked, frozen ones included."""
    from greenlet import greenlet

    frozen = gc.get_freeze_count()
    gc.unfreeze()
    try:
        objects = gc.get_objects()
        greenlets = sum(1 for thing in objects if isinstance(thing, greenlet))
        tracked = len(objects)
        del objects
    finally:
        if frozen:
            gc.freeze()
    if os.environ.get("FICHAS_SOAK_TRIM"):
        import ctypes
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    return {"at": time.monotonic(), "greenlets": greenlets, "tracked": tracked}


def post_worker_init(worker) -> None:
    """Once the worker runs under gevent: a greenlet that answers the asks."""
    import gevent

    path = os.environ.get("FICHAS_SOAK_PROBE")
    if not path:
        return
    ask = path + ".ask"

    def run() -> None:
        while True:
            if os.path.exists(ask):
                os.remove(ask)
                with open(path, "a") as out:
                    out.write(json.dumps(count()) + "\n")
            gevent.sleep(0.5)

    gevent.spawn(run)
