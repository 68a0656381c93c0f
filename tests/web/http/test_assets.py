"""What a browser downloads: compressed pages and assets, content-hashed URLs cached for good, a budget."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import brotli

from helpers import open_table

ROOT = Path(__file__).resolve().parents[3]
CHROMIUM_ACCEPTS = "gzip, deflate, br, zstd"  # what Chromium sends
# The manifest too (its fixed address is no static file's: web/http/installable.py): Chromium fetches it with
# the page, to know whether the site installs. Not iOS's touch icon, which only "Add to Home Screen" fetches.
ASSET = re.compile(r'<(?:link|script)\b[^>]*?(?:href|src)="(/static/[^"]+|/manifest\.webmanifest)"')
PAGE_BUDGET = 47_000  # bytes for a cold table page: HTML, CSS, JS, icon and manifest, compressed: 46,377
# in session 53 after issues 47 and 44 (42,391 in session 52 before them). Issue 47: the manifest now counted,
# 252; the QR codes' and your tables' CSS, 280; the page's manifest and iOS tags, about 60 (the QR codes
# themselves are images fetched where shown, never by a page in a round). Issue 44's table talk: its panel
# +1.0 KB of page, talk.js +1.4 KB, its styles +0.7 KB. Measured (with the table's random id) at the commit
# that set it.
# `git log -p` on this line tells what each raise paid for.


def assets_of(html: str) -> list[str]:
    """The stylesheet, scripts and icon a page makes the browser fetch."""
    return ASSET.findall(html)


def test_a_table_page_and_its_css_and_js_are_gzipped_when_asked(app):
    url, players = open_table(app)
    page = players[0].get(url, headers={"Accept-Encoding": "gzip"})
    assert page.status_code == 200 and page.headers["Content-Encoding"] == "gzip"
    html = players[0].get(url).get_data(as_text=True)  # the test client sends no Accept-Encoding
    kinds = set()
    for asset in assets_of(html):
        response = players[0].get(asset, headers={"Accept-Encoding": "gzip"})
        assert response.status_code == 200
        if asset.split("?")[0].endswith((".css", ".js")):
            kinds.add(asset.split("?")[0].rsplit(".", 1)[1])
            assert response.headers["Content-Encoding"] == "gzip", asset
    assert kinds == {"css", "js"}


def test_without_accept_encoding_nothing_is_compressed(app):
    url, players = open_table(app)
    response = players[0].get(url)
    assert "Content-Encoding" not in response.headers and b"data-version" in response.data


def test_brotli_is_preferred_where_the_browser_offers_it(app):
    url, players = open_table(app)
    response = players[0].get(url, headers={"Accept-Encoding": CHROMIUM_ACCEPTS})
    assert response.headers["Content-Encoding"] == "br"


def test_hashed_static_urls_are_cached_for_a_year_and_others_are_not(app):
    url, players = open_table(app)
    css = next(a for a in assets_of(players[0].get(url).get_data(as_text=True)) if ".css" in a)
    assert re.search(r"\?v=[0-9a-f]{12}$", css)
    assert "immutable" in players[0].get(css).headers["Cache-Control"]
    unhashed = players[0].get(css.split("?")[0]).headers.get("Cache-Control", "")
    assert "immutable" not in unhashed and "max-age=31536000" not in unhashed
    stale = players[0].get(css.split("?")[0] + "?v=000000000000").headers.get("Cache-Control", "")
    assert "immutable" not in stale


def test_a_static_url_changes_when_the_file_changes(app, tmp_path):
    static = tmp_path / "static"
    shutil.copytree(ROOT / "static", static)
    app.static_folder = str(static)
    client = app.test_client()
    before = assets_of(client.get("/").get_data(as_text=True))
    with (static / "fichas.css").open("a") as css:
        css.write("\n.changed { color: red; }\n")
    after = assets_of(client.get("/").get_data(as_text=True))
    changed = [(b, a) for b, a in zip(before, after, strict=True) if b != a]
    assert len(changed) == 1 and "fichas.css" in changed[0][1]
    assert client.get(changed[0][1]).get_data(as_text=True).endswith(".changed { color: red; }\n")


def test_favicon_is_a_small_domino(app):
    response = app.test_client().get("/favicon.ico")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert b"<svg" in response.data and len(response.data) < 2000
    assert 'rel="icon"' in app.test_client().get("/").get_data(as_text=True)


def test_a_cold_table_page_stays_within_its_budget(app):
    """A player's page mid-round, as Chromium fetches it cold: the page, then every asset it names."""
    url, players = open_table(app)
    browser = players[0]
    page = browser.get(url, headers={"Accept-Encoding": CHROMIUM_ACCEPTS})
    html = browser.get(url).get_data(as_text=True)
    assert 'id="hand"' in html  # a seated player's page in a round: the largest page there is
    sizes = {url: len(page.data)}
    for asset in assets_of(html):
        sizes[asset] = len(browser.get(asset, headers={"Accept-Encoding": CHROMIUM_ACCEPTS}).data)
    assert len(sizes) >= 5  # the page, the stylesheet, htmx, its websocket extension, our script
    assert sum(sizes.values()) <= PAGE_BUDGET, sizes


