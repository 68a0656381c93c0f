"""Engine speed: whole rounds of random legal moves per second, on one core.

    python bench/engine.py [--seconds N] [--seed S]

For each variant and seat count it deals rounds (Round.deal) and plays them to the end with
game.simulate.play_round (random legal moves, a tenth of them the table's automatic move, S3)
for a fixed time, then prints rounds and moves (play, pass and draw events) per second as a
markdown table, with the machine it ran on. The process is pinned to one CPU where the OS
allows it. Timings are measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere, no install

from game.rules import Round
from game.simulate import play_round
from game.variants import VARIANTS

CONFIGS = [("partnership", 4), *((v, s) for v in ("block", "draw") for s in (2, 3, 4))]
TARGET = 5000  # partnership rounds per second on one core


def measure(variant_name: str, seats: int, seconds: float, seed: int) -> tuple[int, int, float]:
    """Play rounds for `seconds`; return (rounds, moves, elapsed)."""
    variant = VARIANTS[variant_name]
    rng = random.Random(seed)
    rounds = moves = 0
    clock = time.perf_counter
    start = clock()
    deadline = start + seconds
    while True:
        rnd = play_round(Round.deal(variant, seats, rng), rng)
        rounds += 1
        moves += len(rnd.events)
        if rounds % 64 == 0 and clock() >= deadline:
            break
    return rounds, moves, clock() - start


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo, or what platform knows."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def pin_to_one_core() -> str:
    """Run on a single CPU where the OS allows it; say which."""
    try:
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    except (AttributeError, OSError):
        return "not pinned"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per variant and seat count")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    pinned = pin_to_one_core()
    print(f"Engine benchmark, {datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}, "
          f"{args.seconds:g} s per row, one process ({pinned})")
    print(f"Python {platform.python_version()} ({platform.python_implementation()}), {cpu_model()}, "
          f"{os.cpu_count()} cores, {platform.system()} {platform.release()}")
    print()
    print("| variant | seats | rounds | rounds/s | moves/round | moves/s |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    partnership_rate = 0.0
    for variant, seats in CONFIGS:
        measure(variant, seats, min(0.2, args.seconds / 10), args.seed + 1)  # warm up, not counted
        rounds, moves, elapsed = measure(variant, seats, args.seconds, args.seed)
        rate = rounds / elapsed
        if variant == "partnership":
            partnership_rate = rate
        print(f"| {variant} | {seats} | {rounds:,} | {rate:,.0f} | {moves / rounds:.1f} "
              f"| {moves / elapsed:,.0f} |", flush=True)
    print()
    verdict = "met" if partnership_rate >= TARGET else "NOT met"
    print(f"Target: >= {TARGET:,} partnership rounds/s on one core: {verdict} ({partnership_rate:,.0f}).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
