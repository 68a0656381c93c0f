"""Hypothesis example counts that follow the loaded profile (tests/conftest.py registers the profiles)."""

from __future__ import annotations

from hypothesis import settings

QUICK, THOROUGH = "quick", "thorough"
# Each profile's max_examples: thorough keeps Hypothesis's own default, quick runs a tenth of it.
MAX_EXAMPLES = {QUICK: 10, THOROUGH: 100}


def examples(thorough: int) -> int:
    """A test's example count: `thorough` under the thorough profile (CI's), scaled to the loaded one."""
    # An explicit settings(max_examples=...) overrides any profile, so the count itself must follow it.
    return max(1, thorough * settings().max_examples // MAX_EXAMPLES[THOROUGH])