def test_no_tracked_file_refers_to_documents_outside_the_repository():
    # Written in pieces so that this file does not match itself.
    outside = ["../" + "shared", "DESIGN" + ".md", "RULES" + " §", "RULES" + ".md"]
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
    found = []
    for name in tracked.stdout.splitlines():
        path = ROOT / name
        if not path.is_file() or path.suffix in (".png", ".ico", ".sqlite3"):
            continue
        text = path.read_text(errors="replace")
        found += [f"{name}: {word}" for word in outside if word in text]
    assert not found


ALL_COMMENTS = {".js": re.compile(r"//[^\n]*"), ".css": re.compile(r"/\*.*?\*/", re.S)}


def test_our_css_and_js_are_served_without_their_whole_line_comments(app):
    """Comments are for the repository's readers: a phone loading a table gets the code, all of it."""
    client = app.test_client()
    for path in sorted((ROOT / "static").glob("*.*s")):
        source = path.read_text()
        served = client.get(f"/static/{path.name}").get_data(as_text=True)
        assert len(served) < 0.9 * len(source), path.name
        lines = [line.strip() for line in served.splitlines()]
        assert not [line for line in lines if line.startswith(("//", "/*"))], path.name
        drop = ALL_COMMENTS[path.suffix]
        assert drop.sub("", served).split() == drop.sub("", source).split(), path.name
    vendored = next((ROOT / "static" / "vendor").glob("htmx-*.js"))
    assert client.get(f"/static/vendor/{vendored.name}").data == vendored.read_bytes()


def test_static_files_are_compressed_once_and_again_when_they_change(app, tmp_path, monkeypatch):
    """Compressing htmx with brotli for every visitor cost 1.6 ms of the worker (a red team): a static
    file's compressed bytes are kept, for as long as the file is unchanged; pages are never kept."""
    compressed, real = [], brotli.compress
    monkeypatch.setattr(brotli, "compress",
                        lambda data, **options: compressed.append(data) or real(data, **options))
    static = tmp_path / "static"
    shutil.copytree(ROOT / "static", static)
    app.static_folder = str(static)
    client = app.test_client()
    accepts = {"Accept-Encoding": CHROMIUM_ACCEPTS}
    first = client.get("/static/fichas.css", headers=accepts)
    assert first.headers["Content-Encoding"] == "br"
    assert brotli.decompress(first.data) == client.get("/static/fichas.css").data
    assert client.get("/static/fichas.css", headers=accepts).data == first.data
    assert len(compressed) == 1
    gzipped = client.get("/static/fichas.css", headers={"Accept-Encoding": "gzip"})
    assert gzipped.headers["Content-Encoding"] == "gzip"
    with (static / "fichas.css").open("a") as css:
        css.write("\n.changed { color: red; }\n")
    changed = client.get("/static/fichas.css", headers=accepts)
    assert brotli.decompress(changed.data).endswith(b".changed { color: red; }\n") and len(compressed) == 2
    url, players = open_table(app)
    pages = [brotli.decompress(player.get(url, headers=accepts).data) for player in players[:2]]
    assert pages[0] != pages[1] and b'data-you="0"' in pages[0] and b'data-you="1"' in pages[1]
    assert len(compressed) == 4  # each page
