"""Debian's Chromium for the browser tests (tests/e2e/conftest.py) and the scripts that drive it."""

from __future__ import annotations

import asyncio
import logging
import os

import pytest

CHROMIUM = os.environ.get("FICHAS_CHROMIUM", "/usr/bin/chromium")
# Never `playwright install`: these flags run Debian's Chromium headless in a container.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1000, "height": 800}}
TIMEOUT_MS = 10_000  # actions and expect(): pushes arrive in milliseconds; this is headroom
CLOSE_SECONDS = 20  # a browser context (or the browser) that takes longer to close is left behind


def browser_required() -> bool:
    """CI sets FICHAS_REQUIRE_BROWSER=1: there a missing browser is a failure, not a skip."""
    return os.environ.get("FICHAS_REQUIRE_BROWSER") == "1"


def unavailable(reason: str):
    """Skip (or, where a browser is required, fail) every browser test."""
    if browser_required():
        pytest.fail(f"FICHAS_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
    pytest.skip(f"{reason} (install Debian's `chromium`, or set FICHAS_CHROMIUM to a Chromium binary)")


def close_within(owner, seconds: float = CLOSE_SECONDS) -> None:
    """Close a browser context or a browser, giving up after `seconds`.

    Chromium on a loaded machine once left BrowserContext.close() waiting forever after a test had
    passed (a CI run: pytest-timeout failed it 600 s later; the next tests ran fine in the same
    browser). Playwright's close() takes no timeout, so its coroutine is awaited with one, on the
    sync API's own loop (`_sync`, `_impl_obj`: Playwright's sync wrappers, pinned below 2).
    """
    try:
        owner._sync(asyncio.wait_for(owner._impl_obj.close(reason=None), seconds))
    except TimeoutError:
        logging.getLogger(__name__).warning("%r did not close within %s s: left behind", owner, seconds)


def launch_chromium(playwright):
    """Debian's Chromium with the flags a container needs (no sandbox, no background networking)."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
