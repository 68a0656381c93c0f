"""`python app.py`: the production server (gunicorn, one gevent worker), on FICHAS_HOST:FICHAS_PORT."""

from __future__ import annotations

import os
import signal
import sys
import threading
from functools import partial


def production_argv(host: str, port: str) -> list[str]:
    """The README's production command, bound to host:port."""
    return [sys.executable, "-m", "gunicorn", "-k", "gevent", "-w", "1", "--worker-connections", "5000",
            "-b", f"{host}:{port}", "app:create_app()"]


def main() -> None:
    """Replace this process with gunicorn: gevent patches only the worker it starts, never an import."""
    argv = production_argv(os.environ.get("FICHAS_HOST", "127.0.0.1"), os.environ.get("FICHAS_PORT", "8000"))
    print(f"Fichas on http://{argv[-2]} (Ctrl-C stops it)", flush=True)
    os.execv(sys.executable, argv)


def stop_promptly_on_term(parts) -> None:
    """In a gunicorn worker, a stop (SIGTERM from systemd, docker or `kill`; SIGINT or SIGQUIT from
    Ctrl-C) first tells every page to come back.

    gunicorn's graceful stop (SIGTERM) then waits up to 30 s for every request to end, and a websocket
    never ends by itself: the tables played on meanwhile (their clocks too), no page could come back,
    and at 30 s the worker was killed. Now the sockets close at once with 1012 (web/parts.py
    `stopping`), the worker exits within seconds, and the pages reconnect as soon as the server is
    back. A quick stop (Ctrl-C) exits a tenth of a second later, time enough for those close frames.
    """
    try:
        from gunicorn.workers.base import Worker
    except ImportError:
        return
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT):
        previous = signal.getsignal(signum)
        if isinstance(getattr(previous, "__self__", None), Worker):  # not in a worker: tests, `flask run`
            signal.signal(signum, partial(first_stopping, parts, previous))


def first_stopping(parts, previous, signum, frame) -> None:
    """Tell the parts the server stops (out of the signal handler, which must not block), then stop."""
    soon(parts.stopping)
    previous(signum, frame)


def soon(work) -> None:
    """Run `work` a moment later, beside the rest: a greenlet under gevent (a thread would block while
    starting, which gevent refuses inside a signal handler), a thread otherwise."""
    try:
        from gevent import monkey, spawn
    except ImportError:
        monkey = None
    if monkey is not None and monkey.is_module_patched("threading"):
        spawn(work)
    else:
        threading.Thread(target=work, daemon=True).start()
