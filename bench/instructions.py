"""Machine instructions a move, counted by valgrind: a before/after of the move's code that noise cannot blur.

    python bench/instructions.py [--tables N] [--moves M] [--root PATH]

Runs `bench/publish.py --tables N` (N tables played a move each in turn: the rules, the SQLite
write and the push to websocket stand-ins) twice under valgrind's cachegrind, with M moves and
with 5 M, and prints the instructions of the extra 4 M moves, per move. The tables' setup and
Python's start cancel out. Timings on a shared VM drift by 10-20 % from one minute to the next
(BENCHMARKS.md); the count is the same to 0.1 % from run to run, so a change of 1 % shows.
It counts work, not time: cache misses and system calls (the sends' cost in a live server) are
not in it. Needs valgrind (`apt-get install valgrind`); about a minute per checkout.
`--root` counts another checkout (publish.py's own `--root`).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REFS = re.compile(r"I\s+refs:\s+([\d,]+)")
MOVES = re.compile(r"(\d+) tables, (\d+) moves")  # publish.py plays a move at every table in turn


def instructions(tables: int, moves: int, root: str) -> tuple[int, int]:
    """Instructions valgrind counted in one run of bench/publish.py, and the moves it played."""
    command = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
               sys.executable, str(ROOT / "bench" / "publish.py"), "--tables", str(tables),
               "--moves", str(moves), "--root", root]
    run = subprocess.run(command, capture_output=True, text=True, check=True)
    found, played = REFS.search(run.stderr), MOVES.search(run.stdout)
    if found is None or played is None:
        raise RuntimeError(f"no instruction count or moves:\n{run.stdout[-500:]}\n{run.stderr[-2000:]}")
    return int(found[1].replace(",", "")), int(played[2])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--moves", type=int, default=500, help="moves of the short run (the long: 5 times)")
    parser.add_argument("--root", default=str(ROOT))
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    short, short_moves = instructions(args.tables, args.moves, args.root)
    long, long_moves = instructions(args.tables, args.moves * 5, args.root)
    print(f"{args.tables} tables: {(long - short) / (long_moves - short_moves):,.0f} instructions a move"
          f" ({args.root})")


if __name__ == "__main__":
    main()
