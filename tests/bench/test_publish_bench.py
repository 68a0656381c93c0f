"""bench/publish.py --tables: many tables played a move each in turn, whole matches and new ones after.

Timings are not asserted here; they live in BENCHMARKS.md.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # plays interleaved tables through the publish benchmark: out of the quick loop

ROOT = Path(__file__).resolve().parents[2]


def test_interleaved_tables_play_on_past_the_end_of_their_matches():
    # 3 tables, 1,500 moves: each plays several whole matches (about 180 moves each), so a match's
    # end and the next one's start are taken as a server's table takes them.
    run = subprocess.run([sys.executable, "bench/publish.py", "--tables", "3", "--moves", "1500"], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    figures = re.fullmatch(r"3 tables, (\d+) moves: CPU (\d+) µs a move, of which the collector [\d.]+ µs"
                           r" \(\d+ passes\)\n", run.stdout)
    assert figures, run.stdout
    assert int(figures[1]) >= 1500 and int(figures[2]) > 0
