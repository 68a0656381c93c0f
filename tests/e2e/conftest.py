"""Browser fixtures: Debian's Chromium driven by Playwright's sync API, one context per player.

The browser is launched here rather than through pytest-playwright's `browser` fixture: that
name is taken by tests/conftest.py (test-client browsers), and with a fixture of our own none
of the plugin's fixtures (nor a second sync Playwright) ever start. Where Chromium is missing
the browser tests skip, unless FICHAS_REQUIRE_BROWSER=1 (CI), where they fail.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from helpers.chromium import CHROMIUM, DESKTOP, PHONE, TIMEOUT_MS, close_within, launch_chromium, unavailable


@pytest.fixture(scope="session")
def chromium():
    """One headless Chromium for the whole session."""
    if not Path(CHROMIUM).is_file():
        unavailable(f"no Chromium at {CHROMIUM}")
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass  # no loop running: the sync API may be used
    else:
        pytest.fail("Playwright's sync API cannot run inside a running asyncio loop", pytrace=False)
    from playwright.sync_api import Error, sync_playwright

    with sync_playwright() as playwright:
        try:
            browser = launch_chromium(playwright)
        except Error as error:
            unavailable(f"Chromium at {CHROMIUM} did not start: {error.message.splitlines()[0]}")
        yield browser
        close_within(browser)


@pytest.fixture
def open_page(chromium, make_server):
    """Open pages, each in its own browser context (its own cookies: one player each).

    Depends on make_server so that pages close before their servers stop.
    """
    contexts = []

    def open_(url: str | None = None, phone: bool = False):
        context = chromium.new_context(**(PHONE if phone else DESKTOP))
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        if url:
            page.goto(url)
        return page

    yield open_
    for context in contexts:
        close_within(context)


@pytest.fixture(autouse=True)
def _expect_timeout():
    """Give expect() the same headroom as actions."""
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT_MS)
