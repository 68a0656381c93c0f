"""Things rendered once and kept from one push to the next: bounded, and forgotten when a template changes.

Every module-level cache of web/ is a `Cache`. Each holds values made from templates (or from values
that templates show), so when templates reload from their files (debug: Jinja's auto_reload) every
cache is emptied as soon as one file changed: the next render makes its values from the new files.
"""

from __future__ import annotations

import os
from collections.abc import Hashable
from typing import Any

CACHES: list[Cache] = []  # every cache made, to empty them all at once


class Cache(dict):
    """Values by key (a dict: `get` finds one); `keep` stores one, emptying the whole cache first once it
    holds `maxsize` (so it never grows without bound).

    Read with `get`, made and kept on a miss only: a push reads dozens of kept pieces, and a hit must
    cost no more than a dict's lookup (no function made or called).
    """

    def __init__(self, maxsize: int):
        super().__init__()
        self.maxsize = maxsize
        CACHES.append(self)

    def keep(self, key: Hashable, value: Any) -> Any:
        """Keep `value` for `key`; the value."""
        if len(self) >= self.maxsize:
            self.clear()
        self[key] = value
        return value


def clear_all() -> None:
    """Empty every cache."""
    for cache in CACHES:
        cache.clear()


def template_files(searchpath: list[str]) -> dict[str, tuple[int, int]]:
    """Each template file under the loader's folders, with its time of change and size."""
    files = {}
    for folder in searchpath:
        for root, _dirs, names in os.walk(folder):
            for name in names:
                path = os.path.join(root, name)
                stat = os.stat(path)
                files[path] = (stat.st_mtime_ns, stat.st_size)
    return files


def forget_if_templates_changed(app) -> None:
    """Empty every cache if a template file changed (or came or went) since this app last looked.

    Called before a template is used while templates reload from their files (debug only: a few dozen
    stats each time). Jinja reloads a changed template only when it is asked for; a kept piece never asks.
    """
    searchpath = getattr(app.jinja_loader, "searchpath", None)
    if not searchpath:
        return
    files = template_files(searchpath)
    seen = app.extensions.get("fichas_template_files")
    app.extensions["fichas_template_files"] = files
    if seen is not None and seen != files:
        clear_all()
