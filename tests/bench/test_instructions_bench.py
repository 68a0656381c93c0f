"""bench/instructions.py: the instructions a move, counted by valgrind (skipped where it is not installed).

Counts are not asserted here; they live in BENCHMARKS.md.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # counts a move's instructions under valgrind: out of the quick loop

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_instructions_a_move_are_counted_over_the_extra_moves():
    run = subprocess.run([sys.executable, "bench/instructions.py", "--tables", "2", "--moves", "20"],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    figures = re.fullmatch(r"2 tables: ([\d,]+) instructions a move \(.+\)\n", run.stdout)
    assert figures, run.stdout
    assert int(figures[1].replace(",", "")) > 10_000  # a move is hundreds of thousands of instructions


def test_without_valgrind_it_says_what_to_install(tmp_path):
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "instructions.py")], cwd=ROOT,
                         capture_output=True, text=True, timeout=60, env={"PATH": str(tmp_path)})
    assert run.returncode != 0 and "apt-get install valgrind" in run.stderr
