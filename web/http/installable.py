"""Fichas on a phone's home screen: the web app manifest, and the icon iOS Safari looks for.

Both at fixed addresses (not the static files' hashed ones): a browser that installed the app checks
the manifest at the address it was installed from for updates. The icons it lists are static files,
hashed, cached for a year. No service worker: Chromium installs an app without one, and one that
answered a table page or a move from a cache would show a stale table, which is worse than none.
"""

from __future__ import annotations

import json
from pathlib import Path

from flask import Blueprint, Response, current_app, url_for
from flask_babel import gettext as _

from web.templating.languages import current_language

bp = Blueprint("installable", __name__)
DAY = 60 * 60 * 24
THEME = "#164d32"  # the header's felt (static/fichas.css --felt-dark): the phone's bar over the app
BACKGROUND = "#eef2ef"  # the page's own, shown while the app opens


@bp.get("/manifest.webmanifest")
def manifest():
    """What a browser installs: the name, the domino at 192 and 512 px (and a maskable one), a full screen
    without the browser's bars, opening on the home page (your tables)."""
    def icon(name: str, size: int, purpose: str = "any") -> dict:
        return {"src": url_for("static", filename=f"icons/{name}"), "sizes": f"{size}x{size}",
                "type": "image/png", "purpose": purpose}

    data = {"id": "/", "name": "Fichas", "short_name": "Fichas", "lang": current_language(),
            "description": _("Play dominoes with friends"),
            "start_url": "/", "scope": "/", "display": "standalone",
            "theme_color": THEME, "background_color": BACKGROUND,
            "icons": [icon("icon-192.png", 192), icon("icon-512.png", 512),
                      icon("maskable-512.png", 512, "maskable")]}
    response = Response(json.dumps(data, ensure_ascii=False), mimetype="application/manifest+json")
    response.headers["Cache-Control"] = f"public, max-age={DAY}"
    response.vary.update(("Accept-Language", "Cookie"))  # its description is in the viewer's language
    return response


@bp.get("/apple-touch-icon.png")
def touch_icon():
    """The home screen's icon on iOS (180 px), where Safari asks for it whatever the page links."""
    icon = Path(current_app.static_folder, "icons", "apple-touch-icon.png").read_bytes()
    return Response(icon, mimetype="image/png", headers={"Cache-Control": f"public, max-age={DAY}"})
