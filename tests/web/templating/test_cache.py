"""Kept pieces (web/templating/cache.py): bounded, and forgotten when a template file changes."""

from __future__ import annotations

import ast
import os
import shutil
from pathlib import Path

import flask
import pytest

import app as app_module
from helpers import open_table
from helpers.pages import element, page
from web.templating.cache import Cache, clear_all

ROOT = Path(__file__).resolve().parents[3]
TEMPLATES = ROOT / "templates"


def test_every_module_level_cache_of_web_is_a_cache():
    # An empty dict filled at run time, or functools' caches, would be a cache no reload empties.
    for path in sorted((ROOT / "web").rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in tree.body:
            value = getattr(node, "value", None)
            assert not (isinstance(value, ast.Dict) and not value.keys), f"{path}:{node.lineno}"
        for node in ast.walk(tree):  # @lru_cache, @cache (a cached_property lives with its object)
            for decorator in getattr(node, "decorator_list", ()):
                used = ast.unparse(decorator).replace("cached_property", "")
                assert "cache" not in used, f"{path}:{node.lineno}"


def test_a_cache_never_grows_past_its_size():
    cache = Cache(3)
    for key in (1, 2, 3):
        assert cache.keep(key, key * 10) == key * 10
    assert cache.get(2) == 20
    assert cache.keep(4, 40) == 40
    assert len(cache) <= 3 and cache.get(4) == 40
    clear_all()
    assert not cache


@pytest.fixture
def templates(tmp_path, monkeypatch):
    """The app's templates, copied to a folder the test may edit; apps made meanwhile load them from it."""
    folder = tmp_path / "templates"
    shutil.copytree(TEMPLATES, folder)
    monkeypatch.setattr(app_module, "Flask",
                        lambda *args, **kwargs: flask.Flask(*args, template_folder=str(folder), **kwargs))
    yield folder
    clear_all()  # nothing rendered from the edited copies outlives the test


def edit(path: Path, old: str, new: str) -> None:
    """Change a template file on disk, its time of change clearly later (some file systems keep seconds)."""
    text = path.read_text()
    assert old in text
    before = path.stat()
    path.write_text(text.replace(old, new))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns + 2_000_000_000))


def test_a_template_edited_under_auto_reload_shows_at_the_next_render_not_a_kept_piece(make_app, templates):
    app = make_app(TEMPLATES_AUTO_RELOAD=True)
    url, players = open_table(app)
    before = page(players[0], url)
    assert 'class="domino' in element(before, "hand", "div") and "edited" not in before
    # A hand's tiles and a seat's count are kept from page to page (dominoes.py, pieces.py).
    edit(templates / "_domino.html", '<span class="domino', '<span class="domino edited')
    edit(templates / "_count.html", '<span class="count', '<span class="count edited')
    after = page(players[0], url)
    assert 'class="domino edited' in element(after, "hand", "div")
    assert 'class="count edited' in after
