"""One address floods over keep-alive connections pipelining GETs: how long other tables' moves take.

    python bench/keepalive_flood.py [--connections 50 500] [--seconds 12] [--runs 3] [--core 0]

It starts the README's production command with the per-client limits at their defaults, pins its
master and worker to one core (`taskset`, as issue 48 measured), seats a table of four and times its
moves (to all four seats) before the flood and during it, while one address (127.0.0.2) keeps
`--connections` kept-alive connections busy, each pipelining GETs of the home page (a batch of 20,
the next once it is answered). A person's page visits are timed too: from the flooder's own address
and from another one (127.0.0.3). The test (tests/web/guard/test_flood.py) asserts what is stable on a
busy machine; the figures here are for a quiet one. Prints one line of JSON per run.

Measured on 2026-12-07 (a shared 2-core VM, load average 4-5 from other work; the server on core 0,
two runs each; moves to all four seats: median / 95th percentile / max, in ms):

    flood                   before (ClientTurns: 8 at once)   after (a flood one at a time, when idle)
    none                    2.4-6.7                           2.3-5.4
    50 connections          17-27 / 42-49 / 73-167            4.0-5.8 / 11-17 / 18-23
    500 connections         22-37 / 70-226 / 71-241           2.9-3.1 / 11-15 / 17-30
    another address's GET   20-36 (median)                    7-11
    the flooder's own GET   39-147 (median)                   115-925
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "web"), str(ROOT / "tests"), str(ROOT)]

from test_flood import keep_alive_flood  # noqa: E402 (the test's flood, timed the same way)
from wsclient import Production  # noqa: E402


def ms(values: list[float], share: float) -> float:
    """The value below which `share` of them lie, in milliseconds."""
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000, 1)


def summary(values: list[float]) -> dict:
    """How many, their median, 95th percentile and maximum, in milliseconds."""
    return {"n": len(values), "median_ms": round(statistics.median(values) * 1000, 1),
            "p95_ms": ms(values, 0.95), "max_ms": round(max(values) * 1000, 1)}


def run(connections: int, seconds: float, core: int) -> dict:
    """One run: a fresh server on one core, the table's quiet moves, then the flood."""
    server = Production(Path(tempfile.mkdtemp(prefix="fichas-flood-")), FICHAS_PAUSE_SECONDS="1",
                        FICHAS_GRACE_SECONDS="0").start()
    try:
        for pid in (server.process.pid, server.worker):
            subprocess.run(["taskset", "-pc", str(core), str(pid)], check=True, capture_output=True)
        figures = keep_alive_flood(server, connections, seconds)
    finally:
        server.stop()
    return {"connections": connections, "answered": figures.pop("answered"),
            **{name: summary(values) for name, values in figures.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, nargs="+", default=[50, 500])
    parser.add_argument("--seconds", type=float, default=12.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--core", type=int, default=0)
    args = parser.parse_args()
    for _ in range(args.runs):
        for connections in args.connections:
            print(json.dumps(run(connections, args.seconds, args.core)), flush=True)


if __name__ == "__main__":
    main()
