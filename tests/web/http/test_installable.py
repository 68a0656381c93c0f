"""Issue 47: Fichas on a phone's home screen: the web app manifest (its type, fields and icons), the
pages that link it, iOS Safari's tags, and no service worker (Chromium installs without one)."""

import json
import struct
from pathlib import Path

from helpers import Browser, open_table
from helpers.pages import page

ROOT = Path(__file__).resolve().parents[3]


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its header."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_the_manifest_says_what_a_browser_installs(app):
    browser = Browser(app)
    response = browser.get("/manifest.webmanifest")
    assert response.status_code == 200 and response.mimetype == "application/manifest+json"
    manifest = json.loads(response.data)
    assert manifest["name"] == "Fichas" and manifest["short_name"] == "Fichas"
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["theme_color"].startswith("#") and manifest["background_color"].startswith("#")
    sizes = {}
    for icon in manifest["icons"]:
        image = browser.get(icon["src"])
        assert image.status_code == 200 and image.mimetype == icon["type"] == "image/png", icon
        width, height = png_size(image.data)
        assert icon["sizes"] == f"{width}x{height}", icon
        assert "immutable" in image.headers["Cache-Control"]  # hashed static files
        sizes.setdefault(icon["purpose"], set()).add(width)
    assert sizes == {"any": {192, 512}, "maskable": {512}}


def test_the_manifest_speaks_the_viewers_language(app):
    spanish = Browser(app).get("/manifest.webmanifest", headers={"Accept-Language": "es"})
    manifest = json.loads(spanish.data)
    assert manifest["lang"] == "es" and manifest["description"] == "Juega al dominó con tus amigos"
    assert "Accept-Language" in spanish.headers["Vary"]


def test_every_page_links_the_manifest_and_ios_safaris_tags(app):
    url, players = open_table(app, "block", 2, names=("Ana", "Bea"))
    for html in (page(players[0], url), page(Browser(app), url), Browser(app).get("/").get_data(as_text=True),
                 Browser(app).get("/rules").get_data(as_text=True)):
        assert '<link rel="manifest" href="/manifest.webmanifest">' in html
        assert '<meta name="apple-mobile-web-app-capable" content="yes">' in html
        assert '<link rel="apple-touch-icon" href="/apple-touch-icon.png">' in html
        assert '<meta name="theme-color"' in html
    icon = Browser(app).get("/apple-touch-icon.png")
    assert icon.status_code == 200 and png_size(icon.data) == (180, 180)


def test_no_service_worker_can_answer_a_table_or_a_move_from_a_cache():
    """A stale table is worse than none: no script registers a service worker, so no cache answers
    a table page or a move (Chromium installs an app without one)."""
    for script in (ROOT / "static").glob("*.js"):
        assert "serviceWorker" not in script.read_text(), script.name
    for template in (ROOT / "templates").glob("*.html"):
        assert "serviceWorker" not in template.read_text(), template.name
