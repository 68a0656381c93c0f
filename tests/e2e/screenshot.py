"""Save the README's screenshots: a Partnership table in mid-round, on a desktop and on a phone.

Run from anywhere: `python tests/e2e/screenshot.py [output.png]` (default static/img/screenshot.png;
the phone's picture is saved beside it, as screenshot-phone.png). It serves the app on a
temporary database, seats four people in Debian's Chromium (Bea on a 360x640 phone, the others
at 1280x800), lets them play a few moves by clicking, and photographs what the player whose
turn it is sees, and what Bea sees on her phone.
"""

from __future__ import annotations

import logging
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the helpers import one another as `helpers`, as the suite does

from playwright.sync_api import sync_playwright  # noqa: E402

from app import create_app  # noqa: E402
from helpers import LiveServer  # noqa: E402
from helpers.chromium import launch_chromium  # noqa: E402
from helpers.players import Player, Stats, play_one_move, seat_players  # noqa: E402

SEED = 4  # after MOVES moves of this deal: Carl to play, two of his four tiles fit,
MOVES = 14  # and Ana's and Bea's passes are on record (T7)
NAMES = ("Ana", "Bea", "Carl", "Dan")
OUTPUT = ROOT / "static" / "img" / "screenshot.png"
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True}
PHONE_SEAT = 1


def phone_path(output: Path) -> Path:
    """Where the phone's picture goes: beside `output`."""
    return output.with_name(output.stem + "-phone" + output.suffix)


def take(output: Path) -> Path:
    """Play a few moves at a fresh table; save the desktop view to `output`, the phone's beside it."""
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE": str(Path(folder) / "fichas.sqlite3"), "GRACE_SECONDS": 0,
                          "TABLES_OPTIONS": {"rng": random.Random(SEED)}})
        server = LiveServer(app)
        try:
            with sync_playwright() as playwright:
                browser = launch_chromium(playwright)
                try:
                    sizes = [PHONE if seat == PHONE_SEAT else DESKTOP for seat in range(len(NAMES))]
                    players = [Player(browser.new_context(**size).new_page(), name, phone=size is PHONE)
                               for name, size in zip(NAMES, sizes, strict=True)]
                    seat_players(server.url, players, "partnership", 100)
                    stats = Stats()
                    for _ in range(MOVES):
                        play_one_move(players, stats)
                    viewer = players[players[0].turn()]
                    viewer.page.mouse.move(0, 0)  # no hover effects in the picture
                    output.parent.mkdir(parents=True, exist_ok=True)
                    for player in (viewer, players[PHONE_SEAT]):  # the tile just placed, at rest
                        player.page.evaluate("document.getAnimations().forEach(a => a.finish())")
                    viewer.page.screenshot(path=str(output))
                    players[PHONE_SEAT].page.screenshot(path=str(phone_path(output)))
                finally:
                    browser.close()
        finally:
            server.stop()
            app.extensions["fichas"].close()
    return output


if __name__ == "__main__":
    saved = take(Path(sys.argv[1]) if len(sys.argv) > 1 else OUTPUT)
    print(f"saved {saved} and {phone_path(saved)}")
