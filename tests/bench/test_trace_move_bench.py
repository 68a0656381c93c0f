"""bench/trace_move.py: one websocket move traced in a real app, its modules, functions and switches counted.

The figures are not asserted here (they are measured, not promised); only that the trace covers the
whole path of docs/a-move.md, from the socket's action to the pages' sends.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_one_move_is_traced_from_the_socket_to_the_pushes():
    run = subprocess.run([sys.executable, "bench/trace_move.py"], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr
    figures = r"one websocket move touches \d+ modules, \d+ functions, \d+ switches"
    assert re.search(figures, run.stdout), run.stdout
    modules = [module.strip() for module in run.stdout.split("modules: ", 1)[1].split(", ")]
    for passed in ("web/ws/endpoint.py", "live/play.py", "game/rules.py", "live/store.py", "live/snapshot.py",
                   "web/push/publish.py", "templates", "web/ws/hub.py"):
        assert passed in modules, passed
