"""bench/load.py as a module, for the tests that drive or read pages as the load generator does."""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@cache
def load_generator():
    """bench/load.py, loaded once (bench/ is a folder of scripts, not a package)."""
    spec = importlib.util.spec_from_file_location("fichas_bench_load", ROOT / "bench" / "load.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module
