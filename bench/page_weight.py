"""Bytes a table page costs a player, measured in Debian's Chromium: a cold load, then a warm one.

Usage: python bench/page_weight.py   (prints one JSON line; figures go to BENCHMARKS.md)
A seated player's page in mid-round is loaded in a fresh browser context (cold cache), then
opened again in the same context (warm: assets come from the cache). Bytes are what crossed
the network: response headers plus the (compressed) body, as Chromium reports them.
"""

from __future__ import annotations

import json
import logging
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from app import create_app  # noqa: E402
from tests.helpers import LiveServer  # noqa: E402
from tests.helpers.chromium import launch_chromium  # noqa: E402


def load(page, url: str) -> dict:
    """Open `url` and add up what crossed the network for it, by resource."""
    finished = []

    def keep(request):
        finished.append(request)

    page.on("requestfinished", keep)
    page.goto(url, wait_until="networkidle")
    page.remove_listener("requestfinished", keep)
    sizes = {}
    for request in finished:
        if request.url.endswith("/ws"):
            continue
        response = request.response()
        size = request.sizes()
        if response is None or size["responseBodySize"] < 0:  # Chromium's sign for "from the cache"
            continue
        sizes[request.url.split("/", 3)[-1]] = size["responseHeadersSize"] + max(0, size["responseBodySize"])
    return sizes


def measure() -> dict:
    """The cold and warm bytes of one seated player's table page."""
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE": str(Path(folder) / "fichas.sqlite3"), "GRACE_SECONDS": 0})
        server = LiveServer(app)
        try:
            players = [server.player() for _ in range(4)]
            url = players[0].create("Ana")
            for player, name in zip(players[1:], ("Bea", "Carl", "Dan"), strict=True):
                player.join(url, name)
            with sync_playwright() as playwright:
                browser = launch_chromium(playwright)
                context = browser.new_context()
                context.add_cookies([{"name": c.name, "value": c.value, "url": server.url + c.path}
                                     for c in players[0].http.cookies])
                page = context.new_page()
                cold = load(page, server.url + url)
                page.goto("about:blank")
                warm = load(page, server.url + url)
                browser.close()
        finally:
            server.stop()
            app.extensions["fichas"].close()
    return {"cold_bytes": sum(cold.values()), "warm_bytes": sum(warm.values()), "cold": cold, "warm": warm}


if __name__ == "__main__":
    print(json.dumps(measure()))
