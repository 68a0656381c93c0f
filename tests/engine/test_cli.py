"""`python -m game simulate …` prints one replayable match record per line."""

import functools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from game.record import load_match

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = [("partnership", 4), *((v, s) for v in ("block", "draw") for s in (2, 3, 4))]


@functools.cache
def simulate(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "game", "simulate", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)


def records(variant, seats, target=100, seed=7, matches=3):
    run = simulate("--variant", variant, "--seats", str(seats), "--target", str(target),
                   "--seed", str(seed), "--matches", str(matches))
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    return run.stdout


@pytest.mark.parametrize(("variant", "seats"), CONFIGS)
def test_cli_simulate_prints_replayable_records(variant, seats):
    out = records(variant, seats)
    lines = out.splitlines()
    assert len(lines) == 3 and out.endswith("\n")
    for line in lines:
        data = json.loads(line)
        assert (data["variant"], data["seats"], data["target"]) == (variant, seats, 100)
        match = load_match(data)
        assert match.to_dict() == data and match.over
        assert data["scores"][data["winner"]] >= 100
    assert len(set(lines)) == 3  # three different matches


def test_cli_same_seed_same_output():
    first = records("draw", 3, 150, seed=42, matches=2)
    again = subprocess.run([sys.executable, "-m", "game", "simulate", "--variant", "draw", "--seats", "3",
                            "--target", "150", "--seed", "42", "--matches", "2"], cwd=ROOT,
                           capture_output=True, text=True, timeout=120, check=True)
    assert again.stdout == first
    assert records("draw", 3, 150, seed=43, matches=2) != first


def test_cli_some_events_are_automatic():
    events = [e for line in records("partnership", 4).splitlines()
              for r in json.loads(line)["rounds"] for e in r["events"]]
    assert any(e["auto"] for e in events) and not all(e["auto"] for e in events)


def test_cli_defaults_to_one_partnership_match():
    run = simulate()
    assert run.returncode == 0
    (line,) = run.stdout.splitlines()
    data = json.loads(line)
    assert (data["variant"], data["seats"], data["target"]) == ("partnership", 4, 100)


@pytest.mark.parametrize(("args", "message"), [
    (("--variant", "partnership", "--seats", "3"), "Partnership is played by 4 players"),
    (("--variant", "block", "--seats", "5"), "Block is played by 2 or 3 or 4 players"),
    (("--variant", "draw", "--target", "75", "--seats", "2"), "50 to 500"),
    (("--variant", "chess",), "invalid choice"),
    (("--seats", "four",), "invalid int"),
])
def test_cli_refuses_invalid_settings_readably(args, message):
    run = simulate(*args)
    assert run.returncode != 0 and run.stdout == ""
    assert message in run.stderr and "Traceback" not in run.stderr
